"""Read judge inputs from any of our formats, and measure the judge with baselines and 95 % intervals.

Readers accept JudgeExample files (`label` SUPPORTED / NOT_SUPPORTED), QRPair files and the external
JSONL of `../shared/data/peers/external/` (`label` FACTUAL / NON-FACTUAL: FACTUAL counts as supported).
Metrics are pure: balanced accuracy (scikit-learn) with a bootstrap 95 % interval (SciPy, paired,
seeded), beside the constant baselines (always one label, the majority label).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from drowzee_core.errors import DrowzeeError

SUPPORTED_LABELS = {"SUPPORTED": True, "FACTUAL": True, "NOT_SUPPORTED": False, "NON-FACTUAL": False}


@dataclass(frozen=True)
class JudgeInput:
    """One row to judge: its id, texts, evidence and gold (None when the file has no label)."""

    id: str
    query: str
    response: str
    evidence: Any
    gold: bool | None
    row: dict[str, Any]


def to_inputs(rows: Sequence[dict[str, Any]], evidence_field: str = "evidence", where: str = "") -> list[JudgeInput]:
    """JudgeInputs from JudgeExample, QRPair or external rows (checked: a response and evidence present)."""
    out = []
    for i, row in enumerate(rows, 1):
        if not str(row.get("response") or "").strip():
            raise DrowzeeError(f"{where} row {i}: no `response`; the file must hold judge examples or pairs")
        if evidence_field not in row:
            raise DrowzeeError(f"{where} row {i}: no `{evidence_field}` field; name the evidence with --evidence-field")
        label = row.get("label")
        if label is not None and label not in SUPPORTED_LABELS:
            raise DrowzeeError(f"{where} row {i}: label must be one of {sorted(SUPPORTED_LABELS)}, got {label!r}")
        gold = SUPPORTED_LABELS[label] if label is not None else None
        out.append(
            JudgeInput(
                str(row.get("id", i)), str(row.get("query") or ""), str(row["response"]), row[evidence_field], gold, row
            )
        )
    return out


def read_inputs(path: Path, evidence_field: str = "evidence", limit: int | None = None) -> list[JudgeInput]:
    """The rows of a JSONL file as JudgeInputs; a `drowzee benchmark` run folder gives its answers.

    A run folder's rows are `finetune.loop_data.loop_judge_examples`: its confirmed hallucinations and
    as many right answers, each with its case's ground-truth facts as the evidence.
    """
    from drowzee_core.oracles.inputs import read_rows

    if path.is_dir():
        from finetune.loop_data import loop_judge_examples

        examples, _record = loop_judge_examples(path)
        return to_inputs([e.model_dump(mode="json") for e in examples[:limit]], "evidence", str(path))
    rows = read_rows(path)[:limit]
    if not rows:
        raise DrowzeeError(f"{path} has no rows")
    return to_inputs(rows, evidence_field, str(path))


def balanced_accuracy_ci(
    gold: Sequence[bool] | np.ndarray, pred: Sequence[bool] | np.ndarray, seed: int = 0, resamples: int = 1000
) -> tuple[float, float | None, float | None]:
    """Balanced accuracy and its bootstrap 95 % interval (None when a resample cannot be scored)."""
    from scipy.stats import bootstrap
    from sklearn.metrics import balanced_accuracy_score

    y, p = np.asarray(gold, dtype=bool), np.asarray(pred, dtype=bool)
    value = float(balanced_accuracy_score(y, p)) if len(set(y.tolist())) > 1 else float(np.mean(y == p))
    if len(y) < 10:
        return value, None, None

    def stat(a: np.ndarray, b: np.ndarray) -> float:
        return float(balanced_accuracy_score(a, b)) if a.any() and not a.all() else float(np.mean(a == b))

    res = bootstrap(
        (y, p), stat, paired=True, vectorized=False, n_resamples=resamples, method="percentile", random_state=seed
    )
    return value, float(res.confidence_interval.low), float(res.confidence_interval.high)


def summarize(gold: Sequence[bool], p: Sequence[float], threshold: float, decided: Sequence[bool]) -> dict[str, Any]:
    """The judge's figures on one set, beside the constant baselines."""
    y = np.asarray(gold, dtype=bool)
    pred = np.asarray(p, dtype=np.float64) >= threshold
    bacc, low, high = balanced_accuracy_ci(y, pred)
    mask = np.asarray(decided, dtype=bool)
    kept = balanced_accuracy_ci(y[mask], pred[mask])[0] if mask.any() else None
    n_sup = int(y.sum())
    majority = n_sup >= len(y) - n_sup
    return {
        "n": len(y),
        "supported": n_sup,
        "not_supported": len(y) - n_sup,
        "balanced_accuracy": round(bacc, 4),
        "ci95": [round(low, 4), round(high, 4)] if low is not None and high is not None else None,
        "accuracy": round(float(np.mean(pred == y)), 4),
        "coverage": round(float(mask.mean()), 4),
        "balanced_accuracy_decided": None if kept is None else round(kept, 4),
        "baselines": {
            "always_supported": {"accuracy": round(n_sup / len(y), 4), "balanced_accuracy": 0.5},
            "always_not_supported": {"accuracy": round(1 - n_sup / len(y), 4), "balanced_accuracy": 0.5},
            "majority": {
                "label": "SUPPORTED" if majority else "NOT_SUPPORTED",
                "accuracy": round(max(n_sup, len(y) - n_sup) / len(y), 4),
                "balanced_accuracy": 0.5,
            },
        },
    }


def length_matched(
    inputs: Sequence[JudgeInput], p: Sequence[float], threshold: float, max_gap: int = 1
) -> dict[str, Any]:
    """HaluEval-style pairs (one supported, one not, same query) whose responses differ by <= `max_gap` words.

    A length rule (the longer answer is the hallucination) scores ~93 % on all HaluEval-QA pairs; on
    these pairs it cannot. Reports the judge's balanced accuracy there, its pairwise accuracy (the
    supported answer scored higher) and the length rule's pairwise accuracy on the same pairs.
    """
    groups: dict[str, dict[bool, int]] = defaultdict(dict)
    for i, inp in enumerate(inputs):
        if inp.gold is not None:
            groups[inp.query][inp.gold] = i
    pairs = [(g[True], g[False]) for g in groups.values() if len(g) == 2]
    words = [len(inp.response.split()) for inp in inputs]
    matched = [(s, n) for s, n in pairs if abs(words[s] - words[n]) <= max_gap]
    if not matched:
        return {"pairs": len(pairs), "matched_pairs": 0}
    rows = [i for pair in matched for i in pair]
    gold = [bool(inputs[i].gold) for i in rows]
    bacc, low, high = balanced_accuracy_ci(gold, [p[i] >= threshold for i in rows])
    length_rule = np.mean([1.0 if words[n] > words[s] else 0.5 if words[n] == words[s] else 0.0 for s, n in matched])
    return {
        "pairs": len(pairs),
        "matched_pairs": len(matched),
        "max_word_gap": max_gap,
        "balanced_accuracy": round(bacc, 4),
        "ci95": [round(low, 4), round(high, 4)] if low is not None and high is not None else None,
        "pairwise_accuracy": round(float(np.mean([p[s] > p[n] for s, n in matched])), 4),
        "length_rule_pairwise_accuracy": round(float(length_rule), 4),
    }


__all__ = ["JudgeInput", "balanced_accuracy_ci", "length_matched", "read_inputs", "summarize", "to_inputs"]
