"""Run the verifier's sources on the Manager's dev mix and keep what each said (the I/O half of fitting).

Each pair of the mix (`finetune.manager_mix`) is verified once; its run keeps every signal the
Manager weighs - the KB check's label and proof statuses per claim, the judge's probability per claim
and for the response, the Guardian's label and probability - so that fitting and reporting
(`agents.verifier.calibrate`) are pure functions of the runs and need no second pass. Runs are appended to a
JSONL file as they finish, so an interrupted fit resumes where it stopped.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agents.reading.claim_types import ClaimKind
from agents.verifier.aggregation import Signals
from agents.verifier.decision import Assessment, ClaimStatus, assess, proof_statuses, with_judge
from agents.verifier.nodes.verdict_manager import signals_of_state
from agents.verifier.runner import Verifier
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.pair import QRPair
from drowzee_core.records.verdict import DecidedBy, EvidenceSource, Opinion, OpinionSource, VerifyRequest

log = logging.getLogger(__name__)


class RunClaim(BaseModel):
    """One claim of a run: its kind, what the proofs left it at, and the judge's probability."""

    model_config = ConfigDict(extra="forbid")

    id: str
    kind: ClaimKind
    status: ProofStatus = Field(
        description="After the proofs and the evidence reader (supported / contradicted / unknown), before the judge."
    )
    decided_by: DecidedBy | None = Field(
        default=None,
        description="What decided `status`: `proof` or `evidence` (None when unknown; runs written before this"
        " field read a decided status as `proof`).",
    )
    p_supported: float | None = Field(default=None, description="The judge's P(supported) for this claim.")
    judged_ids: list[str] = Field(default_factory=list, description="Items the judge read for it.")
    unsupported: str = Field(
        default="",
        description="Why the supplied evidence leaves an open claim unsupported (`decision.unsupported_by`); runs"
        " written before this field read every open claim as merely open.",
    )


class ManagerRun(BaseModel):
    """What every source said about one pair of the dev mix, and the gold label."""

    model_config = ConfigDict(extra="forbid")

    id: str
    item: str = Field(description="The mix item (both evidence modes of an item share it).")
    source: str = Field(description="Mix source: generated, fever_symmetric, snli, ...")
    half: str = Field(description="`fit` or `check`.")
    supplied: bool = Field(description="Whether evidence was supplied.")
    gold: Label
    kb_label: Label | None = None
    kb_explanation: str = ""
    kb_partial: float = 0.0
    seeker_p: float | None = None
    seeker_label: Label | None = None
    guardian_label: Label | None = None
    guardian_p: float | None = Field(default=None, description="The Guardian's probability of its label.")
    answers: float | None = None
    unanswered: str | None = Field(default=None, description="Why the response does not answer its question.")
    claims: list[RunClaim] = Field(default_factory=list)
    seconds: float = 0.0

    def signals(self) -> Signals:
        """The lean's signals."""
        return Signals(
            kb=self.kb_label,
            kb_partial=self.kb_partial,
            seeker_p=self.seeker_p,
            seeker=self.seeker_label,
            guardian=self.guardian_label,
            supplied=self.supplied,
            answers=self.answers,
        )

    def statuses(self, judge_threshold: float | None, reject_threshold: float | None = None) -> tuple[ClaimStatus, ...]:
        """The claims' statuses with the judge trusted at its thresholds (None: not at all)."""
        raw = tuple(
            ClaimStatus(
                c.id,
                c.status,
                (c.decided_by or DecidedBy.PROOF) if c.status != ProofStatus.UNKNOWN else None,
                tuple(c.judged_ids),
                c.p_supported,
                c.unsupported if c.status == ProofStatus.UNKNOWN else "",
            )
            for c in self.claims
        )
        return with_judge(raw, judge_threshold, reject_threshold)

    def assessment(self, judge_threshold: float | None, reject_threshold: float | None = None) -> Assessment:
        """The decision this run gets with the judge trusted at its thresholds."""
        kb = Opinion(source=OpinionSource.KB_CHECK, label=self.kb_label, explanation=self.kb_explanation)
        kinds = {c.id: c.kind for c in self.claims}
        statuses = self.statuses(judge_threshold, reject_threshold)
        return assess(kinds, statuses, kb, self.supplied, self.unanswered)


