"""Verdict arithmetic (pure): the models' lean, and a verdict's label and honest confidence.

What decides a verdict is `agents.verifier.decision` (proofs, evidence, a trusted judge). The policies here
give the *lean* of the sources that decide nothing on their own (the Seeker's judge probability, the
Guardian), which is the label of an `undecided` verdict under the default `--undecided lean`:
- `calibrated` (default): a logistic regression over the sources' signals, fitted on the Manager's dev
  mix (`drowzee verifier fit`: generated pairs and human-written claims, undecided rows in realistic
  proportion) and shipped as `agents/verifier/calibration.json`;
- `strict`: any source that says NON-FACTUAL wins;
- `majority`: one vote per source that gave a label; ties go to the Seeker's probability, then to
  NON-FACTUAL.
A source whose dev reliability is at its constant baseline is not counted (`Calibration.counted`).
The confidence of a decided verdict is the accuracy of its kind of decision on the dev mix
(`Calibration.confidence`); an undecided one never claims more than `MAX_UNDECIDED_CONFIDENCE`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import (
    MAX_UNDECIDED_CONFIDENCE,
    DecidedBy,
    Decision,
    Opinion,
    OpinionSource,
    UndecidedPolicy,
)

FEATURES = (
    "kb_factual",
    "kb_non_factual",
    "kb_partial",
    "seeker_logit",
    "seeker_missing",
    "guardian_factual",
    "guardian_non_factual",
    "seeker_logit_supplied",
    "answers_named",
    "answers_missed",
)
"""Signals the calibrated policy weighs, in order."""


@dataclass(frozen=True, slots=True)
class Signals:
    """What the sources said, reduced to numbers the policies read."""

    kb: Label | None
    """The KB check's label: set only when Prolog decided (a refuted claim, or every claim proved)."""
    kb_partial: float
    """Share of the response's claims the KB proved (0 when it read none)."""
    seeker_p: float | None
    """The Seeker judge's P(response supported by the evidence); None when it gave none."""
    seeker: Label | None
    guardian: Label | None
    supplied: bool = False
    """Whether the pair came with evidence (the judge then reads it, not only what retrieval found)."""
    answers: float | None = None
    """Share of the supplied triples' answers to a "which ..." question the response names (`kb.answer_set`)."""

    @classmethod
    def of(
        cls, opinions: Sequence[Opinion], kb_partial: float = 0.0, supplied: bool = False, answers: float | None = None
    ) -> Signals:
        """Signals from the opinions (the last opinion per source counts)."""
        by = {o.source: o for o in opinions}
        kb, seek, guard = by.get(OpinionSource.KB_CHECK), by.get(OpinionSource.SEEKER), by.get(OpinionSource.GUARDIAN)
        p = None
        if seek is not None and seek.confidence is not None and seek.label is not None:
            p = seek.confidence if seek.label == Label.FACTUAL else 1.0 - seek.confidence
        return cls(
            kb=kb.label if kb else None,
            kb_partial=kb_partial,
            seeker_p=p,
            seeker=seek.label if seek else None,
            guardian=guard.label if guard else None,
            supplied=supplied,
            answers=answers,
        )

    def vector(self) -> list[float]:
        """The feature vector, in `FEATURES` order."""
        p = 0.5 if self.seeker_p is None else min(max(self.seeker_p, 1e-4), 1 - 1e-4)
        logit = math.log(p / (1 - p))
        return [
            float(self.kb == Label.FACTUAL),
            float(self.kb == Label.NON_FACTUAL),
            self.kb_partial,
            logit,
            float(self.seeker_p is None),
            float(self.guardian == Label.FACTUAL),
            float(self.guardian == Label.NON_FACTUAL),
            logit * self.supplied,
            0.0 if self.answers is None else self.answers,
            0.0 if self.answers is None else 1.0 - self.answers,
        ]


