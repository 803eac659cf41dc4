"""Compile a relation catalog into the Prolog facts that drive the rule families (pure).

The output is Prolog source that contains only fixed predicate names and integers: relation
names are mapped to ids first, so no text from a catalog or a data file becomes Prolog code.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from drowzee_core.errors import CatalogError
from drowzee_core.kb.catalog import Catalog


class Family(StrEnum):
    """Drowzee's five rule families."""

    SYMMETRIC = "symmetric"
    INVERSE = "inverse"
    TRANSITIVE = "transitive"
    COMPOSITE = "composite"
    NEGATION = "negation"


MATERIALIZED: tuple[Family, ...] = (Family.SYMMETRIC, Family.INVERSE, Family.TRANSITIVE, Family.COMPOSITE)
"""Families derived in full; negation and same-object composites are answered on demand."""


PARTITION_MEMBERSHIP = "member_of"
"""The relation that makes an entity a cell of a partition: `[Germany, member_of, United Nations]`."""


@dataclass(frozen=True, slots=True)
class CompiledRules:
    """The catalog as Prolog facts: (predicate, integer arguments) plus the names they stand for."""

    facts: tuple[tuple[str, tuple[int, ...]], ...]
    composite_names: Mapping[int, str]

    def program(self) -> str:
        """Prolog source text of the facts (integers only), one clause per line."""
        return "".join(f"drowzee:{p}({', '.join(map(str, args))}).\n" for p, args in self.facts)


def compile_catalog(
    catalog: Catalog,
    relation_ids: Mapping[str, int],
    classes: Mapping[str, int] | None = None,
    *,
    closed_world: bool = True,
) -> CompiledRules:
    """Map every rule-bearing part of `catalog` to integer-only Prolog facts.

    Args:
        catalog: The validated relation catalog.
        relation_ids: Relation name -> integer id, as stored in the KB.
        classes: Entity key -> id of the partition classes the KB holds (a relation whose `partition`
            class is absent has no partition rule here).
        closed_world: Whether the relations declared `complete` are taken as listed in full (the user's KB);
            False for a pair's supplied triples, which are a few facts picked for one question.

    Returns:
        The compiled rules; composites are numbered in catalog order from 1.

    Raises:
        CatalogError: A relation in the catalog has no id.

    """

    def rid(name: str) -> int:
        try:
            return relation_ids[name]
        except KeyError:
            raise CatalogError(f"relation {name!r} has no id in this knowledge base") from None

    facts: list[tuple[str, tuple[int, ...]]] = []
    for rel in catalog:
        if rel.symmetric:
            facts.append(("symmetric", (rid(rel.name),)))
        if rel.transitive:
            facts.append(("transitive", (rid(rel.name),)))
        if rel.functional:
            facts.append(("functional", (rid(rel.name),)))
        if rel.irreflexive:
            facts.append(("irreflexive", (rid(rel.name),)))
        if rel.complete and closed_world:
            facts.append(("complete", (rid(rel.name),)))
        if rel.inverse_of:
            facts.append(("inverse", (rid(rel.name), rid(rel.inverse_of))))
    for a, b in catalog.disjoint_pairs():
        facts.extend((("disjoint", (rid(a), rid(b))), ("disjoint", (rid(b), rid(a)))))
    names: dict[int, str] = {}
    for number, comp in enumerate(catalog.composites, start=1):
        names[number] = comp.name
        facts.append(("composite", (number, rid(comp.first), rid(comp.second), rid(comp.result))))
    for so in catalog.same_object:
        facts.append(("same_object", (rid(so.relation), rid(so.result))))
    for rel in catalog:
        if rel.partition is not None and rel.partition in (classes or {}):
            assert classes is not None
            facts.append(("partition", (rid(rel.name), rid(PARTITION_MEMBERSHIP), classes[rel.partition])))
    return CompiledRules(tuple(facts), names)
