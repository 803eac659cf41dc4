"""Guardian figures with 95 % bootstrap intervals, beside the constant baselines (pure; no model, no files).

Input is the judged rows of `score_factchd_rows` (`parsed_label`, `gold_label`, `exp_match`). The figures
are recomputed from them with scikit-learn and resampled with `scipy.stats.bootstrap` (paired rows,
percentile intervals, 2,000 resamples, fixed seed; the resampled statistic is a vectorized restatement
checked against scikit-learn on the evaluated rows), so every figure carries the uncertainty of its small test set:

- FactCls: F1 of NON-FACTUAL under FactCHD's script rules (an unlabelled answer counts in neither
  precision nor recall; `num`/`fail` say how many there were), as in `FactCHDScore.report`;
- accuracy and macro-F1 over all rows (an unlabelled answer is wrong);
- ExpMatch: mean over rows.

Baselines answer every pair with one label: always NON-FACTUAL, always FACTUAL, and the majority gold
label of the evaluated set (ties go to NON-FACTUAL). They write no explanation, so they have no ExpMatch.
"""

from __future__ import annotations

import logging
import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field
from scipy.stats import bootstrap
from sklearn.metrics import accuracy_score, f1_score

log = logging.getLogger(__name__)

NON_FACTUAL, FACTUAL, NO_LABEL = 1, 0, -1
LABEL_CODES = {"NON-FACTUAL": NON_FACTUAL, "FACTUAL": FACTUAL}
CONFIDENCE = 0.95
N_RESAMPLES = 2000
SEED = 0
METRICS = ("factcls", "acc", "macro_f1", "exp_match")

Labels = NDArray[np.int64]


class Figure(BaseModel):
    """One figure with its 95 % bootstrap interval."""

    model_config = ConfigDict(frozen=True)

    value: float = Field(description="The figure on the evaluated rows.")
    low: float = Field(description="Lower end of the 95 % percentile-bootstrap interval.")
    high: float = Field(description="Upper end of the 95 % percentile-bootstrap interval.")

    def show(self) -> str:
        """`0.619 [0.452, 0.764]`."""
        return f"{self.value:.3f} [{self.low:.3f}, {self.high:.3f}]"


