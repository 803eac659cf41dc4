"""Relations a user declares for their own KB (`drowzee kb load FILE --relations REL.toml`).

A declaration file uses the bundled catalog's format (`[[relation]]` tables with `name`, `label`,
`category`, the templates and the logical properties; optional `[[composite]]`, `[[same_object]]` and
`[[comparison]]` rules). It is checked whole before anything is written: an unknown key, a missing
inverse, a property that makes no sense for the relation's `object_kind`, or two properties that
contradict each other is a `CatalogError` that names the file, the relation and the key.

A KB a user builds with `kb load` starts from what its data and declarations need, not from the whole
bundled catalog: a relation the data names and the user declares is theirs; one the bundled catalog
knows (`located_in`) comes with its bundled spec and the relations it refers to; any other gets generic
wording from its name and no logic, and is reported as undeclared. The KB remembers which relations
were declared (`meta.declared_relations`) and that its catalog is the user's (`meta.catalog_base`), so
the verifier reads only these relations, and later loads keep the declarations.
"""

from __future__ import annotations

import difflib
import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from drowzee_core.errors import CatalogError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ComparisonSpec, CompositeSpec, RelationSpec, SameObjectSpec, ValueKind

MAX_DECLARATION_BYTES = 1_000_000
"""Largest declaration file read (the bundled catalog is about 25 KB)."""
MAX_DECLARED = 500
"""Most relations one file may declare."""
META_BASE = "catalog_base"
"""KB meta key: `user` for a KB whose catalog was made from its data and declarations."""
META_DECLARED = "declared_relations"
"""KB meta key: JSON list of the relation names a user declared."""
USER_BASE = "user"
_RULES = {"composite": CompositeSpec, "same_object": SameObjectSpec, "comparison": ComparisonSpec}
_ENTITY_ONLY = ("symmetric", "transitive", "irreflexive", "inverse_of", "disjoint_with", "partition", "narrows")
"""Properties that relate two things: a year or a number as the object makes them meaningless."""


@dataclass(frozen=True, slots=True)
class Declarations:
    """The relations and rules of one declaration file, validated one by one."""

    source: str
    relations: tuple[RelationSpec, ...]
    composites: tuple[CompositeSpec, ...] = ()
    same_object: tuple[SameObjectSpec, ...] = ()
    comparisons: tuple[ComparisonSpec, ...] = ()

    @property
    def names(self) -> tuple[str, ...]:
        """The declared relation names, in file order."""
        return tuple(r.name for r in self.relations)


