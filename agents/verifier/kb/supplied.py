"""A pair's supplied triples read as complete for a relation they give both names (KB thread).

"Do X and Y have the same N?" is unknown on an open-world KB when X and Y hold different values:
either may hold another one the KB lacks. The triples a user supplies with a pair are different: they
are the facts the pair is judged by (FactCHD's "with facts" convention, under which a claim they do
not support is already `unsupported`). So when they give *both* names values for the relation and
no value is shared, the values they give decide it: "the same N" is refuted and "different Ns" is
supported, with both names' values as the proof. A name they give no value leaves the claim
unknown, and the user's own KB is never read this way.
"""

from __future__ import annotations

from agents.verifier.kb.prove import Decided, relation_name
from drowzee_core.logic.reasoner import MAX_CANDIDATES, Reasoner
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode

DISTINCT_RULE = "distinct_supplied_values"
"""The proof rule of a common-object claim the supplied triples' values decide."""
MAX_SHOWN = 5
"""Most values of one name a proof lists."""


def _values(reasoner: Reasoner, name: str, rid: int) -> tuple[str, list[str]] | None:
    """(the name as stored, its stored values of relation `rid`), or None when it names no entity or has none."""
    for eid in reasoner.store.resolve(name, MAX_CANDIDATES):
        objs = [o for o, _start, _end in reasoner.store.dated_objects(eid, rid)]
        if objs:
            labels = reasoner.store.labels([eid, *objs])
            return labels[eid], list(dict.fromkeys(labels[o] for o in objs))
    return None


def distinct_values(reasoner: Reasoner, subject: str, relation: str, other: str, negated: bool) -> Decided | None:
    """The common-object claim decided by the two names' supplied values, or None when they do not decide it.

    Called only when Prolog left the claim unknown (no shared value, stored or derived).
    """
    name = relation_name(reasoner, relation)
    if name is None:
        return None
    rid = reasoner.relation_id(name)
    sides = [_values(reasoner, n, rid) for n in (subject, other)]
    if sides[0] is None or sides[1] is None:
        return None
    (s_label, s_values), (o_label, o_values) = sides[0], sides[1]
    said = reasoner.catalog.get(name).label if name in reasoner.catalog else name
    if set(s_values) & set(o_values):
        return None  # Prolog would have proved it: not this module's case
    premises = [
        ProofNode(rule="fact", fact=(label, name, value), text=f"{label}: {said} {value}.")
        for label, values in ((s_label, s_values), (o_label, o_values))
        for value in values[:MAX_SHOWN]
    ]
    text = (
        f"The supplied triples give {s_label} the {said} {_listed(s_values)} and {o_label} "
        f"{_listed(o_values)}: none in common."
    )
    proof = ProofNode(rule=DISTINCT_RULE, fact=(s_label, name, o_label), text=text, premises=premises)
    status = ProofStatus.SUPPORTED if negated else ProofStatus.CONTRADICTED
    return Decided(status, proof, "the supplied triples give both names values and share none (read as complete)")


def _listed(values: list[str]) -> str:
    shown = values[:MAX_SHOWN]
    more = f" and {len(values) - len(shown)} more" if len(values) > len(shown) else ""
    return (", ".join(shown[:-1]) + " and " + shown[-1] if len(shown) > 1 else shown[0]) + more


__all__ = ["DISTINCT_RULE", "distinct_values"]