class Figures(BaseModel):
    """The figures of one model (or baseline) on one set of rows."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(description="Model or baseline name.")
    num: int = Field(description="Rows evaluated.")
    unlabelled: int = Field(description="Answers without a FACTUAL / NON-FACTUAL label (scored as failures).")
    factcls: Figure = Field(description="F1 of NON-FACTUAL, FactCHD's script rules.")
    acc: Figure = Field(description="Accuracy (unlabelled = wrong).")
    macro_f1: Figure = Field(description="Mean of the F1 of both labels (unlabelled = wrong).")
    exp_match: Figure | None = Field(description="Mean ExpMatch; None for a baseline, which writes no explanation.")


def codes(rows: Sequence[dict[str, Any]], field: str) -> Labels:
    """Labels of `field` as codes: NON-FACTUAL 1, FACTUAL 0, none -1."""
    return np.array([LABEL_CODES.get(str(r.get(field)), NO_LABEL) for r in rows], dtype=np.int64)


def factcls(pred: Labels, gold: Labels) -> float:
    """F1 of NON-FACTUAL over the labelled answers (FactCHD's script: unlabelled ones are left out)."""
    labelled = pred != NO_LABEL
    return float(f1_score(gold[labelled], pred[labelled], pos_label=NON_FACTUAL, labels=[NON_FACTUAL], zero_division=0))


def accuracy(pred: Labels, gold: Labels) -> float:
    """Share of answers whose label is the gold label."""
    return float(accuracy_score(gold, pred))


def macro_f1(pred: Labels, gold: Labels) -> float:
    """Mean F1 of NON-FACTUAL and FACTUAL; an unlabelled answer is a miss for its gold label."""
    return float(f1_score(gold, pred, labels=[NON_FACTUAL, FACTUAL], average="macro", zero_division=0))


def _f1(tp: NDArray[Any], fp: NDArray[Any], fn: NDArray[Any]) -> NDArray[np.float64]:
    den = 2 * tp + fp + fn
    return np.where(den > 0, 2 * tp / np.maximum(den, 1), 0.0)


def label_figures(pred: NDArray[Any], gold: NDArray[Any], axis: int = -1) -> NDArray[np.float64]:
    """(FactCls, accuracy, macro-F1) along `axis`, vectorized for the bootstrap's resamples.

    The same definitions as `factcls`, `accuracy` and `macro_f1` (scikit-learn); `figures` checks that
    they agree on the evaluated rows before trusting the resamples.
    """
    pos_p, pos_g = pred == NON_FACTUAL, gold == NON_FACTUAL
    neg_p, neg_g = pred == FACTUAL, gold == FACTUAL
    tp = (pos_p & pos_g).sum(axis)
    # FactCHD's script: false negatives are NON-FACTUAL pairs answered FACTUAL (unlabelled ones left out)
    fact = _f1(tp, (pos_p & neg_g).sum(axis), (neg_p & pos_g).sum(axis))
    acc = (pred == gold).mean(axis)
    f1_pos = _f1(tp, (pos_p & ~pos_g).sum(axis), (~pos_p & pos_g).sum(axis))
    f1_neg = _f1((neg_p & neg_g).sum(axis), (neg_p & ~neg_g).sum(axis), (~neg_p & neg_g).sum(axis))
    return np.stack([fact, acc, (f1_pos + f1_neg) / 2])


def _mean(x: NDArray[np.float64], axis: int = -1) -> NDArray[np.float64]:
    return np.asarray(np.mean(x, axis=axis))


def bootstrap_bounds(
    data: tuple[NDArray[Any], ...], statistic: Callable[..., NDArray[np.float64]]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Percentile-bootstrap 95 % bounds (low, high) of each output of a vectorized, paired statistic.

    A bound is NaN where every resample gave the same value; callers decide what that means.
    """
    with warnings.catch_warnings():
        # scipy warns when every resample gives the same value (e.g. a model that never labels)
        warnings.simplefilter("ignore", category=RuntimeWarning)
        res = bootstrap(
            data,
            statistic,
            paired=True,
            vectorized=True,
            n_resamples=N_RESAMPLES,
            confidence_level=CONFIDENCE,
            method="percentile",
            rng=np.random.default_rng(SEED),
        )
    return np.atleast_1d(res.confidence_interval.low), np.atleast_1d(res.confidence_interval.high)


def _intervals(
    data: tuple[NDArray[Any], ...], statistic: Callable[..., NDArray[np.float64]]
) -> list[tuple[float, float]]:
    """Percentile-bootstrap 95 % intervals of each output of a vectorized, paired statistic."""
    low, high = bootstrap_bounds(data, statistic)
    if np.isnan(low).any() or np.isnan(high).any():
        raise ValueError(f"bootstrap gave no interval for {statistic.__name__}")
    return [(round(float(lo), 5), round(float(hi), 5)) for lo, hi in zip(low, high, strict=True)]


def figures(name: str, pred: Labels, gold: Labels, exp: NDArray[np.float64] | None) -> Figures:
    """All figures of one prediction vector against the gold labels, each with its interval."""
    if len(pred) != len(gold) or len(gold) < 2:
        raise ValueError(f"need at least 2 rows and as many predictions as gold labels, got {len(pred)}/{len(gold)}")
    values = [factcls(pred, gold), accuracy(pred, gold), macro_f1(pred, gold)]
    if not np.allclose(label_figures(pred, gold), values):
        raise AssertionError(f"vectorized figures {label_figures(pred, gold)} differ from scikit-learn's {values}")
    ci = _intervals((pred, gold), label_figures)
    fig = [Figure(value=round(v, 5), low=lo, high=hi) for v, (lo, hi) in zip(values, ci, strict=True)]
    exp_fig = None
    if exp is not None:
        ((lo, hi),) = _intervals((exp,), _mean)
        exp_fig = Figure(value=round(float(exp.mean()), 5), low=lo, high=hi)
    return Figures(
        name=name,
        num=len(gold),
        unlabelled=int((pred == NO_LABEL).sum()),
        factcls=fig[0],
        acc=fig[1],
        macro_f1=fig[2],
        exp_match=exp_fig,
    )


def majority(gold: Labels) -> int:
    """The majority gold label (ties go to NON-FACTUAL)."""
    return NON_FACTUAL if (gold == NON_FACTUAL).sum() * 2 >= len(gold) else FACTUAL


def baselines(gold: Labels) -> list[Figures]:
    """Always NON-FACTUAL, always FACTUAL, and the majority label, on the same rows."""
    maj = majority(gold)
    named = [
        ("always NON-FACTUAL", NON_FACTUAL),
        ("always FACTUAL", FACTUAL),
        (f"majority ({'NON-FACTUAL' if maj == NON_FACTUAL else 'FACTUAL'})", maj),
    ]
    return [figures(n, np.full(len(gold), label, dtype=np.int64), gold, None) for n, label in named]


def evaluate_rows(name: str, rows: Sequence[dict[str, Any]]) -> tuple[Figures, list[Figures]]:
    """The model's figures and the baselines' on judged rows (`parsed_label`, `gold_label`, `exp_match`)."""
    gold = codes(rows, "gold_label")
    if (gold == NO_LABEL).any():
        raise ValueError("every judged row needs a gold_label of FACTUAL or NON-FACTUAL")
    exp = np.array([float(r["exp_match"]) for r in rows], dtype=np.float64)
    return figures(name, codes(rows, "parsed_label"), gold, exp), baselines(gold)


def table(rows: Sequence[Figures]) -> str:
    """A Markdown table: model | FactCls [CI] | acc [CI] | macro-F1 [CI] | ExpMatch [CI] | no label."""
    lines = [
        "| model | FactCls [95% CI] | acc [95% CI] | macro-F1 [95% CI] | ExpMatch [95% CI] | no label |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for f in rows:
        exp = f.exp_match.show() if f.exp_match else "-"
        lines.append(
            f"| {f.name} | {f.factcls.show()} | {f.acc.show()} | {f.macro_f1.show()} | {exp} | {f.unlabelled}/{f.num} |"
        )
    return "\n".join(lines)
