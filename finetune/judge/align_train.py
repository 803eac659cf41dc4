"""Fit the alignment judge (model (c)): features of the training mix -> perceptron; calibrate on dev; export.

`fit_align(train, config)` encodes every training example once with the frozen MiniLM (the whole
response against all its evidence, as the serving path does with `split_claims` off and evidence that
fits one window), fits the perceptron (sklearn, seeded, early stopping on a held-out tenth of the
training rows, never on dev) and returns the model. `export_align` writes `align_weights.json` and the
manifest; the calibration and the dev figures come from `finetune.judge.export.calibrate_on_dev`,
through the serving path, on our generated dev split only.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.judge.align import WEIGHTS, AlignJudgeModel, Encoder, Perceptron, make_pair, pair_features
from drowzee_core.llm.judge.align_features import FEATURES
from drowzee_core.llm.judge.calibrate import Calibration
from drowzee_core.llm.judge.chunk import evidence_sentences
from drowzee_core.records.judge import JudgeExample, Support
from drowzee_core.records.provenance import atomic_write_text
from finetune.judge.export import write_manifest


@dataclass(frozen=True)
class AlignTrainConfig:
    """The alignment judge's settings (validated at construction)."""

    hidden: tuple[int, ...] = (64, 32)
    max_length: int = 512
    split_claims: bool = False
    band_share: float = 0.1
    seed: int = 0
    batch: int = 256

    def __post_init__(self) -> None:
        if not self.hidden or any(not 1 <= h <= 1024 for h in self.hidden):
            raise DrowzeeError(f"`hidden` must be 1-3 layer sizes in [1, 1024], got {self.hidden}")
        if len(self.hidden) > 3:
            raise DrowzeeError(f"`hidden` has at most 3 layers, got {len(self.hidden)}")
        if not 64 <= self.max_length <= 2048:
            raise DrowzeeError(f"`max_length` must be in [64, 2048] word pieces, got {self.max_length}")


@dataclass
class AlignTrainResult:
    """What a fit did."""

    examples: int
    seconds: float
    examples_per_second: float
    train_balanced_accuracy: float


def fit_align(
    train: Sequence[JudgeExample], config: AlignTrainConfig, on_progress: Callable[[int], None] | None = None
) -> tuple[AlignJudgeModel, AlignTrainResult]:
    """Encode the training examples, fit the perceptron, return the model and the fit's figures."""
    from sklearn.metrics import balanced_accuracy_score

    if len(train) < 10 or len({ex.label for ex in train}) < 2:
        raise DrowzeeError("fitting the alignment judge needs at least 10 examples with both labels")
    enc = Encoder()
    t0 = time.monotonic()
    parts = []
    for start in range(0, len(train), config.batch):
        part = train[start : start + config.batch]
        pairs = [make_pair(ex.query, ex.response, evidence_sentences(ex.evidence)) for ex in part]
        parts.append(pair_features(enc, pairs))
        if on_progress:
            on_progress(start + len(part))
    x = np.concatenate(parts)
    y = np.array([ex.label == Support.SUPPORTED for ex in train], dtype=np.int_)
    perceptron = Perceptron.fit(x, y, config.hidden, config.seed)
    seconds = time.monotonic() - t0
    fitted = balanced_accuracy_score(y, perceptron.logits(x) > 0)
    model = AlignJudgeModel(perceptron, enc, config.max_length, config.split_claims)
    result = AlignTrainResult(
        len(train), round(seconds, 1), round(len(train) / max(seconds, 1e-9), 2), round(float(fitted), 4)
    )
    return model, result


def export_align(
    model: AlignJudgeModel,
    out: Path,
    config: AlignTrainConfig,
    result: AlignTrainResult,
    calibration: Calibration,
    data: dict[str, Any],
    metrics: dict[str, Any],
) -> Path:
    """Write `out/align_weights.json` and the manifest; returns the manifest path."""
    out.mkdir(parents=True, exist_ok=True)
    atomic_write_text(out / WEIGHTS, json.dumps(model.perceptron.to_json()) + "\n")
    fields = {
        "max_length": config.max_length,
        "split_claims": config.split_claims,
        "features": list(FEATURES),
        "data": data,
        "config": json.loads(json.dumps(asdict(config))),
        "training": asdict(result),
        "calibration": calibration.model_dump(),
        "metrics": metrics,
    }
    return write_manifest(out, "align", WEIGHTS, fields)


__all__ = ["AlignTrainConfig", "AlignTrainResult", "export_align", "fit_align"]
