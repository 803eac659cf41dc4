"""One load of a file into a KB, with the user's relation declarations: the catalog it writes with, then the meta.

`kb load` (CLI), the Knowledge base tab and `POST /api/kb/load` all go through `writer_for_load` and
`finish_load`, so a declaration file is checked the same way everywhere and the KB remembers the same.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from drowzee_core.errors import CatalogError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.declarations import (
    META_BASE,
    META_DECLARED,
    USER_BASE,
    Declarations,
    declared_catalog,
    declared_names,
)
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.writer import KBWriter, LoadReport


@dataclass(frozen=True, slots=True)
class LoadPlan:
    """What a load writes with: the writer, and the names it declares."""

    writer: KBWriter
    declared: tuple[str, ...]
    fresh: bool


def writer_for_load(store: KBStore, declarations: Declarations | None, bundled: Catalog) -> LoadPlan:
    """The writer of one load into `store`, its catalog holding `declarations` (checked before anything is written).

    A KB with no relations yet, or one a user made this way before, is a user KB: its catalog holds
    what its data and declarations need, and a relation the data names is taken from `bundled` when
    that declares it. A KB built from the bundled catalog (`kb build`) keeps its catalog and gains the
    declarations.

    Raises:
        CatalogError: the declarations contradict the KB (a relation with stored facts cannot change its
            `object_kind`), or name a relation nobody declares.

    """
    fresh = not store.relation_ids()
    user = fresh or store.meta().get(META_BASE) == USER_BASE
    base = Catalog([]) if fresh else store.catalog()
    catalog = base
    if declarations is not None:
        catalog = declared_catalog(base, declarations, bundled)
        _check_kinds(store, base, declarations)
    writer = KBWriter(store, catalog, auto_relations=True, known=bundled if user else None)
    return LoadPlan(writer, declarations.names if declarations else (), fresh)


def _check_kinds(store: KBStore, base: Catalog, declarations: Declarations) -> None:
    counts = store.relation_counts()
    for rel in declarations.relations:
        if rel.name in base and counts.get(rel.name) and base.get(rel.name).object_kind != rel.object_kind:
            was = base.get(rel.name).object_kind
            raise CatalogError(
                f"{declarations.source}: relation {rel.name!r}: key 'object_kind' is {rel.object_kind.value!r},"
                f" but the KB holds {counts[rel.name]} facts of it stored as {was.value!r} values; declare it"
                f" as {was.value!r}, or load its data into a new KB with --relations at the first load"
            )


def finish_load(store: KBStore, plan: LoadPlan, report: LoadReport) -> None:
    """Record what the load declared and that the KB's catalog is a user's; keep earlier declarations."""
    meta = store.meta()
    if plan.fresh:
        store.set_meta(META_BASE, USER_BASE)
    before = declared_names(meta)
    names = list(dict.fromkeys([*before, *plan.declared]))
    if names != list(before):
        store.set_meta(META_DECLARED, json.dumps(names))
    store.save_catalog(plan.writer.catalog)  # declarations without rows are kept too
    store.commit()
    report.undeclared = [n for n in dict.fromkeys(plan.writer.undeclared) if n not in names]


__all__ = ["LoadPlan", "finish_load", "writer_for_load"]
