"""What decided each claim and the response (pure): proof, evidence, a trusted judge, or nothing.

The response's decision follows the claims, never a default:
- `refuted`: a claim is contradicted (by a proof or by the evidence), or the response answers a question
  both ways;
- `supported`: the KB check proved what the response asserts (its answer, with free sentences around
  it left to the others), or every claim is supported;
- `unsupported`: evidence was supplied and a claim names what it never mentions (a name, a number or
  date, a copular claim's attribute noun: `reading.evidence.absence.absent_units`), or an LLM evidence reader found
  no support for it, or the response does not answer the question it was asked (it gives no time to
  "when", no name to "who": `agents.reading.evidence.answer_kind`);
- `undecided`: nothing decided. With evidence supplied, that includes a claim whose units the evidence
  all mentions but no sentence could be aligned with: it may paraphrase the evidence, and calling it
  unsupported would be a guess shown as a finding. The label is then the `undecided` policy's, and the
  verdict is shown as "not verified".

The judge decides a claim only at or above the threshold where its precision on the Manager's dev mix
was high enough (`ManagerCalibration.judge_threshold`); with no such threshold it decides nothing.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from agents.reading.claim_types import Claim, ClaimKind, only_sufficient
from agents.verifier.schemas import ClaimSupport, KBResult
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import DecidedBy, Decision, EvidenceFinding, EvidenceItem, Opinion


@dataclass(frozen=True, slots=True)
class ClaimStatus:
    """One claim's status and what decided it."""

    claim_id: str
    status: ProofStatus
    decided_by: DecidedBy | None = None
    decided_ids: tuple[str, ...] = ()
    p_supported: float | None = None
    """The judge's probability for this claim, when it scored one (decisive or not)."""
    unsupported: str = ""
    """For an open claim, why the supplied evidence leaves it unsupported (it never mentions a content unit
    of it, or an LLM evidence reader found no support); "" when the evidence may state it."""
    rejected_by_judge: bool = False
    """Whether `unsupported` is the judge's: its P(supported) fell below its trusted rejection threshold."""


@dataclass(frozen=True, slots=True)
class Assessment:
    """The response's decision and the claim statuses it follows from."""

    decision: Decision
    decided_by: DecidedBy | None
    """What decided the response (None when `undecided`; for `unsupported`, the evidence that lacked it)."""
    claims: tuple[ClaimStatus, ...] = field(default=())
    reason: str = ""
    """One line on what decided, for the explanation and the logs."""
    unanswered: str = ""
    """Why the response does not answer its question, when that made it `unsupported` (`answer_kind`)."""

    def status_of(self, claim_id: str) -> ClaimStatus | None:
        """The status of one claim, by id."""
        return next((c for c in self.claims if c.claim_id == claim_id), None)

    @property
    def unsupported_ids(self) -> list[str]:
        """Claims no source supported (for `unsupported` and `undecided` explanations)."""
        return [c.claim_id for c in self.claims if c.status == ProofStatus.UNKNOWN]


def proof_ids(result: KBResult, leaf_ids: Mapping[str, str]) -> tuple[str, ...]:
    """Evidence ids of a proof's stored facts (its leaves), in proof order."""
    if result.proof is None:
        return ()
    return tuple(dict.fromkeys(leaf_ids[n.text] for n in result.proof.leaf_nodes() if n.text in leaf_ids))


_FOUND = {"supported": ProofStatus.SUPPORTED, "refuted": ProofStatus.CONTRADICTED}
"""The evidence reader's decisions that decide a claim ("not enough info" leaves it open)."""


def proof_statuses(
    claims: Sequence[Claim],
    results: Sequence[KBResult],
    support: Sequence[ClaimSupport],
    evidence: Sequence[EvidenceItem],
) -> tuple[ClaimStatus, ...]:
    """Each claim's status from its proof, else the evidence reader's finding; the judge's probability beside it."""
    by_claim = {r.claim_id: r for r in results}
    judged = {s.claim_id: s for s in support}
    leaf_ids = {e.text: e.id for e in evidence}
    out = []
    for c in claims:
        r, s = by_claim.get(c.id), judged.get(c.id)
        p = s.p_supported if s is not None else None
        ids = tuple(s.evidence_ids) if s is not None else ()
        if r is not None and r.status in (ProofStatus.SUPPORTED, ProofStatus.CONTRADICTED):
            out.append(ClaimStatus(c.id, r.status, DecidedBy.PROOF, proof_ids(r, leaf_ids), p))
        elif (
            s is not None
            and s.finding is not None
            and s.finding.decision in _FOUND
            and not (only_sufficient(c) and s.finding.decision == "refuted")  # it proves the answer or leaves it open
        ):
            cited = tuple(dict.fromkeys(i.id.split(".", 1)[0] for i in s.finding.sentences))
            out.append(ClaimStatus(c.id, _FOUND[s.finding.decision], DecidedBy.EVIDENCE, cited, p))
        else:
            out.append(ClaimStatus(c.id, ProofStatus.UNKNOWN, None, ids, p, unsupported_by(s.finding if s else None)))
    return tuple(out)


def unsupported_by(finding: EvidenceFinding | None) -> str:
    """Why a claim the evidence does not decide is unsupported by it, or "" when it may be stated there.

    The embedded reader's "not enough info" counts when the claim names what the evidence never mentions
    (`EvidenceFinding.absent`); an LLM reader's counts as its judgement.
    """
    if finding is None or finding.decision != "not enough info":
        return ""
    if finding.read_by != "embedded":
        return f"{finding.read_by} found no support: {finding.reason}"
    return f"the evidence does not mention {', '.join(finding.absent)}" if finding.absent else ""


