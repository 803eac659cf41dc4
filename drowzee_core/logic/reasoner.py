"""A knowledge base store loaded into the Prolog engine: derive, and prove by names."""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

from drowzee_core.errors import KBError
from drowzee_core.kb.naming import first_reading, typed_names
from drowzee_core.kb.store import KBStore
from drowzee_core.logic import session
from drowzee_core.logic.engine import FamilyRun, PrologEngine, ProveResult
from drowzee_core.logic.explain import Proof, label_proof, proof_ids, proof_lines
from drowzee_core.records.enums import ProofStatus

log = logging.getLogger(__name__)

MAX_CANDIDATES = 12
"""Most entities one name is tried as, at each end of a relation (`drowzee prove` and the verifier alike)."""
_RANK = {ProofStatus.SUPPORTED: 0, ProofStatus.CONTRADICTED: 1, ProofStatus.UNKNOWN: 2}


class _Decided(Protocol):
    @property
    def status(self) -> ProofStatus: ...


_D = TypeVar("_D", bound=_Decided)


def best_outcome(subs: list[int], objs: list[int], decide: Callable[[int, int], _D]) -> tuple[_D, int, int]:
    """The best outcome over every (subject, object) candidate pair: supported, then contradicted, then unknown."""
    best: tuple[_D, int, int] | None = None
    for s, o in itertools.product(subs, objs):
        res = decide(s, o)
        if best is None or _RANK[res.status] < _RANK[best[0].status]:
            best = (res, s, o)
        if res.status == ProofStatus.SUPPORTED:
            break
    assert best is not None
    return best


def first_reading_partition(res: ProveResult, pair: tuple[int, int], first: tuple[int, int]) -> ProveResult:
    """`res` for the readings `pair` of two names, unless it refutes by listing a reading other than the first.

    A partition decides only the first readings of both names: a name that several places share (the territory
    "Puerto Rico" and a town in Argentina) would otherwise be refuted by the town's country while the KB places
    what the name first reads as in no cell at all. A complete list decides only the subject's first reading
    (the object is checked in Prolog to be a value of the listed kind): "Georgia" the state has no list of
    neighbours to refute by, whatever the country's says.
    """
    if res.status != ProofStatus.CONTRADICTED:
        return res
    rule = (res.proof or {}).get("rule")
    if (rule == "negation_partition" and pair != first) or (rule == "negation_complete" and pair[0] != first[0]):
        return ProveResult(ProofStatus.UNKNOWN, None)
    return res


