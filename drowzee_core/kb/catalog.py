"""The relation catalog: which relations exist, how they are phrased and which rules apply."""

from __future__ import annotations

import tomllib
from collections.abc import Iterable, Iterator
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from drowzee_core.errors import CatalogError
from drowzee_core.kb.model import ComparisonSpec, CompositeSpec, RelationSpec, SameObjectSpec, ValueKind


def _once(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pairs in order, each unordered pair once."""
    seen: set[frozenset[str]] = set()
    out: list[tuple[str, str]] = []
    for a, b in pairs:
        if frozenset((a, b)) not in seen:
            seen.add(frozenset((a, b)))
            out.append((a, b))
    return out


class Catalog:
    """A validated, immutable set of relation specs plus the composite and same-object rules."""

    def __init__(
        self,
        relations: Iterable[RelationSpec],
        composites: Iterable[CompositeSpec] = (),
        same_object: Iterable[SameObjectSpec] = (),
        comparisons: Iterable[ComparisonSpec] = (),
    ) -> None:
        self._relations: dict[str, RelationSpec] = {}
        for rel in relations:
            if rel.name in self._relations:
                raise CatalogError(f"relation {rel.name!r} is defined twice in the catalog")
            self._relations[rel.name] = rel
        self.composites = tuple(composites)
        self.same_object = tuple(same_object)
        self.comparisons = tuple(comparisons)
        self._check()

    def _check(self) -> None:
        for rel in self._relations.values():
            if rel.inverse_of is None:
                continue
            inv = self._relations.get(rel.inverse_of)
            if inv is None:
                raise CatalogError(
                    f"relation {rel.name!r}: inverse_of names {rel.inverse_of!r}, which is not in"
                    " the catalog; add it or remove inverse_of"
                )
            if inv.inverse_of not in (None, rel.name):
                raise CatalogError(
                    f"relations {rel.name!r} and {inv.name!r} disagree on their inverse"
                    f" ({inv.name!r} says {inv.inverse_of!r})"
                )
        for rel in self._relations.values():
            for text in rel.other_labels:
                if (named := [r.name for r in self._relations.values() if r is not rel and r.named(text)]) != []:
                    raise CatalogError(f"relation {rel.name!r}: other label {text!r} names {named[0]!r} already")
            if rel.narrows is not None and rel.narrows not in self._relations:
                raise CatalogError(f"relation {rel.name!r}: narrows names {rel.narrows!r}, which is not in the catalog")
            for other in rel.disjoint_with:
                if other not in self._relations:
                    raise CatalogError(
                        f"relation {rel.name!r}: disjoint_with names {other!r}, which is not in the catalog"
                    )
        for comp in self.composites:
            for part in (comp.first, comp.second, comp.result):
                if part not in self._relations:
                    raise CatalogError(f"composite {comp.name!r}: unknown relation {part!r}")
        for so in self.same_object:
            for part in (so.relation, so.result):
                if part not in self._relations:
                    raise CatalogError(f"same_object rule on {so.relation!r}: unknown relation {part!r}")
            if not self._relations[so.result].symmetric:
                raise CatalogError(f"same_object result {so.result!r} must be declared symmetric = true")

        for cmp in self.comparisons:
            if cmp.relation not in self._relations:
                raise CatalogError(f"comparison on unknown relation {cmp.relation!r}")
            if self._relations[cmp.relation].object_kind == ValueKind.ENTITY:
                raise CatalogError(f"comparison on {cmp.relation!r}: its object_kind must be quantity or year")

    def __contains__(self, name: object) -> bool:
        return name in self._relations

    def __iter__(self) -> Iterator[RelationSpec]:
        return iter(self._relations.values())

    def __len__(self) -> int:
        return len(self._relations)

    def get(self, name: str) -> RelationSpec:
        """Return the spec of `name` or raise a CatalogError that lists near names."""
        try:
            return self._relations[name]
        except KeyError:
            near = sorted(n for n in self._relations if name[:4] in n)[:5]
            hint = f"; did you mean one of {near}?" if near else ""
            raise CatalogError(f"unknown relation {name!r}{hint}") from None

    def inverse_pairs(self) -> list[tuple[str, str]]:
        """Each inverse pair once, as (relation, inverse)."""
        return _once((rel.name, rel.inverse_of) for rel in self._relations.values() if rel.inverse_of)

    def disjoint_pairs(self) -> list[tuple[str, str]]:
        """Each pair of disjoint relations once, as (relation, other), whichever side declared it."""
        return _once((rel.name, other) for rel in self._relations.values() for other in rel.disjoint_with)

    def extended_with(self, other: Catalog) -> Catalog:
        """A catalog with these relations plus those of `other` it lacks (own specs and rules unchanged).

        A KB stores the catalog it was built with; extended with the bundled one, it also knows the
        relations added to the package since (for reading statements and supplied triples).
        """
        extra = [spec for spec in other if spec.name not in self._relations]
        if not extra:
            return self
        return Catalog([*self._relations.values(), *extra], self.composites, self.same_object, self.comparisons)

    def with_relation(self, spec: RelationSpec) -> Catalog:
        """A new catalog that also holds `spec` (used for relations first seen in loaded data)."""
        return Catalog([*self._relations.values(), spec], self.composites, self.same_object, self.comparisons)

    def with_relations_of(self, other: Catalog, names: Iterable[str]) -> Catalog:
        """A new catalog that also holds `other`'s specs of `names`, and `other`'s rules that then apply.

        The specs come in together, so a relation and its inverse (or broader relation) are added at once;
        a rule of `other` is taken when every relation it names is in the new catalog.
        """
        specs = {**self._relations, **{n: other.get(n) for n in names if n not in self._relations}}
        have = set(specs)
        return Catalog(
            specs.values(),
            [*self.composites, *(c for c in other.composites if {c.first, c.second, c.result} <= have)],
            [*self.same_object, *(x for x in other.same_object if {x.relation, x.result} <= have)],
            [*self.comparisons, *(c for c in other.comparisons if c.relation in have)],
        )

    @classmethod
    def from_toml(cls, path: Path | None = None) -> Catalog:
        """Read a catalog file; with no path, the bundled catalog."""
        if path is None:
            text = resources.files("drowzee_core.kb").joinpath("data/relations.toml").read_text("utf-8")
            where = "bundled relations.toml"
        else:
            text = path.read_text("utf-8")
            where = str(path)
        try:
            raw: dict[str, Any] = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise CatalogError(f"{where}: not valid TOML: {exc}") from exc
        return cls.from_dict(raw, where)

    @classmethod
    def from_dict(cls, raw: dict[str, Any], where: str = "catalog") -> Catalog:
        """Build from the parsed TOML layout (`relation`, `composite`, `same_object`, `comparison` arrays)."""
        try:
            rels = [RelationSpec.model_validate(r) for r in raw.get("relation", [])]
            comps = [CompositeSpec.model_validate(c) for c in raw.get("composite", [])]
            sos = [SameObjectSpec.model_validate(s) for s in raw.get("same_object", [])]
            cmps = [ComparisonSpec.model_validate(c) for c in raw.get("comparison", [])]
        except ValidationError as exc:
            raise CatalogError(f"{where}: {exc}") from exc
        return cls(rels, comps, sos, cmps)
