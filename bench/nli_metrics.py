"""Evidence windows and the figures of `bench/nli_cross_encoder.py`, on the standard library alone.

They run on the device image, which lacks the project's own dependencies (so `finetune.judge.evaluate`
cannot be imported there): balanced accuracy, its bootstrap 95 % interval, AUC, and the
three-sentence windows of a pair's evidence.
"""

from __future__ import annotations

import random
import re
from typing import Any

WINDOW_SENTENCES = 3


def sentences(evidence: Any) -> list[str]:
    items = evidence if isinstance(evidence, list) else [evidence]
    out: list[str] = []
    for item in items:
        text = " ".join(str(x) for x in item) if isinstance(item, list) else str(item)
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+", text) if s.strip()]
    return out or [""]


def windows(evidence: Any) -> list[str]:
    """Windows of three consecutive sentences of a pair's evidence (the whole of a shorter one)."""
    sents = sentences(evidence)
    if len(sents) <= WINDOW_SENTENCES:
        return [" ".join(sents)]
    return [" ".join(sents[i : i + WINDOW_SENTENCES]) for i in range(0, len(sents) - WINDOW_SENTENCES + 1)]


def bacc(gold: list[int], pred: list[int]) -> float:
    """Balanced accuracy (the mean of the per-class recalls)."""
    rates = []
    for c in (0, 1):
        idx = [i for i, g in enumerate(gold) if g == c]
        if idx:
            rates.append(sum(pred[i] == c for i in idx) / len(idx))
    return sum(rates) / len(rates)


def interval(gold: list[int], pred: list[int], seed: int = 0, n: int = 2000) -> list[float]:
    """Bootstrap 95 % interval of the balanced accuracy (percentile, resamples with both classes)."""
    rng = random.Random(seed)
    k = len(gold)
    stats = []
    for _ in range(n):
        pick = [rng.randrange(k) for _ in range(k)]
        g, p = [gold[i] for i in pick], [pred[i] for i in pick]
        if len(set(g)) == 2:
            stats.append(bacc(g, p))
    stats.sort()
    if not stats:
        return [float("nan"), float("nan")]
    return [round(stats[int(0.025 * len(stats))], 3), round(stats[int(0.975 * len(stats)) - 1], 3)]


def auc(gold: list[int], score: list[float]) -> float:
    """Area under the ROC curve: the chance a FACTUAL pair scores above a NON-FACTUAL one."""
    pos = [s for g, s in zip(gold, score, strict=True) if g == 1]
    neg = [s for g, s in zip(gold, score, strict=True) if g == 0]
    if not pos or not neg:
        return float("nan")
    wins = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    return wins / (len(pos) * len(neg))


__all__ = ["auc", "bacc", "interval", "windows"]