class Calibration(BaseModel):
    """A fitted logistic regression: P(FACTUAL) = sigmoid(intercept + coef . features)."""

    model_config = ConfigDict(extra="forbid")

    features: list[str] = Field(description="Feature names, in order (must equal FEATURES).")
    coef: list[float] = Field(description="One weight per feature.")
    intercept: float = Field(description="Bias term.")
    threshold: float = Field(default=0.5, gt=0.0, lt=1.0, description="P(FACTUAL) at or above which FACTUAL.")
    judge_threshold: float | None = Field(
        default=None,
        gt=0.0,
        le=1.0,
        description="Claim-level P(supported) at or above which the judge decides a claim supported: the lowest"
        " threshold whose dev precision reached the target; None: it never reached it, the judge decides nothing.",
    )
    judge_reject_threshold: float | None = Field(
        default=None,
        gt=0.0,
        le=1.0,
        description="Claim-level P(supported) below which the judge calls an open claim unsupported by supplied"
        " evidence: the highest threshold whose dev precision (NON-FACTUAL) reached the target; None: never.",
    )
    counted: dict[str, bool] = Field(
        default_factory=dict,
        description="Source (`seeker`, `guardian`) -> whether the lean weighs it (False: dev reliability at its"
        " constant baseline). A source not listed is counted.",
    )
    reliability: dict[str, float] = Field(
        default_factory=dict, description="Source -> balanced accuracy of its own label on the dev mix."
    )
    confidence: dict[str, float] = Field(
        default_factory=dict,
        description="`decision:decided_by` (e.g. `refuted:proof`) -> accuracy of that kind of verdict on the dev"
        " mix (smoothed); the confidence a decided verdict of that kind carries.",
    )
    fitted_on: dict[str, object] = Field(default_factory=dict, description="Data, counts and dev figures.")

    def counts(self, source: str) -> bool:
        """Whether the lean weighs this source."""
        return self.counted.get(source, True)

    def weighed(self, signals: Signals) -> Signals:
        """The signals with every source that is not counted taken out."""
        if not self.counts("guardian"):
            signals = replace(signals, guardian=None)
        if not self.counts("seeker"):
            signals = replace(signals, seeker=None, seeker_p=None)
        return signals

    def p_factual(self, signals: Signals) -> float:
        """P(FACTUAL) of these signals (sources not counted are taken out first)."""
        if tuple(self.features) != FEATURES:
            raise ValueError(f"calibration features {self.features} differ from {list(FEATURES)}; refit it")
        vector = self.weighed(signals).vector()
        z = self.intercept + sum(w * x for w, x in zip(self.coef, vector, strict=True))
        return 1.0 / (1.0 + math.exp(-z))

    def confidence_of(self, decision: Decision, decided_by: DecidedBy | None) -> float:
        """Dev accuracy of this kind of decided verdict; at most `MAX_UNDECIDED_CONFIDENCE` when unmeasured.

        A decider the calibration never measured (the evidence reader, before a refit) does not borrow
        another decider's accuracy: its verdicts carry at most `MAX_UNDECIDED_CONFIDENCE`.
        """
        key = f"{decision}:{decided_by}" if decided_by is not None else str(decision)
        found = self.confidence.get(key)
        return MAX_UNDECIDED_CONFIDENCE if found is None else found


@dataclass(frozen=True, slots=True)
class Lean:
    """The lean of the sources that decide nothing on their own: a label, its probability, the rule."""

    label: Label
    confidence: float
    rule: str


def _vote(labels: Sequence[Label | None]) -> tuple[int, int]:
    return sum(lb == Label.FACTUAL for lb in labels), sum(lb == Label.NON_FACTUAL for lb in labels)


def decide(policy: str, signals: Signals, calibration: Calibration | None) -> Lean:
    """Apply a policy. `calibrated` needs a calibration; the others ignore it (a proof's label wins in both)."""
    if policy != "majority" and signals.kb is not None:
        return Lean(signals.kb, 1.0, "proof")
    if calibration is not None:
        signals = calibration.weighed(signals)
    if policy == "strict":
        labels = [signals.kb, signals.seeker, signals.guardian]
        if Label.NON_FACTUAL in labels:
            return Lean(Label.NON_FACTUAL, 1.0, "the strict lean (a source found a conflict)")
        if Label.FACTUAL in labels:
            return Lean(Label.FACTUAL, 1.0, "the strict lean (no source found a conflict)")
        return Lean(Label.NON_FACTUAL, 0.5, "the strict lean (no source gave a label: NON-FACTUAL)")
    if policy == "majority":
        yes, no = _vote([signals.kb, signals.seeker, signals.guardian])
        if yes != no:
            n = yes + no
            return Lean(Label.FACTUAL if yes > no else Label.NON_FACTUAL, max(yes, no) / n, "the majority lean")
        if signals.seeker_p is not None:
            lb = Label.FACTUAL if signals.seeker_p >= 0.5 else Label.NON_FACTUAL
            return Lean(lb, max(signals.seeker_p, 1 - signals.seeker_p), "the majority lean (a tie: the judge's side)")
        return Lean(Label.NON_FACTUAL, 0.5, "the majority lean (no source gave a label: NON-FACTUAL)")
    if policy != "calibrated":
        raise ValueError(f"unknown policy {policy!r}; choose calibrated, strict or majority")
    if calibration is None:
        raise ValueError("the calibrated policy needs a fitted calibration; run `drowzee verifier fit`")
    p = calibration.p_factual(signals)
    if p >= calibration.threshold:
        return Lean(Label.FACTUAL, p, "the calibrated lean")
    return Lean(Label.NON_FACTUAL, 1.0 - p, "the calibrated lean")


def settle(
    decision: Decision,
    decided_by: DecidedBy | None,
    decided_label: Label | None,
    lean: Lean,
    undecided: UndecidedPolicy,
    calibration: Calibration | None,
) -> tuple[Label, float]:
    """A verdict's label and confidence: a decided label with its dev accuracy, or the policy's at most 0.70."""
    if decided_label is not None:
        conf = calibration.confidence_of(decision, decided_by) if calibration is not None else MAX_UNDECIDED_CONFIDENCE
        return decided_label, conf
    p_lean = min(max(lean.confidence, 0.0), 1.0)
    p_factual = p_lean if lean.label == Label.FACTUAL else 1.0 - p_lean
    if undecided == UndecidedPolicy.LEAN:
        label = lean.label
    else:
        label = Label.FACTUAL if undecided == UndecidedPolicy.FACTUAL else Label.NON_FACTUAL
    p = p_factual if label == Label.FACTUAL else 1.0 - p_factual
    return label, min(p, MAX_UNDECIDED_CONFIDENCE)


__all__ = ["FEATURES", "Calibration", "Lean", "Signals", "decide", "settle"]
