"""An in-memory index of the KB's base facts for generators that walk and compare facts.

Holds the facts of relations that have a `phrase` (wh-questions, multi-hop walks) or that can define
entity sets (neither transitive nor a composite result, with entity objects), by subject, by relation
and by (subject, relation); labels and keys are fetched from the store once each. Statuses come from
the Prolog engine.
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from drowzee_core.kb.model import ComparisonSpec, RelationSpec, ValueKind
from drowzee_core.logic.reasoner import Reasoner

Fact = tuple[int, int, int]


class KBIndex:
    """Base facts by subject, relation and (subject, relation), with labels and proof statuses."""

    def __init__(self, reasoner: Reasoner) -> None:
        self.reasoner = reasoner
        self.store = reasoner.store
        self.catalog = reasoner.catalog
        self.rids = reasoner.relation_ids
        self.names = reasoner.relation_names
        self.specs: dict[int, RelationSpec] = {self.rids[r.name]: r for r in self.catalog if r.name in self.rids}
        composite_results = {c.result for c in self.catalog.composites}
        self.phrased = {i for i, r in self.specs.items() if r.phrase}
        self.settable = {
            i
            for i, r in self.specs.items()
            if not r.transitive and r.name not in composite_results and r.object_kind == ValueKind.ENTITY
        }
        self.domain_of: dict[Fact, str] = {}
        self.objs: dict[tuple[int, int], list[int]] = defaultdict(list)
        self.by_rel: dict[int, list[tuple[int, int]]] = defaultdict(list)
        self.rels_of: dict[int, set[int]] = defaultdict(set)
        facts = self.store.facts_of(self.phrased | self.settable)
        for s, r, o, d in facts:
            self.domain_of[(s, r, o)] = d
            self.objs[(s, r)].append(o)
            self.by_rel[r].append((s, o))
            self.rels_of[s].add(r)
        self.unique = [(s, r, o, d) for s, r, o, d in facts if r in self.phrased and len(self.objs[(s, r)]) == 1]
        """Facts whose subject has exactly one object for the relation (a well-defined wh-answer)."""
        self.set_relations = sorted(r for r in self.settable if self.by_rel.get(r))
        self.comparisons: list[tuple[ComparisonSpec, int, list[int]]] = []
        """(spec, relation id, subjects with one value) for each comparison relation with facts."""
        for comp in self.catalog.comparisons:
            rid = self.rids.get(comp.relation)
            if rid is not None and rid in self.by_rel:
                subjects = [s for s, _ in self.by_rel[rid] if len(self.objs[(s, rid)]) == 1]
                if subjects:
                    self.comparisons.append((comp, rid, subjects))
        self._labels: dict[int, str] = {}
        self._keys: dict[int, str] = {}

    def label(self, eid: int) -> str:
        """An entity's label (cached)."""
        if eid not in self._labels:
            self._labels.update(self.store.labels([eid]))
        return self._labels[eid]

    def key(self, eid: int) -> str:
        """An entity's key (cached)."""
        if eid not in self._keys:
            self._keys.update(self.store.keys([eid]))
        return self._keys[eid]

    def stmt(self, s: int, r: int, o: int | str) -> str:
        """The relation's positive sentence; `o` is an entity id or a literal (a wrong number)."""
        return self.specs[r].positive.format(s=self.label(s), o=o if isinstance(o, str) else self.label(o))

    def ev(self, s: int, r: int, o: int | str) -> list[str]:
        """An evidence triple as FactCHD writes it: [subject, relation label, object]."""
        return [self.label(s), self.specs[r].label, o if isinstance(o, str) else self.label(o)]

    def unique_object(self, s: int, r: int) -> int | None:
        """The object of (s, r) when there is exactly one."""
        objs = self.objs.get((s, r))
        return objs[0] if objs and len(objs) == 1 else None

    def status(self, s: int, r: int, o: int) -> str:
        """Supported or contradicted by Prolog, else closed_world (absent from the KB)."""
        st = self.reasoner.engine.prove(s, r, o).status
        return "closed_world" if st == "unknown" else st

    def claim(self, s: int, r: int, o: int | str, status: str) -> dict[str, Any]:
        """A claim of a response, by keys, with its status."""
        return {
            "subject": self.key(s),
            "relation": self.names[r],
            "object": o if isinstance(o, str) else self.key(o),
            "status": status,
        }

    def wrong_object(self, rng: random.Random, r: int, not_in: set[int]) -> int | None:
        """Another object of relation r (a plausible wrong answer), or None after 20 tries."""
        pool = self.by_rel[r]
        for _ in range(20):
            _s, o = rng.choice(pool)
            if o not in not_in:
                return o
        return None