def run_of_state(pair: QRPair, state: Mapping[str, Any], seconds: float) -> ManagerRun:
    """The run record of one pair from the graph's final state."""
    meta = pair.meta or {}
    signals = signals_of_state(state)
    claims, results = state.get("claims", []), state.get("kb_results", [])
    evidence = state.get("gathered", [])
    statuses = proof_statuses(claims, results, state.get("support", []), evidence)
    opinions = {o.source: o for o in state.get("opinions", [])}
    kb, guardian = opinions.get(OpinionSource.KB_CHECK), opinions.get(OpinionSource.GUARDIAN)
    return ManagerRun(
        id=pair.id,
        item=str(meta.get("item", pair.id)),
        source=str(meta.get("mix_source", pair.source or "unknown")),
        half=str(meta.get("half", "fit")),
        supplied=any(e.source == EvidenceSource.SUPPLIED for e in evidence),
        gold=pair.label,
        kb_label=kb.label if kb is not None else None,
        kb_explanation=kb.explanation if kb is not None else "",
        kb_partial=signals.kb_partial,
        seeker_p=signals.seeker_p,
        seeker_label=signals.seeker,
        guardian_label=guardian.label if guardian is not None else None,
        guardian_p=guardian.confidence if guardian is not None else None,
        answers=signals.answers,
        unanswered=state.get("unanswered"),
        claims=[
            RunClaim(
                id=c.id,
                kind=c.kind,
                status=s.status,
                decided_by=s.decided_by,
                p_supported=s.p_supported,
                judged_ids=list(s.decided_ids) if s.decided_by is None else [],
                unsupported=s.unsupported,
            )
            for c, s in zip(claims, statuses, strict=True)
        ],
        seconds=round(seconds, 3),
    )


def run_pair(verifier: Verifier, pair: QRPair) -> ManagerRun:
    """Verify one pair and keep what every source said."""
    req = VerifyRequest(id=pair.id, query=pair.query, response=pair.response, evidence=pair.evidence or None)
    thread = f"fit:{pair.id}:{uuid.uuid4().hex[:8]}"
    started = time.perf_counter()
    verifier.verify(req, thread=thread)
    values = verifier.graph.get_state({"configurable": {"thread_id": thread}}).values
    return run_of_state(pair, values, time.perf_counter() - started)


def read_runs(path: Path) -> list[ManagerRun]:
    """The runs kept in a JSONL file (none when it does not exist yet)."""
    if not path.exists():
        return []
    out = []
    for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
        if line.strip():
            try:
                out.append(ManagerRun.model_validate_json(line))
            except ValueError as exc:
                raise DrowzeeError(f"{path}:{n}: not a run record ({exc}); delete the file to start over") from exc
    return out


def run_mix(
    verifier: Verifier, pairs: Sequence[QRPair], out: Path, progress: Callable[[int], None] | None = None
) -> list[ManagerRun]:
    """Every pair's run, appended to `out` as it finishes; pairs already in `out` are not run again."""
    bad = [p.id for p in pairs if p.split is not None and str(p.split) == "test"]
    if bad:
        raise DrowzeeError(f"{len(bad)} pairs are from the test split (e.g. {bad[0]}); fit on dev data only")
    runs = {r.id: r for r in read_runs(out)}
    todo = [p for p in pairs if p.id not in runs]
    log.info("%d of %d pairs already run; running %d", len(pairs) - len(todo), len(pairs), len(todo))
    if progress:
        progress(len(pairs) - len(todo))
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a", encoding="utf-8") as fh:
        for pair in todo:
            run = run_pair(verifier, pair)
            fh.write(run.model_dump_json() + "\n")
            fh.flush()
            runs[run.id] = run
            if progress:
                progress(1)
    return [runs[p.id] for p in pairs]


def merge_guardian(runs: Iterable[ManagerRun], guardian: Iterable[ManagerRun]) -> list[ManagerRun]:
    """Runs with the Guardian's label and probability taken from a Guardian-only pass over the same pairs."""
    said = {g.id: g for g in guardian}
    out = []
    for r in runs:
        g = said.get(r.id)
        out.append(
            r if g is None else r.model_copy(update={"guardian_label": g.guardian_label, "guardian_p": g.guardian_p})
        )
    return out


__all__ = ["ManagerRun", "RunClaim", "merge_guardian", "read_runs", "run_mix", "run_of_state", "run_pair"]
