"""Fact Verdict Manager: weigh the opinions and the evidence, decide, and explain with citations.

With a capable `manager` model (a remote role, or `manager=llm`) it runs FactCHD's arbitration prompt
over the other sources' opinions and the evidence. Otherwise, and whenever that model fails, the
selected policy decides (`agents.verifier.aggregation`) and the explanation is composed from the decisive evidence
(`agents.verifier.explain`); a failure is recorded in `degraded_reasons`, never hidden.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from agents.reading.claim_types import (
    Claim,
    ClaimKind,
    CommonClaim,
    CountClaim,
    SetClaim,
    TemporalClaim,
    TextClaim,
    TripleClaim,
)
from agents.verifier.aggregation import Calibration, Signals, decide, settle
from agents.verifier.context import VerifierContext
from agents.verifier.decision import Assessment, ClaimStatus, assess, claim_statuses, label_of
from agents.verifier.explain import compose
from agents.verifier.schemas import ClaimSupport, KBResult
from agents.verifier.state import VerifierState
from drowzee_core.oracles.factchd_metrics import label_of as reply_label
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.provenance import code_version
from drowzee_core.records.verdict import (
    MAX_UNDECIDED_CONFIDENCE,
    ClaimReading,
    ClaimVerdict,
    DecidedBy,
    Decision,
    EvidenceItem,
    EvidenceSource,
    Opinion,
    OpinionSource,
    Verdict,
    VerdictProvenance,
)
from prompts import render

CALIBRATION_FILE = "calibration.json"


@cache
def shipped_calibration() -> Calibration:
    """The calibration fitted by `drowzee verifier fit` and shipped in `agents/`."""
    text = resources.files("agents.verifier").joinpath(CALIBRATION_FILE).read_text("utf-8")
    return Calibration.model_validate_json(text)


@cache
def _calibration_file(path: Path) -> Calibration:
    return Calibration.model_validate_json(path.read_text("utf-8"))


def load_calibration(path: Path | None) -> Calibration:
    """The calibration at `path` (a `drowzee verifier fit` output), or the shipped one."""
    return shipped_calibration() if path is None else _calibration_file(path)


def kb_partial(claims: Sequence[Claim], results: Sequence[KBResult]) -> float:
    """Share of the claims the KB proved (a set answer's completeness, never proved, is not counted)."""
    provable = [c for c in claims if c.kind != ClaimKind.SET]
    return sum(r.status == ProofStatus.SUPPORTED for r in results) / len(provable) if provable else 0.0


def signals_of_state(state: Mapping[str, Any]) -> Signals:
    """The policy's signals from a run's state (the graph's final values or the Manager's input)."""
    claims, results = state.get("claims", []), state.get("kb_results", [])
    supplied = any(e.source == EvidenceSource.SUPPLIED for e in state.get("gathered", []))
    answers = state.get("answer_set")
    coverage = answers.coverage if answers is not None else None
    return Signals.of(list(state.get("opinions", [])), kb_partial(claims, results), supplied, coverage)


def claim_verdicts(
    claims: Sequence[Claim],
    statuses: Sequence[ClaimStatus],
    support: Sequence[ClaimSupport],
    results: Sequence[KBResult],
) -> list[ClaimVerdict]:
    """Each claim with its status, what decided it (and with which items), its proof and the items that bear on it."""
    by_claim = {r.claim_id: r for r in results}
    status = {s.claim_id: s for s in statuses}
    cited = {s.claim_id: s.evidence_ids for s in support}
    found = {s.claim_id: s.finding for s in support}
    out = []
    for c in claims:
        r, st = by_claim.get(c.id), status.get(c.id)
        decided = list(st.decided_ids) if st is not None else []
        out.append(
            ClaimVerdict(
                text=c.text,
                span=c.span,
                status=st.status if st is not None else ProofStatus.UNKNOWN,
                decided_by=st.decided_by if st is not None else None,
                decided_ids=decided,
                evidence_ids=list(dict.fromkeys([*decided, *cited.get(c.id, [])])),
                proof=r.proof if r is not None and st is not None and st.decided_by == DecidedBy.PROOF else None,
                reading=reading_of(c),
                finding=found.get(c.id),
            )
        )
    return out


UNREAD = (
    "no catalog relation or supplied relation label reads this sentence with names the KB or the evidence know;"
    " the Seeker and the models judge it as text"
)


def reading_of(c: Claim) -> ClaimReading:
    """What the verdict shows of how a claim was read."""
    if isinstance(c, TextClaim):
        return ClaimReading(kind="text", read_by=str(c.origin), why_unread=UNREAD)
    if isinstance(c, TemporalClaim):
        return ClaimReading(kind=str(c.kind), read_by=str(c.origin), negated=c.negated)
    if isinstance(c, SetClaim):
        return ClaimReading(kind=str(c.kind), read_by=str(c.origin), subject=c.variable, relation=c.operation)
    value = (
        c.object if isinstance(c, TripleClaim | CommonClaim) else str(c.at_least) if isinstance(c, CountClaim) else None
    )
    return ClaimReading(
        kind=str(c.kind), read_by=str(c.origin), subject=c.subject, relation=c.relation, object=value, negated=c.negated
    )


def assessment_of_state(state: Mapping[str, Any], calibration: Calibration | None) -> Assessment:
    """What decided the response and each claim, from a run's state (the Manager's input)."""
    claims, results = state.get("claims", []), state.get("kb_results", [])
    evidence = state.get("gathered", [])
    threshold = calibration.judge_threshold if calibration is not None else None
    reject = calibration.judge_reject_threshold if calibration is not None else None
    statuses = claim_statuses(claims, results, state.get("support", []), evidence, threshold, reject)
    kb = next((o for o in reversed(state.get("opinions", [])) if o.source == OpinionSource.KB_CHECK), None)
    supplied = any(e.source == EvidenceSource.SUPPLIED for e in evidence)
    return assess(claims, statuses, kb, supplied, state.get("unanswered"))


def _counted(opinions: Sequence[Opinion], calibration: Calibration | None) -> list[Opinion]:
    """The opinions marked with their dev reliability, and as not counted where the lean does not weigh them."""
    if calibration is None:
        return list(opinions)
    out = []
    for o in opinions:
        name = str(o.source)
        if name in calibration.reliability or name in calibration.counted:
            o = o.model_copy(
                update={"reliability": calibration.reliability.get(name), "counted": calibration.counts(name)}
            )
        out.append(o)
    return out


def _arbitrate(ctx: VerifierContext, state: VerifierState, evidence: Sequence[EvidenceItem]) -> tuple[Label, str]:
    opinions = [o for o in state.get("opinions", []) if o.error is None]
    text = "\n".join(f"[{e.id}] {e.text}" for e in evidence[:30])
    ops = "\n".join(f"{o.source}: {o.label or 'no label'}. {o.explanation}" for o in opinions)
    prompt = render(
        "verifier_arbitration", query=state.get("query", ""), response=state["response"], evidence=text, opinions=ops
    )
    reply = ctx.services.chat("manager").invoke(prompt)
    content = reply.content if isinstance(reply.content, str) else str(reply.content)
    head = reply_label(content)
    if not head:
        raise ValueError(f"the manager's reply starts with no label: {content[:120]!r}")
    return (Label.FACTUAL if head == "factual" else Label.NON_FACTUAL), content.strip()


def _use_llm(ctx: VerifierContext) -> bool:
    mode = ctx.settings.manager
    return mode == "llm" or (mode == "auto" and not ctx.services.role("manager").is_local)


def verdict_manager(state: VerifierState, runtime: Runtime[VerifierContext]) -> dict[str, Any]:
    """Decide from what the claims' checks found, explain, and assemble the verdict record (always returns one)."""
    started = time.perf_counter()
    ctx = runtime.context
    claims, results = state.get("claims", []), state.get("kb_results", [])
    evidence = state.get("gathered", [])
    degraded = list(state.get("degraded", []))
    calibration: Calibration | None = None
    try:
        calibration = load_calibration(ctx.settings.calibration)
    except (OSError, ValueError) as exc:
        degraded.append(f"verdict_manager: no calibration ({exc}); confidences unmeasured, at most 0.70")
    opinions = _counted(state.get("opinions", []), calibration)
    assessment = assessment_of_state(state, calibration)
    signals = signals_of_state(state)
    policy = ctx.settings.policy
    try:
        lean = decide(policy, signals, calibration if policy == "calibrated" else None)
    except (OSError, ValueError) as exc:
        degraded.append(f"verdict_manager: policy {policy} unavailable ({exc}); the lean is the majority's")
        lean = decide("majority", signals, calibration)
    undecided = ctx.settings.undecided
    found = {x.claim_id: x.finding for x in state.get("support", []) if x.finding is not None}
    # a model's reading of the evidence is not what the calibration measured: unmeasured, at most 0.70
    model_read = assessment.decided_by == DecidedBy.EVIDENCE and any(
        f.read_by != "embedded" for c in assessment.claims if (f := found.get(c.claim_id)) is not None
    )
    label, confidence = settle(
        assessment.decision,
        assessment.decided_by,
        label_of(assessment.decision),
        lean,
        undecided,
        None if model_read else calibration,
    )
    explanation = compose(
        assessment,
        label,
        state["response"],
        claims,
        results,
        evidence,
        opinions,
        state.get("answer_set"),
        lean,
        undecided,
        found,
    )
    roles = {}
    rule: str = policy
    if _use_llm(ctx) and assessment.decided_by != DecidedBy.PROOF:
        try:
            said, explanation = _arbitrate(ctx, state, evidence)
            assessment = Assessment(
                Decision.SUPPORTED if said == Label.FACTUAL else Decision.REFUTED,
                DecidedBy.MODEL,
                assessment.claims,
                "the manager model's arbitration",
            )
            confidence = min(confidence, MAX_UNDECIDED_CONFIDENCE) if said == label else 0.5
            label, rule = said, "manager arbitration"
            roles["manager"] = ctx.services.model_ref("manager")
            opinions.append(Opinion(source=OpinionSource.MANAGER, label=label, explanation=explanation))
        except Exception as exc:
            degraded.append(
                f"verdict_manager: arbitration failed ({type(exc).__name__}: {exc}); the {policy} policy decided"
            )
    if ctx.settings.use_guardian and any(o.source == OpinionSource.GUARDIAN for o in opinions):
        roles["guardian"] = ctx.services.model_ref("guardian")
    if ctx.settings.use_seeker and any(o.source == OpinionSource.SEEKER and o.error is None for o in opinions):
        roles["judge"] = ctx.services.model_ref("seeker" if ctx.settings.judge_role == "seeker" else "judge")
    timings = dict(state.get("timings", {}))
    timings["verdict_manager"] = round(time.perf_counter() - started, 4)
    verdict = Verdict(
        id=state.get("id"),
        decision=assessment.decision,
        label=label,
        confidence=round(confidence, 6),
        lean=lean.label if assessment.decision == Decision.UNDECIDED else None,
        explanation=explanation,
        claims=claim_verdicts(claims, assessment.claims, state.get("support", []), results),
        evidence=evidence,
        proofs=[r.proof for r in results if r.proof is not None],
        opinions=opinions,
        degraded=bool(degraded),
        degraded_reasons=degraded,
        provenance=VerdictProvenance(
            roles=roles,
            policy=rule,
            undecided_policy=undecided if assessment.decision == Decision.UNDECIDED else None,
            kb_fingerprint=ctx.services.kb_fingerprint if ctx.settings.use_kb else None,
            seed=ctx.settings.seed,
            code_version=code_version()[0],
            timings=timings,
        ),
    )
    return {"verdict": verdict, "timings": {"verdict_manager": timings["verdict_manager"]}}


__all__ = [
    "CALIBRATION_FILE",
    "assessment_of_state",
    "claim_verdicts",
    "kb_partial",
    "load_calibration",
    "shipped_calibration",
    "signals_of_state",
    "verdict_manager",
]
