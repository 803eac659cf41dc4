"""Surface-cue check of judge data: whether lengths and word overlap alone tell the labels apart.

A logistic regression over length features and lexical overlap between response, query and evidence
(`cue_features`) is scored by 5-fold cross-validated balanced accuracy, with a 95 % bootstrap
interval, over all examples and, with a model fitted per recipe, within each recipe. Data that the
judge must really read scores near chance (0.5, which is also what a constant label scores).

`python -m finetune.judge.cues --data dev.jsonl [--json]` prints the report.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.judge import JudgeExample, Support

FEATURES: tuple[str, ...] = (
    "response_tokens",
    "response_chars",
    "query_tokens",
    "evidence_tokens",
    "evidence_items",
    "response_in_evidence",
    "response_in_best_item",
    "query_in_evidence",
    "response_in_query",
)
WORD = re.compile(r"\w+")


def _tokens(text: str) -> list[str]:
    return WORD.findall(text.lower())


def _share(words: Sequence[str], pool: set[str]) -> float:
    return sum(w in pool for w in words) / len(words) if words else 0.0


def cue_features(ex: JudgeExample) -> list[float]:
    """The example's surface features, in `FEATURES` order (lengths and shares of shared words)."""
    resp, query = _tokens(ex.response), _tokens(ex.query)
    items = [set(_tokens(e)) for e in ex.evidence]
    ev = set().union(*items) if items else set()
    return [
        float(len(resp)),
        float(len(ex.response)),
        float(len(query)),
        float(sum(len(_tokens(e)) for e in ex.evidence)),
        float(len(ex.evidence)),
        _share(resp, ev),
        max((_share(resp, it) for it in items), default=0.0),
        _share(query, ev),
        _share(resp, set(query)),
    ]


@dataclass(frozen=True, slots=True)
class Score:
    """A balanced accuracy with its 95 % bootstrap interval over `n` examples."""

    n: int
    balanced_accuracy: float
    ci95: tuple[float, float]


@dataclass(slots=True)
class CueReport:
    """Cross-validated balanced accuracy of the cue model, overall and per recipe, beside the baselines."""

    overall: Score
    per_recipe: dict[str, Score] = field(default_factory=dict)
    baselines: dict[str, float] = field(default_factory=dict)
    """Constant "always SUPPORTED", "always NOT_SUPPORTED" and majority: 0.5 by definition of balanced accuracy."""
    features: tuple[str, ...] = FEATURES


def _balanced_accuracy(truth: NDArray[np.int_], pred: NDArray[np.int_], axis: int = -1) -> NDArray[np.float64]:
    """Mean of the recall of each class, along `axis` (vectorized for the bootstrap's resamples)."""
    pos = truth == 1
    with np.errstate(invalid="ignore", divide="ignore"):
        tpr = (pos & (pred == 1)).sum(axis) / pos.sum(axis)
        tnr = (~pos & (pred == 0)).sum(axis) / (~pos).sum(axis)
    return np.asarray((tpr + tnr) / 2, dtype=np.float64)


def _cv_score(x: NDArray[np.float64], y: NDArray[np.int_], seed: int) -> Score:
    from scipy.stats import bootstrap
    from sklearn.linear_model import LogisticRegression
    from sklearn.metrics import balanced_accuracy_score
    from sklearn.model_selection import StratifiedKFold, cross_val_predict
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    folds = min(5, int(np.bincount(y).min()))
    if folds < 2:
        raise DrowzeeError(f"the cue check needs at least 2 examples of each label, got counts {np.bincount(y)}")
    model = make_pipeline(StandardScaler(), LogisticRegression(max_iter=1000))
    pred = cross_val_predict(model, x, y, cv=StratifiedKFold(folds, shuffle=True, random_state=seed))
    ba = float(balanced_accuracy_score(y, pred))
    res = bootstrap(
        (y, pred),
        _balanced_accuracy,
        paired=True,
        vectorized=True,
        n_resamples=1000,
        method="percentile",
        random_state=seed,
    )
    lo, hi = res.confidence_interval
    return Score(len(y), round(ba, 4), (round(float(lo), 4), round(float(hi), 4)))


def surface_cue_check(examples: Sequence[JudgeExample], seed: int = 0) -> CueReport:
    """Cross-validated balanced accuracy of a logistic regression over `cue_features`.

    Raises:
        DrowzeeError: Fewer than 2 examples of a label overall.

    """
    x = np.array([cue_features(e) for e in examples], dtype=np.float64)
    y = np.array([e.label == Support.SUPPORTED for e in examples], dtype=np.int_)
    report = CueReport(
        _cv_score(x, y, seed),
        baselines={"always_SUPPORTED": 0.5, "always_NOT_SUPPORTED": 0.5, "majority": 0.5},
    )
    recipes = sorted({e.recipe or e.source for e in examples})
    for recipe in recipes:
        idx = [i for i, e in enumerate(examples) if (e.recipe or e.source) == recipe]
        if min(np.bincount(y[idx], minlength=2)) >= 2:
            report.per_recipe[recipe] = _cv_score(x[idx], y[idx], seed)
    return report


def main(argv: Sequence[str] | None = None) -> int:
    """Print the surface-cue report of a JSONL file of `JudgeExample`s."""
    ap = argparse.ArgumentParser(prog="python -m finetune.judge.cues", description=main.__doc__)
    ap.add_argument("--data", type=Path, required=True, help="JSONL of JudgeExample records (e.g. a --split dev file).")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", action="store_true", help="Print the report as JSON.")
    args = ap.parse_args(argv)
    rows = [JudgeExample.model_validate_json(line) for line in args.data.read_text().splitlines() if line.strip()]
    report = surface_cue_check(rows, args.seed)
    if args.json:
        sys.stdout.write(json.dumps(asdict(report), indent=2) + "\n")
        return 0
    lines = [f"cue model, {len(FEATURES)} features: {', '.join(FEATURES)}"]
    lines.append(f"baselines (constant, majority): {report.baselines}")
    for name, s in [("all", report.overall), *report.per_recipe.items()]:
        lines.append(f"{name:16s} n={s.n:5d}  balanced accuracy {s.balanced_accuracy:.3f}  95% CI {s.ci95}")
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
