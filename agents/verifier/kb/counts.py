"""How many values a name has for a relation ("X has two official tongues"), decided on one KB.

A count of a subject's values is refuted when the KB proves more different values than it says. It is
proved only where the relation is declared complete (`RelationSpec.complete`: the KB lists every value
of each subject it holds any for) and the list has exactly that many; where complete, a shorter list
refutes it too. Otherwise fewer proved values leave it unknown: absence of more facts is never a
refutation. Only current values count (a value dated to a period that has ended is a past one), and a
name several entities share is its first reading, as in `kb.prove.prove_claim`.
"""

from __future__ import annotations

from agents.verifier.kb.prove import Decided, relation_name
from agents.verifier.kb.sets import labelled_proof
from drowzee_core.logic.reasoner import MAX_CANDIDATES, Reasoner
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode

MAX_SHOWN = 8
"""Most values a count's proof lists."""

_FLIP = {ProofStatus.SUPPORTED: ProofStatus.CONTRADICTED, ProofStatus.CONTRADICTED: ProofStatus.SUPPORTED}


def count_values(reasoner: Reasoner, subject: str, relation: str, n: int, negated: bool = False) -> Decided:
    """Decide "`subject` has exactly `n` different values of `relation`" (negated: not exactly `n`)."""
    name = relation_name(reasoner, relation)
    if name is None or name not in reasoner.catalog:
        return Decided(ProofStatus.UNKNOWN, None, f"relation {relation!r} is not in this KB", linked=False)
    found = reasoner.store.resolve(subject, MAX_CANDIDATES)
    if not found:
        return Decided(ProofStatus.UNKNOWN, None, f"{subject!r} is not in the KB", linked=False)
    eid, rid, spec = found[0], reasoner.relation_ids[name], reasoner.catalog.get(name)
    current = dict.fromkeys(o for o, _start, end in reasoner.store.dated_objects(eid, rid) if end is None)
    proved: list[ProofNode] = []
    for o in current:
        res = reasoner.engine.prove(eid, rid, o)
        if res.status == ProofStatus.SUPPORTED and (node := labelled_proof(reasoner, res.proof, [eid, o])) is not None:
            proved.append(node)
    k = len(proved)
    label = reasoner.store.labels([eid])[eid]
    if k > n:
        status, text = ProofStatus.CONTRADICTED, f"The KB proves {k} different values of '{spec.label}' for {label}."
    elif spec.complete and k > 0:
        said = "exactly" if k == n else "only"
        status = ProofStatus.SUPPORTED if k == n else ProofStatus.CONTRADICTED
        text = f"The KB lists every '{spec.label}' of {label}: {said} {k}."
    else:
        why = "no stored value" if k == 0 else f"{k} proved values, and the KB's list is not declared complete"
        return Decided(ProofStatus.UNKNOWN, None, f"{why}; absence refutes nothing")
    proof = ProofNode(rule="count_values", fact=(label, name, str(n)), text=text, premises=proved[:MAX_SHOWN])
    return Decided(_FLIP.get(status, status) if negated else status, proof, f"{k} proved values against {n}")


__all__ = ["count_values"]
