"""Calibration of the judge's logits (Platt scaling) and its not-enough-evidence band (pure).

Fitted on OUR generated dev split only, never on evaluation data. Platt scaling maps a logit `z` to
`sigmoid(a * z + b)`. The decision threshold is the calibrated probability that maximises dev
balanced accuracy; the band is the narrowest interval around it holding `band_share` of the dev
examples, where the judge abstains (`decision=None`): those are its least certain answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.judge import Support


class Calibration(BaseModel):
    """Platt parameters, the decision threshold and the abstention band, with what they were fitted on."""

    model_config = ConfigDict(extra="forbid")

    a: float = Field(description="Platt slope on the raw logit.")
    b: float = Field(description="Platt intercept.")
    threshold: float = Field(ge=0.0, le=1.0, description="P(SUPPORTED) at or above which the answer is SUPPORTED.")
    band_low: float = Field(ge=0.0, le=1.0, description="Lower end of the not-enough-evidence band.")
    band_high: float = Field(ge=0.0, le=1.0, description="Upper end of the not-enough-evidence band.")
    fitted_on: dict[str, Any] = Field(default_factory=dict, description="Data file, fingerprint and size used.")

    def prob(self, logits: Sequence[float] | np.ndarray) -> np.ndarray:
        """Calibrated P(SUPPORTED) of raw logits."""
        z = self.a * np.asarray(logits, dtype=np.float64) + self.b
        return np.asarray(1.0 / (1.0 + np.exp(-z)), dtype=np.float64)

    def decide(self, p: float) -> Support | None:
        """SUPPORTED / NOT_SUPPORTED, or None inside the band."""
        if self.band_low < p < self.band_high:
            return None
        return Support.SUPPORTED if p >= self.threshold else Support.NOT_SUPPORTED


def fit_calibration(
    logits: Sequence[float], gold: Sequence[bool], band_share: float = 0.1, fitted_on: dict[str, Any] | None = None
) -> Calibration:
    """Fit Platt scaling, the balanced-accuracy threshold and the band on dev logits and gold labels."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import balanced_accuracy_score

    if not 0.0 <= band_share < 1.0:
        raise DrowzeeError(f"`band_share` must be in [0, 1), got {band_share}")
    z = np.asarray(logits, dtype=np.float64)
    y = np.asarray(gold, dtype=bool)
    if len(z) != len(y) or len(set(y.tolist())) < 2:
        raise DrowzeeError("calibration needs dev examples of both labels, one logit per example")
    lr = LogisticRegression(C=1e6, max_iter=1000).fit(z.reshape(-1, 1), y)
    a, b = float(lr.coef_[0, 0]), float(lr.intercept_[0])
    if a <= 0:
        raise DrowzeeError(
            f"the model's logits do not rise with support on these dev examples (Platt slope {a:.3f}): a"
            " calibration would invert it; calibrate on dev data the model separates, or train it further"
        )
    p = 1.0 / (1.0 + np.exp(-(a * z + b)))
    candidates = np.unique(p)
    scores = [balanced_accuracy_score(y, p >= t) for t in candidates]
    threshold = float(candidates[int(np.argmax(scores))])
    k = round(band_share * len(p))
    low = high = threshold
    if k > 0:
        nearest = np.sort(np.abs(p - threshold))[k - 1]
        low, high = max(0.0, threshold - nearest), min(1.0, threshold + nearest)
    return Calibration(
        a=a, b=b, threshold=threshold, band_low=float(low), band_high=float(high), fitted_on=fitted_on or {}
    )


__all__ = ["Calibration", "fit_calibration"]
