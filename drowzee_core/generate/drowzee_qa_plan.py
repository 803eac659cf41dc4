"""How Drowzee QA cases are planned (pure).

Which relations seed each rule family, and how the cases are spread over (family, domain) cells and
interleaved so that every prefix of the output covers the rules.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from dataclasses import dataclass

from drowzee_core.errors import DrowzeeError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.records.cases import QACase

Seed = tuple[int, int, int, int]
"""(subject, relation, object, domain id) of a seed fact."""


def family_kinds(family: str, catalog: Catalog, rids: dict[str, int]) -> list[tuple[str, set[int]]]:
    """The `case_batch` kinds of a family and the relations whose base facts seed them."""

    def ids(names: Iterable[str]) -> set[int]:
        return {rids[n] for n in names if n in rids}

    rels = [r for r in catalog if r.name in rids]
    if family == "symmetric":
        return [("symmetric", ids(r.name for r in rels if r.symmetric))]
    if family == "inverse":
        return [("inverse", ids(r.name for r in rels if r.inverse_of))]
    if family == "transitive":
        # of a transitive inverse pair only the first-declared one is tabled (see core.pl)
        canonical = [
            r.name
            for r in rels
            if r.transitive
            and not (
                r.inverse_of and catalog.get(r.inverse_of).transitive and rids.get(r.inverse_of, 1 << 62) < rids[r.name]
            )
        ]
        return [("transitive", ids(canonical))]
    if family == "composite":
        return [
            ("composite", ids(c.first for c in catalog.composites)),
            ("same_object", ids(s.relation for s in catalog.same_object)),
        ]
    if family == "negation":
        return [
            ("negation", ids(r.name for r in rels if r.functional)),
            (
                "negation_same_object",
                ids(s.relation for s in catalog.same_object if catalog.get(s.relation).functional),
            ),
        ]
    raise DrowzeeError(f"unknown rule family {family!r}")


@dataclass(slots=True)
class Cell:
    """The seeds of one (family, domain) and how many cases it still owes."""

    family: str
    domain: str
    seeds: list[tuple[str, Seed]]
    need: int = 0
    pos: int = 0

    @property
    def exhausted(self) -> bool:
        """Whether every seed of the cell has been tried."""
        return self.pos >= len(self.seeds)


def allocate(cells: list[Cell], n: int, families: tuple[str, ...]) -> None:
    """Add `n` cases of need: evenly over families present, then evenly over each family's cells."""
    present = [f for f in families if any(c.family == f for c in cells)]
    for fi, family in enumerate(present):
        share = n // len(present) + (1 if fi < n % len(present) else 0)
        mine = [c for c in cells if c.family == family]
        for ci, cell in enumerate(mine):
            cell.need += share // len(mine) + (1 if ci < share % len(mine) else 0)


def interleave(cases: list[QACase], families: tuple[str, ...]) -> list[QACase]:
    """Round-robin over families so any prefix of the output is spread over the rules."""
    queues = {f: deque(c for c in cases if c.rule == f) for f in families}
    out: list[QACase] = []
    while any(queues.values()):
        for f in families:
            if queues[f]:
                out.append(queues[f].popleft())
    return out
