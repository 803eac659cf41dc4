"""Fact Verdict Manager: weigh the opinions and the evidence, decide, and explain with citations.

With a capable `manager` model (a remote role, or `manager=llm`) it runs FactCHD's arbitration prompt
over the other sources' opinions and the evidence. Otherwise, and whenever that model fails, the
selected policy decides (`agents.aggregate`) and the explanation is composed from the decisive evidence
(`agents.explain`); a failure is recorded in `degraded_reasons`, never hidden.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from langgraph.runtime import Runtime

from agents.aggregate import Calibration, Decision, Signals, decide
from agents.context import VerifierContext
from agents.explain import compose
from agents.schemas import Claim, ClaimKind, ClaimSupport, KBResult
from agents.state import VerifierState
from drowzee_core.oracles.factchd_metrics import label_of
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.provenance import code_version
from drowzee_core.records.verdict import (
    ClaimVerdict,
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
    text = resources.files("agents").joinpath(CALIBRATION_FILE).read_text("utf-8")
    return Calibration.model_validate_json(text)


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
    results: Sequence[KBResult],
    support: Sequence[ClaimSupport],
    evidence: Sequence[EvidenceItem],
) -> list[ClaimVerdict]:
    """Each claim with its status, proof and the evidence that bears on it."""
    by_claim = {r.claim_id: r for r in results}
    cited = {s.claim_id: s.evidence_ids for s in support}
    ids = {e.text: e.id for e in evidence}
    out = []
    for c in claims:
        r = by_claim.get(c.id)
        ev = list(cited.get(c.id, []))
        if r is not None and r.proof is not None:
            ev = [ids[n.text] for n in r.proof.leaf_nodes() if n.text in ids] + ev
        out.append(
            ClaimVerdict(
                text=c.text,
                span=c.span,
                status=r.status if r is not None else ProofStatus.UNKNOWN,
                evidence_ids=list(dict.fromkeys(ev)),
                proof=r.proof if r is not None else None,
            )
        )
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
    head = label_of(content)
    if not head:
        raise ValueError(f"the manager's reply starts with no label: {content[:120]!r}")
    return (Label.FACTUAL if head == "factual" else Label.NON_FACTUAL), content.strip()


def _use_llm(ctx: VerifierContext) -> bool:
    mode = ctx.settings.manager
    return mode == "llm" or (mode == "auto" and not ctx.services.role("manager").is_local)


def verdict_manager(state: VerifierState, runtime: Runtime[VerifierContext]) -> dict[str, Any]:
    """Decide, explain and assemble the verdict record (always returns one)."""
    started = time.perf_counter()
    ctx = runtime.context
    claims, results = state.get("claims", []), state.get("kb_results", [])
    evidence, opinions = state.get("gathered", []), list(state.get("opinions", []))
    degraded = list(state.get("degraded", []))
    signals = signals_of_state(state)
    policy = ctx.settings.policy
    try:
        decision = decide(policy, signals, shipped_calibration() if policy == "calibrated" else None)
    except (OSError, ValueError) as exc:
        degraded.append(f"verdict_manager: policy {policy} unavailable ({exc}); decided by majority instead")
        decision = decide("majority", signals, None)
    explanation = compose(decision, state["response"], claims, results, evidence, opinions, state.get("answer_set"))
    roles = {}
    if _use_llm(ctx) and decision.rule != "proof":
        try:
            label, explanation = _arbitrate(ctx, state, evidence)
            decision = Decision(label, decision.confidence if label == decision.label else 0.5, "manager arbitration")
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
        label=decision.label,
        confidence=round(decision.confidence, 6),
        explanation=explanation,
        claims=claim_verdicts(claims, results, state.get("support", []), evidence),
        evidence=evidence,
        proofs=[r.proof for r in results if r.proof is not None],
        opinions=opinions,
        degraded=bool(degraded),
        degraded_reasons=degraded,
        provenance=VerdictProvenance(
            roles=roles,
            policy=decision.rule if decision.rule == "manager arbitration" else policy,
            kb_fingerprint=ctx.services.kb_fingerprint if ctx.settings.use_kb else None,
            seed=ctx.settings.seed,
            code_version=code_version()[0],
            timings=timings,
        ),
    )
    return {"verdict": verdict, "timings": {"verdict_manager": timings["verdict_manager"]}}


__all__ = [
    "CALIBRATION_FILE",
    "claim_verdicts",
    "kb_partial",
    "shipped_calibration",
    "signals_of_state",
    "verdict_manager",
]