JUDGE_REJECTS = "the grounded judge finds no support for it"
"""How an open claim the judge rejects is said to lack support (`with_judge`)."""


def with_judge(
    statuses: Sequence[ClaimStatus], judge_threshold: float | None, reject_threshold: float | None = None
) -> tuple[ClaimStatus, ...]:
    """The statuses after the judge: it supports an open claim at or above its trusted threshold.

    Below its trusted rejection threshold (`reject_threshold`), an open claim the evidence reader found
    no reason against is unsupported by the judge: with supplied evidence the response is then
    `unsupported` (`assess`). An open claim's `decided_ids` hold the items the judge read for it; they
    are kept only when it decides.
    """
    out = []
    for s in statuses:
        p = s.p_supported
        if s.decided_by is not None:
            out.append(s)
        elif judge_threshold is not None and p is not None and p >= judge_threshold:
            out.append(ClaimStatus(s.claim_id, ProofStatus.SUPPORTED, DecidedBy.JUDGE, s.decided_ids, p))
        elif reject_threshold is not None and p is not None and p < reject_threshold and not s.unsupported:
            why = f"{JUDGE_REJECTS} (P(supported) {p:.2f}, under {reject_threshold:.2f})"
            out.append(ClaimStatus(s.claim_id, ProofStatus.UNKNOWN, None, s.decided_ids, p, why, True))
        else:
            out.append(ClaimStatus(s.claim_id, ProofStatus.UNKNOWN, None, (), p, s.unsupported))
    return tuple(out)


def claim_statuses(
    claims: Sequence[Claim],
    results: Sequence[KBResult],
    support: Sequence[ClaimSupport],
    evidence: Sequence[EvidenceItem],
    judge_threshold: float | None,
    reject_threshold: float | None = None,
) -> tuple[ClaimStatus, ...]:
    """Each claim's status: a proof first, then the evidence's sentences, then the judge at its trusted thresholds."""
    return with_judge(proof_statuses(claims, results, support, evidence), judge_threshold, reject_threshold)


def assess(
    claims: Sequence[Claim] | Mapping[str, ClaimKind],
    statuses: Sequence[ClaimStatus],
    kb_opinion: Opinion | None,
    supplied: bool,
    unanswered: str | None = None,
) -> Assessment:
    """The response's decision from its claims' statuses and the KB check's opinion.

    `claims` may be given as their kinds by id. `kb_opinion` carries what the KB check decided about
    the response as a whole: NON-FACTUAL for an answer given both ways, FACTUAL when Prolog proved
    what the response asserts (its answer among free sentences, which stay unknown and do not block it).
    `unanswered` says why the response does not answer its question (`answer_kind`): with evidence
    supplied, such a response is unsupported however well its claims are supported.
    """
    st = tuple(statuses)
    refuted = [s for s in st if s.status == ProofStatus.CONTRADICTED]
    if refuted:
        by = refuted[0].decided_by
        return Assessment(Decision.REFUTED, by, st, f"{len(refuted)} claim(s) contradicted")
    if kb_opinion is not None and kb_opinion.label == Label.NON_FACTUAL:
        return Assessment(Decision.REFUTED, DecidedBy.PROOF, st, kb_opinion.explanation)
    if kb_opinion is not None and kb_opinion.label == Label.FACTUAL:
        return Assessment(Decision.SUPPORTED, DecidedBy.PROOF, st, kb_opinion.explanation)
    kinds = dict(claims) if isinstance(claims, Mapping) else {c.id: c.kind for c in claims}
    asserted = [s for s in st if kinds.get(s.claim_id) != ClaimKind.SET]
    if supplied and unanswered:
        return Assessment(Decision.UNSUPPORTED, DecidedBy.EVIDENCE, st, unanswered, unanswered=unanswered)
    if asserted and all(s.status == ProofStatus.SUPPORTED for s in asserted):
        deciders = {s.decided_by for s in asserted}
        by = next((d for d in (DecidedBy.EVIDENCE, DecidedBy.JUDGE) if d in deciders), DecidedBy.PROOF)
        return Assessment(Decision.SUPPORTED, by, st, f"{len(asserted)} claim(s) supported")
    lacking = [s for s in asserted if s.status == ProofStatus.UNKNOWN and s.unsupported]
    if supplied and lacking:
        why = f"{len(lacking)} claim(s) not supported by the supplied evidence: {lacking[0].unsupported}"
        by = DecidedBy.JUDGE if all(s.rejected_by_judge for s in lacking) else DecidedBy.EVIDENCE
        return Assessment(Decision.UNSUPPORTED, by, st, why)
    if supplied and asserted:
        open_ = sum(s.status == ProofStatus.UNKNOWN for s in asserted)
        why = f"the supplied evidence mentions what {open_} open claim(s) name, but no sentence could be aligned"
        return Assessment(Decision.UNDECIDED, None, st, why)
    return Assessment(Decision.UNDECIDED, None, st, "no claim was read" if supplied else "nothing decided any claim")


def label_of(decision: Decision) -> Label | None:
    """The label a decided verdict carries (None for `undecided`: its label is the policy's)."""
    if decision == Decision.SUPPORTED:
        return Label.FACTUAL
    if decision in (Decision.REFUTED, Decision.UNSUPPORTED):
        return Label.NON_FACTUAL
    return None


__all__ = [
    "JUDGE_REJECTS",
    "Assessment",
    "ClaimStatus",
    "assess",
    "claim_statuses",
    "label_of",
    "proof_ids",
    "proof_statuses",
    "unsupported_by",
    "with_judge",
]
