"""Whether a listed answer to "What are all X such that ...?" is complete, decided on one KB (KB thread).

The list is refuted when the KB proves a member it leaves out: X satisfies every condition (for
"but not", Prolog refutes the negated one; for "or", one condition holds) and no listed name is it.
Nothing is proved from the absence of other members: a list the KB finds no member missing from
stays unknown. Names are resolved like `kb.prove.prove_claim`; a condition's named entity may have
several candidates, and every reading under which the KB proves any member must leave one out (a
reading with no member at all is another entity of the same name). A listed name stands for every
entity it may name (label or alias, any case: `KBStore.named_by`); a listed name the KB does not know
leaves the claim unknown (it may be the missing member under another name).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from agents.reading.claim_types import ClaimCondition
from agents.verifier.kb.prove import Decided, relation_name
from drowzee_core.logic.explain import Proof, label_proof, proof_ids
from drowzee_core.logic.reasoner import MAX_CANDIDATES, Reasoner
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode

MAX_READINGS = 16
"""Most combinations of the conditions' entity candidates tried."""
MAX_SHOWN = 3
"""Most left-out members a refutation names."""

_Condition = tuple[int, int, bool, bool]
"""(relation id, the named entity's id, negated, X is the subject) of one condition."""


def _fact(x: int, c: _Condition) -> tuple[int, int, int]:
    """The fact that `x` satisfies condition `c`, as (subject, relation, object)."""
    rid, other, _negated, var_subject = c
    return (x, rid, other) if var_subject else (other, rid, x)


def _members(
    reasoner: Reasoner, operation: str, reading: Sequence[_Condition], listed: set[int]
) -> tuple[bool, list[int]] | None:
    """Under one reading: whether a listed name is a member, and up to `MAX_SHOWN` members not listed.

    None when the reading's set cannot be enumerated (only "not ..." conditions, or a union with one).
    Candidates with X as the subject come from Prolog's subject sets; with X as the object, from the
    stored facts of the named entity. Every candidate is proved before it counts.
    """
    positive = [c for c in reading if not c[2]]
    negative = [c for c in reading if c[2]]
    if not positive or (operation == "or" and negative):
        return None
    by_subject = [(rid, other) for rid, other, _n, var_subject in positive if var_subject]
    sets = [set(s) for s in reasoner.engine.subject_sets(by_subject)] if by_subject else []
    sets += [set(reasoner.store.objects(other, rid)) for rid, other, _n, var_subject in positive if not var_subject]
    candidates = set().union(*sets) if operation == "or" else set.intersection(*sets)
    need = any if operation == "or" else all

    def status(x: int, c: _Condition) -> ProofStatus:
        return reasoner.engine.prove(*_fact(x, c)).status

    def member(x: int) -> bool:
        holds = need(status(x, c) == ProofStatus.SUPPORTED for c in positive)
        return holds and all(status(x, c) == ProofStatus.CONTRADICTED for c in negative)

    left_out: list[int] = []
    for x in sorted(candidates - listed):
        if member(x):
            left_out.append(x)
            if len(left_out) == MAX_SHOWN:
                break
    return any(member(x) for x in sorted(candidates & listed)), left_out


def labelled_proof(reasoner: Reasoner, proof: Proof | None, ids: Sequence[int]) -> ProofNode | None:
    """An engine proof with the KB's labels (of its own ids and `ids`), as a `ProofNode`."""
    labels = reasoner.store.labels([*proof_ids(proof), *ids])
    labelled = label_proof(proof, labels, reasoner.relation_names, reasoner.catalog, reasoner.rules.composite_names)
    return ProofNode.model_validate(labelled) if labelled is not None else None


def _proof(reasoner: Reasoner, member: int, reading: Sequence[_Condition], operation: str) -> list[ProofNode]:
    """The proofs that `member` satisfies the conditions (for "or": the first that holds)."""
    out: list[ProofNode] = []
    for c in reading:
        res = reasoner.engine.prove(*_fact(member, c))
        want = ProofStatus.CONTRADICTED if c[2] else ProofStatus.SUPPORTED
        if res.status != want or res.proof is None:
            continue
        if (node := labelled_proof(reasoner, res.proof, [member, c[1]])) is not None:
            out.append(node)
        if operation == "or":
            break
    return out


