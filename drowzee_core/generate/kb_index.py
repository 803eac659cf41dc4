"""An in-memory index of the KB's base facts for generators that walk and compare facts.

Holds the facts of relations that have a `phrase` (wh-questions, multi-hop walks) or that can define
entity sets (neither transitive nor a composite result, with entity objects), by subject, by relation
and by (subject, relation); labels and keys are fetched from the store once each. Every status comes
from a `Prover` (the Prolog engine, or a fake in unit tests): the index never decides one itself.

It also knows which wrong answers Prolog can refute: any other object of a functional relation, of a
relation whose inverse is functional (`capital_of`), and the objects of explicit negative facts
(directly, or through a symmetric or inverse relation).
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Sequence
from typing import TypeVar

from drowzee_core.generate.prover import NEW_CONSTANT, Fact, Prover
from drowzee_core.kb.model import ComparisonSpec, RelationSpec, ValueKind
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.template_regex import fill
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import KBClaim

T = TypeVar("T")
NEGATION = {ProofStatus.SUPPORTED: ProofStatus.CONTRADICTED, ProofStatus.CONTRADICTED: ProofStatus.SUPPORTED}
WRONG_CANDIDATES = 8
"""Wrong objects tried per corruption (one Prolog call decides them all)."""


class KBIndex:
    """Base facts by subject, relation and (subject, relation), with labels, keys and a `Prover`."""

    def __init__(self, store: KBStore, prover: Prover) -> None:
        self.store = store
        self.prover = prover
        self.catalog = store.catalog()
        self.rids = store.relation_ids()
        self.names = {i: n for n, i in self.rids.items()}
        self.specs: dict[int, RelationSpec] = {self.rids[r.name]: r for r in self.catalog if r.name in self.rids}
        composite_results = {c.result for c in self.catalog.composites}
        self.phrased = {i for i, r in self.specs.items() if r.phrase}
        self.settable = {
            i
            for i, r in self.specs.items()
            if not r.transitive and r.name not in composite_results and r.object_kind == ValueKind.ENTITY
        }
        self.refuting = {i for i, r in self.specs.items() if r.functional or self._inverse_functional(r)}
        """Relations where Prolog refutes every other object (functional, or with a functional inverse)."""
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
        self.negatives = self._negatives()
        """(subject, relation) -> objects that explicit negative facts refute."""
        self.unique = [(s, r, o, d) for s, r, o, d in facts if r in self.phrased and len(self.objs[(s, r)]) == 1]
        """Facts whose subject has exactly one object for the relation (a well-defined wh-answer)."""
        self.refutable_unique = [f for f in self.unique if self.refutable(f[0], f[1])]
        """The unique facts for which Prolog can refute a wrong answer."""
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

    def _inverse_functional(self, spec: RelationSpec) -> bool:
        return (
            spec.inverse_of is not None
            and spec.inverse_of in self.catalog
            and self.catalog.get(spec.inverse_of).functional
        )

    def _negatives(self) -> dict[tuple[int, int], set[int]]:
        """Wrong objects named by explicit negative facts, as Prolog's negation rules read them."""
        out: dict[tuple[int, int], set[int]] = defaultdict(set)
        wanted = self.phrased | self.settable
        for batch in self.store.iter_triples():
            for s, r, o, negated in batch:
                if not negated or r not in self.specs:
                    continue
                spec = self.specs[r]
                out[(s, r)].add(o)  # negation: nt(s, r, o)
                if spec.symmetric:
                    out[(o, r)].add(s)  # negation_symmetric
                if spec.inverse_of is not None and spec.inverse_of in self.rids:
                    out[(o, self.rids[spec.inverse_of])].add(s)  # negation_inverse
        return {k: v for k, v in out.items() if k[1] in wanted}

    # ------------------------------------------------------------------ names
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
        return fill(self.specs[r].positive, self.label(s), o if isinstance(o, str) else self.label(o))

    def ev(self, s: int, r: int, o: int | str) -> list[str]:
        """An evidence triple as FactCHD writes it: [subject, relation label, object]."""
        return [self.label(s), self.specs[r].label, o if isinstance(o, str) else self.label(o)]

    def value_id(self, kind: ValueKind, text: str) -> int:
        """The entity that stands for a number or year written `text`, or `NEW_CONSTANT` if the KB has none."""
        prefix = "year" if kind == ValueKind.YEAR else "num"
        return self.store.entity_ids().get(f"{prefix}:{text}", NEW_CONSTANT)

    # ------------------------------------------------------------------ facts
    def unique_object(self, s: int, r: int) -> int | None:
        """The object of (s, r) when there is exactly one."""
        objs = self.objs.get((s, r))
        return objs[0] if objs and len(objs) == 1 else None

    def refutable(self, s: int, r: int) -> bool:
        """Whether Prolog can refute some wrong object of (s, r)."""
        return r in self.refuting or (s, r) in self.negatives

    def draw_fact(self, rng: random.Random, refutable_share: float) -> tuple[int, int, int, str]:
        """A unique fact: with probability `refutable_share` one whose wrong answers Prolog can refute."""
        pool = self.refutable_unique if self.refutable_unique and rng.random() < refutable_share else self.unique
        return rng.choice(pool)

    def prefer(self, rng: random.Random, items: Sequence[T], good: set[T], share: float) -> T:
        """One of `items`: with probability `share` one of those in `good` (when there is one)."""
        better = [x for x in items if x in good]
        return rng.choice(better if better and rng.random() < share else items)

    # ------------------------------------------------------------------ statuses
    def statuses(self, facts: Sequence[Fact]) -> list[ProofStatus]:
        """Prolog's status of each fact (one call)."""
        return self.prover.statuses(facts) if facts else []

    def status(self, s: int, r: int, o: int) -> ProofStatus:
        """Prolog's status of one fact."""
        return self.statuses([(s, r, o)])[0]

    def claim(self, s: int, r: int, o: int | str, status: ProofStatus, negated: bool = False) -> KBClaim:
        """A claim of a response, by keys, with its status; `o` is an entity id or a literal.

        `status` is Prolog's status of the triple; for a `negated` claim (the triple does not hold)
        it is turned into the negation's status (Prolog's proof of the triple refutes it, and the
        other way round; unknown stays unknown).
        """
        if negated:
            status = NEGATION.get(status, status)
        return KBClaim(
            subject=self.key(s),
            relation=self.names[r],
            object=o if isinstance(o, str) else self.key(o),
            status=status,
            negated=negated,
            text=fill(self.specs[r].negative, self.label(s), self.label(o) if isinstance(o, int) else o)
            if negated
            else self.stmt(s, r, o),
        )

    def wrong_object(self, rng: random.Random, r: int, not_in: set[int]) -> int | None:
        """Another object of relation r (a plausible wrong answer), or None after 20 tries."""
        pool = self.by_rel[r]
        for _ in range(20):
            _s, o = rng.choice(pool)
            if o not in not_in:
                return o
        return None

    def pick_wrong(self, rng: random.Random, s: int, r: int, o: int) -> tuple[int, ProofStatus] | None:
        """A wrong object for (s, r) and Prolog's status of it: a refuted one when Prolog refutes any tried.

        Tries the objects of explicit negative facts and up to `WRONG_CANDIDATES` other objects of the
        relation; an unknown one (absent from the KB) is the fallback; supported ones are never wrong.
        """
        cands = sorted(self.negatives.get((s, r), set()) - {o})
        rng.shuffle(cands)
        for _ in range(WRONG_CANDIDATES):
            w = self.wrong_object(rng, r, {o, *cands})
            if w is not None:
                cands.append(w)
        if not cands:
            return None
        sts = self.statuses([(s, r, w) for w in cands])
        for want in (ProofStatus.CONTRADICTED, ProofStatus.UNKNOWN):
            for w, st in zip(cands, sts, strict=True):
                if st == want:
                    return w, st
        return None
