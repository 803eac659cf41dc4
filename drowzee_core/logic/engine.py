"""The KB's Prolog engine: triples, rule families, derivation and proofs (through `session`).

Everything crosses the boundary as integers or bound arguments; see `prolog/core.pl`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from drowzee_core.errors import LogicError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.logic import session
from drowzee_core.logic.explain import Proof
from drowzee_core.logic.rules import CompiledRules, Family, compile_catalog
from drowzee_core.records.enums import ProofStatus

log = logging.getLogger(__name__)

MAX_RELATION_ID = 1 << 20
"""Relation ids stay below this: `d1_key/3` in core.pl packs a subject and a relation into one integer."""

CASE_KINDS = (
    "symmetric",
    "inverse",
    "transitive",
    "composite",
    "same_object",
    "negation",
    "negation_same_object",
)
"""Rules that `case_batch` can put at the top of a test case's proof."""


@dataclass(frozen=True, slots=True)
class FamilyRun:
    """Result of materializing one rule family."""

    family: str
    facts: int
    seconds: float


@dataclass(frozen=True, slots=True)
class ProveResult:
    """Outcome of `prove`: supported / contradicted / unknown, with the id-level proof tree."""

    status: ProofStatus
    proof: Proof | None


@dataclass(frozen=True, slots=True)
class CommonResult:
    """Outcome of `common_object`: do S and O share an object Z of R, with a proof of each side."""

    status: ProofStatus
    object: int | None
    premises: tuple[Proof, ...]


