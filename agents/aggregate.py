"""Verdict arithmetic (pure): from the sources' opinions to a label and a probability.

Policies, selectable per run:
- `calibrated` (default): a Prolog proof is decisive (a refuted claim -> NON-FACTUAL; every claim
  proved -> FACTUAL); otherwise a logistic regression over the sources' signals, fitted on our
  generated dev split (`drowzee verifier fit`) and shipped as `agents/calibration.json` (the signals
  include how many of the supplied triples' answers to a "which ..." question the response names);
- `strict`: any source that says NON-FACTUAL wins; a proof is still decisive;
- `majority`: one vote per source that gave a label (KB check, Seeker, Guardian); ties go to the
  Seeker's probability, then to NON-FACTUAL.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Opinion, OpinionSource

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
    """Share of the supplied triples' answers to a "which ..." question the response names (`agents.answer_set`)."""

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
    fitted_on: dict[str, object] = Field(default_factory=dict, description="Data, counts and dev figures.")

    def p_factual(self, signals: Signals) -> float:
        """P(FACTUAL) of these signals."""
        if tuple(self.features) != FEATURES:
            raise ValueError(f"calibration features {self.features} differ from {list(FEATURES)}; refit it")
        z = self.intercept + sum(w * x for w, x in zip(self.coef, signals.vector(), strict=True))
        return 1.0 / (1.0 + math.exp(-z))


@dataclass(frozen=True, slots=True)
class Decision:
    """The Manager's label, its probability and which rule decided."""

    label: Label
    confidence: float
    rule: str


def _vote(labels: Sequence[Label | None]) -> tuple[int, int]:
    return sum(lb == Label.FACTUAL for lb in labels), sum(lb == Label.NON_FACTUAL for lb in labels)


def decide(policy: str, signals: Signals, calibration: Calibration | None) -> Decision:
    """Apply a policy. `calibrated` needs a calibration; the others ignore it."""
    if policy != "majority" and signals.kb is not None:
        return Decision(signals.kb, 1.0, "proof")
    if policy == "strict":
        labels = [signals.kb, signals.seeker, signals.guardian]
        if Label.NON_FACTUAL in labels:
            return Decision(Label.NON_FACTUAL, 1.0, "strict: a source found a conflict")
        if Label.FACTUAL in labels:
            return Decision(Label.FACTUAL, 1.0, "strict: no source found a conflict")
        return Decision(Label.NON_FACTUAL, 0.5, "strict: no source decided; unverified counts as NON-FACTUAL")
    if policy == "majority":
        yes, no = _vote([signals.kb, signals.seeker, signals.guardian])
        if yes != no:
            n = yes + no
            return Decision(Label.FACTUAL if yes > no else Label.NON_FACTUAL, max(yes, no) / n, "majority vote")
        if signals.seeker_p is not None:
            lb = Label.FACTUAL if signals.seeker_p >= 0.5 else Label.NON_FACTUAL
            return Decision(lb, max(signals.seeker_p, 1 - signals.seeker_p), "majority tie: the Seeker's judge")
        return Decision(Label.NON_FACTUAL, 0.5, "majority: no source decided; unverified counts as NON-FACTUAL")
    if policy != "calibrated":
        raise ValueError(f"unknown policy {policy!r}; choose calibrated, strict or majority")
    if calibration is None:
        raise ValueError("the calibrated policy needs a fitted calibration; run `drowzee verifier fit`")
    p = calibration.p_factual(signals)
    if p >= calibration.threshold:
        return Decision(Label.FACTUAL, p, "calibrated aggregation")
    return Decision(Label.NON_FACTUAL, 1.0 - p, "calibrated aggregation")


__all__ = ["FEATURES", "Calibration", "Decision", "Signals", "decide"]
