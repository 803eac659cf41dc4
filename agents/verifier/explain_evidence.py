"""Explanations of verdicts the supplied evidence's sentences decided (pure; `agents.reading.evidence.support`).

A refuted answer quotes the conflicting sentence with its id and names the conflict ("the evidence
gives X [S1.2], not Y"); a supported one quotes the sentences that hold the claims.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from agents.reading.claim_types import Claim
from agents.verifier.decision import Assessment
from agents.verifier.explain_clauses import MAX_CITED, cite, negation, proof_citations, quote
from agents.verifier.schemas import KBResult
from drowzee_core.generate.factchd_record import NO_FALLACY
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import DecidedBy, EvidenceFinding, EvidenceItem


def sentences(finding: EvidenceFinding) -> list[str]:
    """A finding's sentences, quoted with their ids."""
    return [f"{quote(c.text)} [{c.id}]" for c in finding.sentences[:MAX_CITED]]


def read_by(found: Mapping[str, EvidenceFinding], claim_ids: Sequence[str]) -> str:
    """Who read the evidence for these claims when a model did ("The judge: gpt-4o-mini model read ..."), else ""."""
    models = list(dict.fromkeys(f.read_by for i in claim_ids if (f := found.get(i)) and f.read_by != "embedded"))
    if not models:
        return ""
    return f"The evidence was read by the model {' and '.join(models)}, whose decisions are not calibrated."


def from_evidence(
    assessment: Assessment,
    head: str,
    label: Label,
    claims: Sequence[Claim],
    results: Sequence[KBResult],
    evidence: Sequence[EvidenceItem],
    found: Mapping[str, EvidenceFinding],
) -> str:
    """A verdict the supplied evidence's sentences decided: the deciding sentences and the conflict or the match."""
    by_id = {c.id: c for c in claims}
    leaf_ids = {e.text: e.id for e in evidence}
    text = [head]
    if label == Label.NON_FACTUAL:
        for st in assessment.claims:
            f = found.get(st.claim_id)
            if st.status != ProofStatus.CONTRADICTED or st.decided_by != DecidedBy.EVIDENCE or f is None:
                continue
            text.append(f"The evidence says: {'; '.join(sentences(f))}.")
            text.append(f"{f.reason[:1].upper()}{f.reason[1:]}.")
            if f.read_as or st.claim_id in by_id:  # a short answer: the statement it makes with its question
                text.append(negation(f.read_as or by_id[st.claim_id].text))
            break
        text.append("Therefore, the answer contains an incorrect conclusion.")
        return " ".join(x for x in (*text[:-1], read_by(found, [c.claim_id for c in assessment.claims]), text[-1]) if x)
    quoted = [q for st in assessment.claims if (f := found.get(st.claim_id)) is not None for q in sentences(f)]
    if quoted:
        text.append(f"According to the evidence, {'; '.join(list(dict.fromkeys(quoted))[:MAX_CITED])}.")
    proved = proof_citations(results, leaf_ids, ProofStatus.SUPPORTED)[:MAX_CITED]
    if proved:
        text.append(f"Proved: {cite(proved)}.")
    text.append(read_by(found, [c.claim_id for c in assessment.claims]))
    text.append(NO_FALLACY)
    return " ".join(x for x in text if x)


__all__ = ["from_evidence", "read_by", "sentences"]
