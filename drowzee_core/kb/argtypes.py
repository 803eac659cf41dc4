"""What a relation's subjects and objects are, read from the catalog's rules (pure).

A relation's arguments are typed by the stored facts that can make it hold: the subjects of
`has_currency` facts are what may have a currency, their objects what a currency is. A relation
that holds only by a rule takes the types of the facts the rule joins:

- its own facts: subjects and objects;
- a symmetric or transitive relation: either side of its facts (what a place is in is a place too);
- the inverse of R: R's objects are its subjects, R's subjects its objects;
- a composite R3 = R1 then R2: R1's subjects are its subjects, R2's objects its objects;
- a same-object result of R0 ("uses the same currency as"): R0's subjects, on either side.

`Side`s are (relation, which end of its stored facts) pairs; the KB looks them up
(`drowzee_core.kb.naming`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from drowzee_core.kb.catalog import Catalog

End = Literal["s", "o"]
Side = tuple[str, End]
"""(relation, end): the entities at that end ("s" subject, "o" object) of the relation's stored facts."""

MAX_DEPTH = 4
"""Rules followed at most (composites of composites); deeper chains are not typed."""


@dataclass(frozen=True, slots=True)
class ArgumentTypes:
    """The stored facts whose ends type a relation's subject and object."""

    subject: frozenset[Side]
    object: frozenset[Side]


def _flip(end: End) -> End:
    return "o" if end == "s" else "s"


def _sides(catalog: Catalog, relation: str, end: End, seen: set[Side], depth: int = 0) -> set[Side]:
    """The stored ends that type `end` of `relation` (module docstring); `seen` holds the ends already followed."""
    if (relation, end) in seen:
        return set()
    seen.add((relation, end))
    out: set[Side] = {(relation, end)}
    if depth >= MAX_DEPTH or relation not in catalog:
        return out
    spec = catalog.get(relation)
    if spec.symmetric or spec.transitive:
        out.add((relation, _flip(end)))
    inverse = spec.inverse_of or next((r.name for r in catalog if r.inverse_of == relation), None)
    if inverse is not None:
        out |= _sides(catalog, inverse, _flip(end), seen, depth + 1)
    for comp in catalog.composites:
        if comp.result == relation:
            out |= _sides(catalog, comp.first if end == "s" else comp.second, end, seen, depth + 1)
    for same in catalog.same_object:
        if same.result == relation:
            out |= _sides(catalog, same.relation, "s", seen, depth + 1)
    return out


def argument_types(catalog: Catalog, relation: str) -> ArgumentTypes:
    """The stored ends that type `relation`'s subject and object."""
    return ArgumentTypes(
        frozenset(_sides(catalog, relation, "s", set())), frozenset(_sides(catalog, relation, "o", set()))
    )


__all__ = ["ArgumentTypes", "End", "Side", "argument_types"]
