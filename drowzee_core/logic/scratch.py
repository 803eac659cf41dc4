"""One pair's supplied triples as a KB of their own, reasoned over by the same Prolog rules.

The scratch KB lives in the Prolog module `drowzee_scratch`, so building it never disturbs the main
KB's `Reasoner` (module `drowzee`) in the same process. Building a new scratch KB replaces the
previous one: use one at a time, as a context manager, per pair.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from functools import cache

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.scratch import ScratchReport, add_value, scratch_store
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.template_regex import fill
from drowzee_core.logic.reasoner import ProofAnswer, Reasoner

log = logging.getLogger(__name__)

SCRATCH_MODULE = "drowzee_scratch"
"""The Prolog module of the scratch KB (the main KB's is `drowzee`)."""


@cache
def bundled_catalog() -> Catalog:
    """The bundled relation catalog, read once."""
    return Catalog.from_toml()


class ScratchKB:
    """A pair's supplied triples loaded into an in-memory store and the Prolog module `drowzee_scratch`.

    Example:
        >>> with ScratchKB([["161 BC", "part of", "160s BC"], ["166 BC", "part of", "160s BC"]]) as kb:
        ...     kb.common_object("161 BC", "part of", "166 BC").status
        <ProofStatus.SUPPORTED: 'supported'>

    """

    def __init__(self, triples: Sequence[object], catalog: Catalog | None = None) -> None:
        self.store: KBStore
        self.report: ScratchReport
        self.store, self.report = scratch_store(triples, catalog or bundled_catalog())
        self.reasoner = Reasoner(self.store, module=SCRATCH_MODULE, closed_world=False)
        self.catalog = self.reasoner.catalog

    def __enter__(self) -> ScratchKB:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the in-memory store (its Prolog facts stay until the next scratch KB replaces them)."""
        self.store.close()

    def _value(self, text: str, relation: str) -> None:
        """Declare the value entity a stated year or number names, so a differing value can contradict.

        A claim "died in 1642" against a supplied 1672 needs an id for 1642; the entity has no facts.
        """
        if not self.store.resolve(text, 1):
            kind = None if relation in self.report.generic else self.catalog.get(relation).object_kind
            add_value(self.store, self.catalog, text, kind)

    def prove(self, subject: str, relation: str, obj: str) -> ProofAnswer:
        """Prove (subject, relation, object) by names, like `Reasoner.prove`, over the supplied facts."""
        name = self.reasoner.relation_names[self.reasoner.relation_id(relation)]
        self._value(obj, name)
        return self.reasoner.prove(subject, name, obj)

    def common_object(self, subject: str, relation: str, other: str) -> ProofAnswer:
        """Whether `subject` and `other` are both `relation` the same thing (see `Reasoner.common_object`)."""
        return self.reasoner.common_object(subject, relation, other)

    def facts(self) -> list[str]:
        """The loaded facts as sentences, in the catalog's templates, in load order."""
        names = self.reasoner.relation_names
        rows = [(s, r, o) for batch in self.store.iter_triples() for s, r, o, _neg in batch]
        labels = self.store.labels(i for s, _r, o in rows for i in (s, o))
        return [fill(self.catalog.get(names[r]).positive, labels[s], labels[o]) for s, r, o in rows]