@dataclass
class ProofAnswer:
    """The answer to `prove` for names: status, labelled proof, and how names were resolved."""

    status: ProofStatus
    proof: Proof | None
    subject: list[str] = field(default_factory=list)
    object: list[str] = field(default_factory=list)
    relation: str = ""

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict; `status` and `proof` are the documented contract."""
        return {
            "status": str(self.status),
            "proof": self.proof,
            "relation": self.relation,
            "subject_candidates": self.subject,
            "object_candidates": self.object,
        }

    def lines(self) -> list[str]:
        """The proof as readable lines."""
        return proof_lines(self.proof)


class Reasoner:
    """Loads every triple of a store into Prolog (no sampling) and answers questions about it.

    `module` names the Prolog module the KB lives in (a constant of our code): the main KB uses the
    default, a pair's supplied triples another, so loading one never disturbs the other.
    """

    def __init__(
        self,
        store: KBStore,
        progress: Callable[[int], None] | None = None,
        *,
        module: str = session.DEFAULT_MODULE,
        closed_world: bool = True,
    ) -> None:
        self.store = store
        self.catalog = store.catalog()
        self.engine = PrologEngine(module)
        self.relation_ids = store.relation_ids()
        self.relation_names = {i: n for n, i in self.relation_ids.items()}
        keys = {spec.partition for spec in self.catalog if spec.partition is not None}
        ids = store.entity_ids()
        classes = {k: ids[k] for k in keys if k in ids}  # a KB without the class has no partition rule
        self.rules = self.engine.load_rules(self.catalog, self.relation_ids, classes, closed_world=closed_world)
        self.triples = self.engine.load_rows(store.iter_triples(), progress)
        self.derived: list[FamilyRun] | None = None

    def derive(self, progress: Callable[[str], None] | None = None) -> list[FamilyRun]:
        """Materialize the finite rule families (once)."""
        if self.derived is None:
            self.derived = self.engine.derive(progress)
        return self.derived

    def relation_id(self, text: str) -> int:
        """Relation id by catalog name or label (or other label)."""
        if text in self.relation_ids:
            return self.relation_ids[text]
        for spec in self.catalog:
            if spec.named(text) and spec.name in self.relation_ids:
                return self.relation_ids[spec.name]
        raise KBError(f"unknown relation {text!r}; known relations: {', '.join(sorted(self.relation_ids))}")

    def prove(self, subject: str, relation: str, obj: str) -> ProofAnswer:
        """Prove (subject, relation, object) given as keys or labels.

        A name stands for the entities it may name at its end of the relation
        (`drowzee_core.kb.naming.typed_names`); ambiguous names are tried in every combination (up to
        `MAX_CANDIDATES` each); the best outcome wins (supported, then contradicted, then unknown).
        """
        rid = self.relation_id(relation)
        name = self.relation_names[rid]
        subs = typed_names(self.store, self.catalog, subject, name, "s", MAX_CANDIDATES)
        objs = typed_names(self.store, self.catalog, obj, name, "o", MAX_CANDIDATES)
        missing = [n for n, c in ((subject, subs), (obj, objs)) if not c]
        if missing:
            return ProofAnswer(ProofStatus.UNKNOWN, None, [], [], self.relation_names[rid] + f" (not in KB: {missing})")
        first = (first_reading(self.store, subject, subs), first_reading(self.store, obj, objs))
        res, _s, _o = best_outcome(
            subs, objs, lambda s, o: first_reading_partition(self.engine.prove(s, rid, o), (s, o), first)
        )
        labels = self.store.labels([*proof_ids(res.proof), *subs, *objs])
        proof = label_proof(res.proof, labels, self.relation_names, self.catalog, self.rules.composite_names)
        keys = self.store.keys([*subs, *objs])
        return ProofAnswer(
            res.status, proof, [keys[i] for i in subs], [keys[i] for i in objs], self.relation_names[rid]
        )

    def common_object(self, subject: str, relation: str, other: str) -> ProofAnswer:
        """Whether `subject` and `other` are both `relation` the same thing ("both part of the same event").

        Supported with the shared object and a proof of each side; contradicted when the relation
        is functional and their values differ; unknown otherwise (absence is never "false"). The
        top proof node is a `same_object` rule over the two sides.
        """
        rid = self.relation_id(relation)
        rel = self.relation_names[rid]
        subs = typed_names(self.store, self.catalog, subject, rel, "s", MAX_CANDIDATES)
        others = typed_names(self.store, self.catalog, other, rel, "s", MAX_CANDIDATES)
        missing = [n for n, c in ((subject, subs), (other, others)) if not c]
        if missing:
            return ProofAnswer(ProofStatus.UNKNOWN, None, [], [], rel + f" (not in KB: {missing})")
        res, s, o = best_outcome(subs, others, lambda s, o: self.engine.common_object(s, rid, o))
        proof = None
        if res.premises:
            ids = [s, o, *(i for p in res.premises for i in proof_ids(p))]
            labels = self.store.labels(ids)
            sides = [
                label_proof(p, labels, self.relation_names, self.catalog, self.rules.composite_names)
                for p in res.premises
            ]
            texts = [str(p["text"]).rstrip(".") for p in sides if p is not None]
            proof = {
                "rule": "same_object" if res.status == ProofStatus.SUPPORTED else "negation_same_object",
                "fact": [labels[s], rel, labels[o]],
                "text": " and ".join(texts) + ".",
                "premises": sides,
            }
        keys = self.store.keys([*subs, *others])
        return ProofAnswer(res.status, proof, [keys[i] for i in subs], [keys[i] for i in others], rel)

    def partition_conflicts(self, limit: int = 100) -> list[tuple[str, str, str, str]]:
        """Up to `limit` (subject, relation, cell, other cell) keys: data that breaks a declared partition.

        The partition rule (a place lies in at most one UN member state) refutes a fact the KB holds wherever
        a subject reaches two cells, so a consistent KB has none; `drowzee derive` reports them.
        """
        found = self.engine.partition_conflicts(limit)
        keys = self.store.keys(i for c in found for i in (c[0], c[2], c[3]))
        return [(keys[s], self.relation_names[r], keys[a], keys[b]) for s, r, a, b in found]