def read_declarations(path: Path) -> Declarations:
    """Read and check a declaration file (see the module docstring); raise `CatalogError` naming what to fix."""
    if not path.is_file():
        raise CatalogError(f"{path}: no such relations file")
    size = path.stat().st_size
    if size > MAX_DECLARATION_BYTES:
        raise CatalogError(f"{path}: {size:,} bytes; a relations file may hold at most {MAX_DECLARATION_BYTES:,}")
    try:
        raw: dict[str, Any] = tomllib.loads(path.read_text("utf-8"))
    except UnicodeDecodeError as exc:
        raise CatalogError(f"{path}: not UTF-8 text ({exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise CatalogError(f"{path}: not valid TOML: {exc}") from exc
    return parse_declarations(raw, str(path))


def parse_declarations(raw: Mapping[str, Any], where: str) -> Declarations:
    """Validate parsed TOML: each relation alone, then the properties that only make sense together."""
    unknown = sorted(set(raw) - {"relation", *_RULES})
    if unknown:
        raise CatalogError(
            f"{where}: unknown table {unknown[0]!r}; a relations file holds [[relation]],"
            " [[composite]], [[same_object]] and [[comparison]] tables"
        )
    items = raw.get("relation", [])
    if not isinstance(items, list) or not items:
        raise CatalogError(f"{where}: declares no relation; add [[relation]] tables (name, label, templates)")
    if len(items) > MAX_DECLARED:
        raise CatalogError(f"{where}: {len(items)} relations; at most {MAX_DECLARED} in one file")
    relations = [_relation(item, where, n) for n, item in enumerate(items, start=1)]
    seen: set[str] = set()
    for rel in relations:
        if rel.name in seen:
            raise CatalogError(f"{where}: relation {rel.name!r} is declared twice")
        seen.add(rel.name)
        _check_kind(rel, where)
    rules: dict[str, list[Any]] = {}
    for key, model in _RULES.items():
        entries = raw.get(key, [])
        if not isinstance(entries, list):
            raise CatalogError(f"{where}: {key} must be an array of tables ([[{key}]])")
        rules[key] = [_rule(model, key, e, where, n) for n, e in enumerate(entries, start=1)]
    return Declarations(
        where,
        tuple(relations),
        tuple(rules["composite"]),
        tuple(rules["same_object"]),
        tuple(rules["comparison"]),
    )


def _relation(item: Any, where: str, n: int) -> RelationSpec:
    if not isinstance(item, dict):
        raise CatalogError(f"{where}: relation #{n} must be a table ([[relation]] with name = ...)")
    name = item.get("name", f"#{n}")
    try:
        return RelationSpec.model_validate(item)
    except ValidationError as exc:
        errors = sorted(exc.errors(), key=lambda e: e["type"] != "extra_forbidden")  # a typo explains the rest
        err = errors[0]
        key = ".".join(str(p) for p in err["loc"]) or "?"
        if err["type"] == "extra_forbidden":
            near = difflib.get_close_matches(key, list(RelationSpec.model_fields), n=1)
            hint = f"; did you mean {near[0]!r}?" if near else f"; the keys are {', '.join(RelationSpec.model_fields)}"
            raise CatalogError(f"{where}: relation {name!r}: unknown key {key!r}{hint}") from None
        if err["type"] == "missing":
            raise CatalogError(f"{where}: relation {name!r}: key {key!r} is required") from None
        msg = err["msg"].removeprefix("Value error, ")
        if not err["loc"]:  # a check across keys: its message names the relation and the keys
            raise CatalogError(f"{where}: {msg}") from None
        raise CatalogError(f"{where}: relation {name!r}: key {key!r}: {msg}") from None


def _rule(model: type[Any], key: str, entry: Any, where: str, n: int) -> Any:
    try:
        return model.model_validate(entry)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or "?"
        raise CatalogError(f"{where}: {key} #{n}: key {field!r}: {err['msg']}") from None


def _check_kind(rel: RelationSpec, where: str) -> None:
    """Properties that relate two things need things on both sides, not a year or a number."""
    if rel.object_kind == ValueKind.ENTITY:
        return
    for key in _ENTITY_ONLY:
        if getattr(rel, key):
            raise CatalogError(
                f"{where}: relation {rel.name!r}: key {key!r} relates two things, but its object_kind is"
                f" {rel.object_kind.value!r} (a value); drop {key!r} or make object_kind 'entity'"
            )


def declared_catalog(base: Catalog, declared: Declarations, fallback: Catalog) -> Catalog:
    """`base` with the declared relations and rules put in (a declaration replaces a relation of that name).

    A relation the declarations refer to (an inverse, a broader relation, a rule's part) and do not
    declare is taken from `base`, else from `fallback` (the bundled catalog); anything still missing is
    a `CatalogError` that names the declaring relation and key.
    """
    specs = {r.name: r for r in base}
    specs.update({r.name: r for r in declared.relations})
    for rel in declared.relations:
        for key, other in _references(rel):
            if other in specs:
                continue
            if other not in fallback:
                raise CatalogError(
                    f"{declared.source}: relation {rel.name!r}: key {key!r} names {other!r}, which is neither"
                    f" declared nor known; declare {other!r} too"
                )
            for spec in with_references(fallback, [other]):
                specs.setdefault(spec.name, spec)
    composites = _merged(base.composites, declared.composites)
    same = _merged(base.same_object, declared.same_object)
    comparisons = _merged(base.comparisons, declared.comparisons)
    compared = {c.relation for c in comparisons}
    comparisons += [
        implied_comparison(r)
        for r in declared.relations
        if r.object_kind != ValueKind.ENTITY and r.name not in compared  # a declared [[comparison]] wins
    ]
    try:
        return Catalog(specs.values(), composites, same, comparisons)
    except CatalogError as exc:
        raise CatalogError(f"{declared.source}: {exc}") from None


def implied_comparison(rel: RelationSpec) -> ComparisonSpec:
    """How "which one has the most / least" is said of a declared year or number relation with no [[comparison]].

    A number's label says it ("has the largest fleet size"); a year's statement template says it
    ("{s} was founded in {o}." -> "was founded in the latest year").
    """
    words = rel.positive.removesuffix(".").strip()
    if (
        rel.object_kind == ValueKind.YEAR
        and words.startswith("{s} ")
        and words.endswith(" {o}")
        and "{" not in words[4:-4]
    ):
        said = words[4:-4]
        return ComparisonSpec(relation=rel.name, most=f"{said} the latest year", least=f"{said} the earliest year")
    if rel.object_kind == ValueKind.YEAR:
        return ComparisonSpec(
            relation=rel.name, most=f"has the latest {rel.label}", least=f"has the earliest {rel.label}"
        )
    return ComparisonSpec(relation=rel.name, most=f"has the largest {rel.label}", least=f"has the smallest {rel.label}")


def _merged(old: Iterable[Any], new: Iterable[Any]) -> list[Any]:
    return list(dict.fromkeys([*old, *new]))


def _references(rel: RelationSpec) -> list[tuple[str, str]]:
    """(key, relation) for every other relation `rel` names."""
    out = [("inverse_of", rel.inverse_of), ("narrows", rel.narrows)]
    out += [("disjoint_with", d) for d in rel.disjoint_with]
    return [(k, v) for k, v in out if v is not None]


def with_references(catalog: Catalog, names: Iterable[str]) -> list[RelationSpec]:
    """The specs of `names` in `catalog` and of every relation they refer to, transitively."""
    out: dict[str, RelationSpec] = {}
    todo = list(names)
    while todo:
        name = todo.pop()
        if name in out or name not in catalog:
            continue
        spec = catalog.get(name)
        out[name] = spec
        todo += [other for _, other in _references(spec)]
    return list(out.values())


def rules_within(catalog: Catalog, names: set[str]) -> Catalog:
    """A catalog of `names`' specs with `catalog`'s rules whose relations are all among them."""
    specs = [catalog.get(n) for n in names]
    return Catalog(
        specs,
        [c for c in catalog.composites if {c.first, c.second, c.result} <= names],
        [s for s in catalog.same_object if {s.relation, s.result} <= names],
        [c for c in catalog.comparisons if c.relation in names],
    )


def declared_names(meta: Mapping[str, str]) -> tuple[str, ...]:
    """The relation names a KB's meta says were declared (none when it says nothing)."""
    text = meta.get(META_DECLARED)
    if not text:
        return ()
    names = json.loads(text)
    return tuple(str(n) for n in names) if isinstance(names, list) else ()


def logic_of(spec: RelationSpec) -> str:
    """The logic a relation's declaration gives it, in words ("functional, inverse of manages")."""
    parts = [p for p in ("functional", "symmetric", "irreflexive", "transitive", "complete") if getattr(spec, p)]
    if spec.inverse_of:
        parts.append(f"inverse of {spec.inverse_of}")
    if spec.narrows:
        parts.append(f"narrows {spec.narrows}")
    if spec.disjoint_with:
        parts.append(f"disjoint with {', '.join(spec.disjoint_with)}")
    if spec.partition:
        parts.append(f"partitioned by {spec.partition}")
    if spec.object_kind != ValueKind.ENTITY:
        parts.append(f"{spec.object_kind.value} values")
    return ", ".join(parts) or "none"


__all__ = [
    "MAX_DECLARATION_BYTES",
    "MAX_DECLARED",
    "META_BASE",
    "META_DECLARED",
    "USER_BASE",
    "Declarations",
    "declared_catalog",
    "declared_names",
    "implied_comparison",
    "logic_of",
    "parse_declarations",
    "read_declarations",
    "rules_within",
    "with_references",
]
