"""Whether a list a response gives as whole leaves out a value of a complete relation, decided on one KB.

"X's official tongues are A and B" says A and B are all of X's values. Where the KB declares the relation
complete (`RelationSpec.complete`: it lists every value of each subject it holds any for), a value the
KB proves for the subject today that the list does not name refutes it, and the proof says the list is
declared complete. The claim is never proved here: its members are proved by their own claims. Only
current values count (a value dated to a period that has ended is a past one, as in `kb.counts`); a
name several entities share is its first reading that holds any value; a listed name the KB does not
know leaves the claim unknown (it may be the left-out value under another name).
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.verifier.kb.prove import Decided, objects_of, relation_name
from agents.verifier.kb.sets import labelled_proof
from drowzee_core.logic.reasoner import MAX_CANDIDATES, Reasoner
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode

WHOLE_LIST_RULE = "list_incomplete"
"""The rule of a whole list's refutation: the KB's complete list of the subject's values, and those left out."""
MAX_SHOWN = 8
"""Most of the subject's values a refutation lists."""


def whole_list(reasoner: Reasoner, subject: str, relation: str, named: Sequence[str]) -> Decided:
    """Decide the claim that `named` are every value of `relation` that `subject` has today."""
    name = relation_name(reasoner, relation)
    if name is None or name not in reasoner.catalog:
        return Decided(ProofStatus.UNKNOWN, None, f"relation {relation!r} is not in this KB", linked=False)
    spec = reasoner.catalog.get(name)
    if not spec.complete:
        return Decided(ProofStatus.UNKNOWN, None, f"the KB does not declare '{spec.label}' complete")
    rid = reasoner.relation_ids[name]
    listed: set[int] = set()
    for n in named:
        ids = [*reasoner.store.named_by(n, MAX_CANDIDATES), *objects_of(reasoner, name, n)[0]]
        if not ids:
            return Decided(ProofStatus.UNKNOWN, None, f"the listed {n!r} is not in the KB")
        listed.update(ids)
    for eid in reasoner.store.resolve(subject, MAX_CANDIDATES):
        current = dict.fromkeys(o for o, _start, end in reasoner.store.dated_objects(eid, rid) if end is None)
        proved: dict[int, ProofNode] = {}
        for o in current:
            res = reasoner.engine.prove(eid, rid, o)
            if res.status == ProofStatus.SUPPORTED and (node := labelled_proof(reasoner, res.proof, [eid, o])):
                proved[o] = node
        if not proved:
            continue  # another entity of the same name, with no value of this relation
        left_out = [o for o in proved if o not in listed]
        if not left_out:
            return Decided(ProofStatus.UNKNOWN, None, "the list leaves out none of the KB's values")
        labels = reasoner.store.labels([eid, *proved])
        values = ", ".join(labels[o] for o in proved)
        missing = ", ".join(labels[o] for o in left_out)
        every = (
            f"every {spec.label} of {labels[eid]}"
            if spec.category == "noun_phrase"
            else (f"everything {labels[eid]} {spec.label}")
        )
        text = (
            f"The KB lists {every} (the relation is declared complete): {values}."
            f" The response gives its list as the whole one and leaves out {missing}."
        )
        premises = [proved[o] for o in left_out][:MAX_SHOWN]
        proof = ProofNode(
            rule=WHOLE_LIST_RULE, fact=(labels[eid], name, ", ".join(named)), text=text, premises=premises
        )
        return Decided(ProofStatus.CONTRADICTED, proof, f"{len(left_out)} proved value(s) left out of a whole list")
    return Decided(ProofStatus.UNKNOWN, None, f"no stored value of '{spec.label}' for {subject!r}")


__all__ = ["WHOLE_LIST_RULE", "whole_list"]