class PrologEngine:
    """A knowledge base loaded into SWI-Prolog, in its own Prolog module, with the catalog's rules.

    janus embeds one Prolog per process; each KB lives in a module of it (`drowzee` by default).
    Creating an engine resets its module's database, so keep one engine per module: the older
    engine of the same module refuses to run. Engines of different modules do not disturb each other.
    """

    _generations: ClassVar[dict[str, int]] = {}

    def __init__(self, module: str = session.DEFAULT_MODULE) -> None:
        self.module = session.kb_module(module)
        PrologEngine._generations[module] = PrologEngine._generations.get(module, 0) + 1
        self._generation_id = PrologEngine._generations[module]
        self._call(f"{module}:reset")
        self.rules: CompiledRules | None = None
        self.prepared = False

    def prepare(self) -> None:
        """Materialize level 1 (symmetric and inverse facts): all that proving needs."""
        if not self.prepared:
            self._call(f"{self.module}:prepare(_, _)")
            self.prepared = True

    def _call(self, goal: str, inputs: dict[str, Any] | None = None) -> dict[str, Any]:
        if self._generation_id != PrologEngine._generations[self.module]:
            raise LogicError(
                f"this engine's Prolog database (module {self.module}) was replaced by a newer PrologEngine"
                " of the same module (janus hosts one Prolog per process); keep one engine per module"
                " or reload this one"
            )
        return session.call(goal, inputs)

    # ------------------------------------------------------------------ loading
    def load_rules(
        self,
        catalog: Catalog,
        relation_ids: dict[str, int],
        classes: dict[str, int] | None = None,
        *,
        closed_world: bool = True,
    ) -> CompiledRules:
        """Compile the catalog and assert its facts (integers only, bound as arguments); see `compile_catalog`."""
        if max(relation_ids.values(), default=0) >= MAX_RELATION_ID:
            raise LogicError(f"relation ids must be below {MAX_RELATION_ID} (the derived facts' index key holds one)")
        rules = compile_catalog(catalog, relation_ids, classes, closed_world=closed_world)
        for pred, args in rules.facts:
            names = [f"A{i}" for i in range(len(args))]
            self._call(f"assertz({self.module}:{pred}({', '.join(names)}))", dict(zip(names, args, strict=True)))
        self.rules = rules
        return rules

    def load_rows(
        self, batches: Iterable[Sequence[tuple[int, int, int, int]]], progress: Callable[[int], None] | None = None
    ) -> int:
        """Assert (s, r, o, negated) id tuples; returns how many were loaded."""
        n = 0
        for batch in batches:
            self._call(f"{self.module}:load_rows(L)", {"L": list(batch)})
            n += len(batch)
            if progress:
                progress(len(batch))
        return n

    # ------------------------------------------------------------------ deriving
    def derive(
        self, progress: Callable[[str], None] | None = None, clock: Callable[[], float] = time.perf_counter
    ) -> list[FamilyRun]:
        """Materialize symmetric, inverse, transitive and composite facts, in that order.

        Each family is timed on its own Prolog call (`clock` is injectable for tests). Inverse counts
        and seconds include the inverse of the transitive closure (computed after it).
        """
        runs: dict[str, FamilyRun] = {}

        def timed(family: str, goal: str) -> None:
            if progress:
                progress(family)
            t0 = clock()
            n = int(self._call(goal)["C"])
            runs[family] = FamilyRun(family, n, clock() - t0)
            log.info("derived %d %s facts in %.2fs", n, family, runs[family].seconds)

        level1 = (Family.SYMMETRIC, Family.INVERSE)  # symmetric first: inverse skips facts it already gave
        if not self.prepared:
            for fam in level1:
                timed(fam, f"{self.module}:materialize_level1({fam.value}, C)")
            self._call(f"{self.module}:mark_prepared")
            self.prepared = True
        else:  # level 1 was materialized earlier by `prove`: report what it holds
            for fam in level1:
                n = self.count(f"dfact(_, _, _, 1, rule({fam.value}, _))")
                runs[fam] = FamilyRun(fam, n, 0.0)
        timed(Family.TRANSITIVE, f"{self.module}:materialize_transitive(C)")
        timed("inverse_of_closure", f"{self.module}:count_inverse_closure(C)")
        timed(Family.COMPOSITE, f"{self.module}:materialize_composite(C)")
        extra = runs.pop("inverse_of_closure")  # reported as part of the inverse family
        inv = runs[Family.INVERSE]
        runs[Family.INVERSE] = FamilyRun(inv.family, inv.facts + extra.facts, inv.seconds + extra.seconds)
        return list(runs.values())

    # ------------------------------------------------------------------ proving
    def prove(self, s: int, r: int, o: int) -> ProveResult:
        """Decide (s, r, o): supported or contradicted with a proof tree, else unknown."""
        self.prepare()
        res = self._call(f"{self.module}:prove_dict(S, R, O, D)", {"S": s, "R": r, "O": o})["D"]
        proof = res["proof"]
        return ProveResult(ProofStatus(str(res["status"])), None if proof == "none" else proof)

    def common_object(self, s: int, r: int, o: int) -> CommonResult:
        """Whether `s` and `o` both stand in `r` to the same object (see `common_object_dict/4`)."""
        self.prepare()
        res = self._call(f"{self.module}:common_object_dict(S, R, O, D)", {"S": s, "R": r, "O": o})["D"]
        z = res["object"]
        return CommonResult(ProofStatus(str(res["status"])), None if z == "none" else int(z), tuple(res["premises"]))

    def prove_many(self, queries: Sequence[tuple[int, int, int]]) -> list[ProofStatus]:
        """Statuses of many (s, r, o) queries in one Prolog call (no proofs; the fast path)."""
        if not queries:
            return []
        self.prepare()
        return [ProofStatus(str(s)) for s in self._call(f"{self.module}:prove_batch(Q, S)", {"Q": list(queries)})["S"]]

    def case_batch(self, kind: str, seeds: Sequence[tuple[int, int, int, int]]) -> list[dict[str, Any]]:
        """Derive test-case conclusions from seed facts (see `case_batch/3` in core.pl).

        Args:
            kind: symmetric, inverse, transitive, composite, same_object, negation or
                negation_same_object.
            seeds: (s, r, o, k) base facts; k picks among several conclusions (for the negation
                kinds it is the distractor entity).

        Returns:
            One dict per seed that yields a case: seed index, status, fact [s, r, o] and proof.

        """
        if kind not in CASE_KINDS:
            raise LogicError(f"unknown case kind {kind!r}; expected one of {', '.join(CASE_KINDS)}")
        if not seeds:
            return []
        self.prepare()
        goal = f"{self.module}:case_batch(K, S, C)"
        cases: list[dict[str, Any]] = self._call(goal, {"K": kind, "S": list(seeds)})["C"]
        return cases

    def subject_sets(self, pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
        """For each (relation, object): the sorted subjects of base and level-1 facts.

        For relations that are neither transitive nor the result of a composite rule, this is the
        exact set of subjects that `prove` supports.
        """
        if not pairs:
            return []
        self.prepare()
        sets = self._call(f"{self.module}:subject_sets(P, L)", {"P": list(pairs)})["L"]
        return [[int(x) for x in s] for s in sets]

    def derived_sample(self, family: Family, limit: int) -> list[tuple[int, int, int]]:
        """Up to `limit` derived facts of a materialized family, in Prolog's order."""
        facts = self._call(f"{self.module}:derived_sample(F, M, L)", {"F": family.value, "M": limit})["L"]
        return [(int(t[0]), int(t[1]), int(t[2])) for t in facts]

    def partition_conflicts(self, limit: int = 100) -> list[tuple[int, int, int, int]]:
        """Up to `limit` (subject, relation, cell, other cell): data that breaks a declared partition.

        A subject that reaches two cells (or a cell that reaches another) makes the partition rule refute a
        fact the KB holds, so a KB should have none.
        """
        self.prepare()
        found = self._call(f"{self.module}:partition_conflicts(M, L)", {"M": limit})["L"]
        return [(int(c[0]), int(c[1]), int(c[2]), int(c[3])) for c in found]

    def read_fact_file(self, path: str) -> list[dict[str, Any]]:
        """Parse a Prolog fact file (see `read_fact_file`); does not touch this engine's KB."""
        return read_fact_file(path)

    def count(self, goal: str) -> int:
        """Number of solutions of a fixed goal of this module (used by tests and benchmarks)."""
        return int(self._call(f"aggregate_all(count, {self.module}:({goal}), C)")["C"])


def read_fact_file(path: str) -> list[dict[str, Any]]:
    """Parse a Prolog fact file with SWI-Prolog's reader, executing nothing.

    Returns one dict per clause: {line, functor, args, negated} or {line, error}.
    """
    items: list[dict[str, Any]] = session.call("drowzee:read_fact_file(F, I)", {"F": path})["I"]
    return items