def set_complete(
    reasoner: Reasoner, operation: str, conditions: Sequence[ClaimCondition], named: Sequence[str], text: str
) -> Decided:
    """Decide the claim `text` that `named` are all the X satisfying `conditions` joined by `operation`."""
    per_condition: list[list[_Condition]] = []
    for c in conditions:
        name = relation_name(reasoner, c.relation)
        if name is None:
            return Decided(ProofStatus.UNKNOWN, None, f"relation {c.relation!r} is not in this KB", linked=False)
        objs = reasoner.store.resolve(c.other, MAX_CANDIDATES)
        if not objs:
            return Decided(ProofStatus.UNKNOWN, None, f"{c.other!r} is not in the KB", linked=False)
        rid = reasoner.relation_ids[name]
        per_condition.append([(rid, o, c.negated, c.var_subject) for o in objs])
    listed: set[int] = set()
    for n in named:
        ids = reasoner.store.named_by(n, MAX_CANDIDATES)
        if not ids:
            return Decided(ProofStatus.UNKNOWN, None, f"the listed {n!r} is not in the KB")
        listed.update(ids)
    first: tuple[list[int], tuple[_Condition, ...]] | None = None
    for reading in itertools.islice(itertools.product(*per_condition), MAX_READINGS):
        found = _members(reasoner, operation, reading, listed)
        if found is None:
            return Decided(ProofStatus.UNKNOWN, None, "a set of only negated conditions is not enumerated")
        named_member, left_out = found
        if left_out:
            first = first or (left_out, reading)
        elif named_member:
            return Decided(ProofStatus.UNKNOWN, None, "the KB proves no member the list leaves out")
        # a reading with no member at all (another entity of the same name) is no reading of the question
    if first is None:
        return Decided(ProofStatus.UNKNOWN, None, "the KB proves no member the list leaves out")
    left_out, reading = first
    labels = reasoner.store.labels(left_out)
    one = len(left_out) == 1
    names = ", ".join(labels[x] for x in left_out)
    conclusion = (
        f"The list is not complete: {names} {'meets' if one else 'meet'} the criteria too"
        f" and {'is' if one else 'are'} not named."
    )
    premises = [p for x in left_out for p in _proof(reasoner, x, reading, operation)]
    proof = ProofNode(
        rule="set_incomplete", fact=("X", operation, ", ".join(named)), text=conclusion, premises=premises
    )
    return Decided(ProofStatus.CONTRADICTED, proof, f"proved member(s) left out of: {text}")


def count_at_least(reasoner: Reasoner, relation: str, place: str, n: int, negated: bool = False) -> Decided:
    """Decide "at least `n` different things stand in `relation` to `place`" (negated: fewer than `n`).

    Proved (a negated claim refuted) by `n` proved facts with different subjects; fewer found leaves
    it unknown: absence of more facts is never a refutation.
    """
    name = relation_name(reasoner, relation)
    if name is None:
        return Decided(ProofStatus.UNKNOWN, None, f"relation {relation!r} is not in this KB", linked=False)
    places = reasoner.store.resolve(place, MAX_CANDIDATES)
    if not places:
        return Decided(ProofStatus.UNKNOWN, None, f"{place!r} is not in the KB", linked=False)
    rid = reasoner.relation_ids[name]
    for o, subjects in zip(places, reasoner.engine.subject_sets([(rid, o) for o in places]), strict=True):
        proved: list[ProofNode] = []
        for s in subjects:
            res = reasoner.engine.prove(s, rid, o)
            node = labelled_proof(reasoner, res.proof, [s, o]) if res.status == ProofStatus.SUPPORTED else None
            if node is not None:
                proved.append(node)
            if len(proved) == n:
                break
        if len(proved) == n:
            label = reasoner.store.labels([o])[o]
            text = f"At least {n} different things have {relation} {label}."
            proof = ProofNode(rule="count", fact=(label, name, str(n)), text=text, premises=proved)
            status = ProofStatus.CONTRADICTED if negated else ProofStatus.SUPPORTED
            return Decided(status, proof, f"{n} proved facts")
    return Decided(ProofStatus.UNKNOWN, None, f"fewer than {n} proved facts; absence refutes nothing")


__all__ = ["count_at_least", "labelled_proof", "set_complete"]
