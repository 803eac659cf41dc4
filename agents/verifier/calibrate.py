"""Fit and measure the Verdict Manager on dev-mix runs (pure: runs in, calibration and figures out).

Fitting, on the `fit` half only:
1. the judge's trusted threshold: the lowest claim-level P(supported) at which the pairs it would
   call supported are FACTUAL with a 95 % Wilson lower bound of at least `JUDGE_PRECISION`, on at
   least `MIN_DECIDED` pairs; none reaches it -> the judge decides nothing; likewise its rejection
   threshold: the highest P(supported) below which the pairs with supplied evidence it would call
   unsupported are NON-FACTUAL with that bound (`judge_reject_threshold`);
2. each source's reliability: the balanced accuracy of its own label; a source whose 95 % bootstrap
   interval reaches down to 0.5 (its constant baseline) is not counted in the lean;
3. the lean: a logistic regression over the counted sources' signals on the pairs nothing decided;
4. the confidence of each kind of decided verdict (`decision:decided_by`): its accuracy, smoothed
   (Laplace), so a proof that links the wrong entity on real text is not shown as certain.
Reporting, on the `check` half: coverage, accuracy on decided rows and overall, the constant
baselines, 95 % intervals, per source; the reliability table and ECE of the confidences.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from agents.verifier.aggregation import FEATURES, Calibration, decide, settle
from agents.verifier.decision import Assessment, label_of
from agents.verifier.fit import ManagerRun
from drowzee_core.oracles.decisions import decision_figures
from drowzee_core.oracles.stats import bootstrap_bounds
from drowzee_core.records.enums import Label
from drowzee_core.records.summaries import JudgedLabel
from drowzee_core.records.verdict import MAX_UNDECIDED_CONFIDENCE, DecidedBy, Decision, UndecidedPolicy

JUDGE_PRECISION = 0.85
"""Lowest 95 % Wilson bound on the precision of judge-supported pairs for the judge to decide."""
MIN_DECIDED = 20
"""Fewest pairs a judge threshold must decide on the fit half to be trusted."""
MIN_PER_LABEL = 10
"""Fewest undecided pairs of each label for the lean to be fitted on undecided pairs only."""
BINS = 10


def wilson_low(k: int, n: int, z: float = 1.96) -> float:
    """Lower bound of the Wilson score interval of k successes in n trials."""
    if n == 0:
        return 0.0
    p = k / n
    centre = p + z * z / (2 * n)
    margin = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (centre - margin) / (1 + z * z / n)


def judge_threshold(runs: Sequence[ManagerRun]) -> tuple[float | None, dict[str, object]]:
    """The lowest trusted judge threshold (module docstring), and what was found at the best one tried."""
    open_ = [r for r in runs if r.assessment(None).decision in (Decision.UNDECIDED, Decision.UNSUPPORTED)]
    gates = []
    for r in open_:
        ps = [c.p_supported for c in r.claims if c.status.value == "unknown" and c.kind != "set"]
        if ps and all(p is not None for p in ps):
            gates.append((min(p for p in ps if p is not None), r.gold == Label.FACTUAL))
    return _trusted(gates, rejects=False)


def _assessed(run: ManagerRun, cal: Calibration) -> Assessment:
    """The run's decision with the judge trusted at the calibration's thresholds."""
    return run.assessment(cal.judge_threshold, cal.judge_reject_threshold)


def judge_reject_threshold(
    runs: Sequence[ManagerRun], support_threshold: float | None
) -> tuple[float | None, dict[str, object]]:
    """The highest trusted rejection threshold (module docstring), and what was found at the best one tried.

    A candidate is a pair with supplied evidence left undecided once the judge supports at
    `support_threshold`; at threshold t, the judge makes it unsupported when one of its open claims
    scores below t.
    """
    gates = []
    for r in runs:
        if not r.supplied or r.assessment(support_threshold).decision != Decision.UNDECIDED:
            continue
        ps = [c.p_supported for c in r.claims if c.status.value == "unknown" and c.kind != "set" and not c.unsupported]
        if ps and all(p is not None for p in ps):
            gates.append((min(p for p in ps if p is not None), r.gold == Label.NON_FACTUAL))
    return _trusted(gates, rejects=True)


def _trusted(gates: Sequence[tuple[float, bool]], rejects: bool) -> tuple[float | None, dict[str, object]]:
    """The threshold deciding the most pairs whose decided pairs are right with the trusted bound (or None).

    `gates` are (a pair's gating P(supported), whether deciding it is right). Supporting decides the
    pairs at or above t (lowest t first); rejecting those below t (highest t first).
    """
    best: dict[str, object] = {"candidates": len(gates)}
    for t in sorted({g for g, _ in gates}, reverse=rejects):
        kept = [ok for g, ok in gates if (g < t if rejects else g >= t)]
        if len(kept) < MIN_DECIDED:
            break
        low = wilson_low(sum(kept), len(kept))
        if low >= JUDGE_PRECISION:
            return t, best | {"threshold": t, "decided": len(kept), "precision": sum(kept) / len(kept), "low": low}
        if low > float(str(best.get("low", 0.0))):
            best = best | {"best_tried": t, "decided": len(kept), "precision": sum(kept) / len(kept), "low": low}
    return None, best


def _bacc_vec(pred: np.ndarray, gold: np.ndarray, axis: int = -1) -> np.ndarray:
    pos, neg = gold == 1, gold == 0
    tpr = ((pred == 1) & pos).sum(axis=axis) / np.maximum(pos.sum(axis=axis), 1)
    tnr = ((pred == 0) & neg).sum(axis=axis) / np.maximum(neg.sum(axis=axis), 1)
    return np.asarray((tpr + tnr) / 2, dtype=np.float64)


def source_reliability(runs: Sequence[ManagerRun], source: str) -> tuple[float, float, float, int]:
    """Balanced accuracy of a source's own label (`seeker` or `guardian`) with its 95 % interval, and n."""
    pairs = [
        (r.seeker_label if source == "seeker" else r.guardian_label, r.gold)
        for r in runs
        if (r.seeker_label if source == "seeker" else r.guardian_label) is not None
    ]
    if len(pairs) < 2:
        return 0.5, 0.0, 1.0, len(pairs)
    pred = np.array([p == Label.FACTUAL for p, _ in pairs], dtype=np.int64)
    gold = np.array([g == Label.FACTUAL for _, g in pairs], dtype=np.int64)
    value = float(_bacc_vec(pred, gold))
    low, high = bootstrap_bounds((pred, gold), _bacc_vec)
    return value, float(np.nan_to_num(low[0], nan=value)), float(np.nan_to_num(high[0], nan=value)), len(pairs)


def fit_lean(runs: Sequence[ManagerRun], cal: Calibration, c: float = 1.0) -> tuple[list[float], float, str]:
    """The lean's weights and intercept on the pairs nothing decided (all open pairs when too few)."""
    from sklearn.linear_model import LogisticRegression

    und = [r for r in runs if _assessed(r, cal).decision == Decision.UNDECIDED]
    subset = "undecided"
    golds = [r.gold == Label.FACTUAL for r in und]
    if min(sum(golds), len(golds) - sum(golds)) < MIN_PER_LABEL:
        und = [r for r in runs if label_of(_assessed(r, cal).decision) != Label.FACTUAL]
        subset = "undecided and unsupported (too few undecided of a label)"
    x = np.array([cal.weighed(r.signals()).vector() for r in und], dtype=np.float64)
    y = np.array([r.gold == Label.FACTUAL for r in und], dtype=np.int64)
    if len(set(y.tolist())) < 2:
        return [0.0] * len(FEATURES), 0.0, f"{subset}: one label only, no lean"
    model = LogisticRegression(C=c, max_iter=1000).fit(x, y)
    return [round(float(w), 6) for w in model.coef_[0]], round(float(model.intercept_[0]), 6), f"{subset} ({len(y)})"


@dataclass(frozen=True, slots=True)
class Outcome:
    """One run's verdict under a calibration: decision, label, confidence, and whether it was right."""

    decision: Decision
    decided_by: DecidedBy | None
    label: Label
    confidence: float
    correct: bool


def outcome(run: ManagerRun, cal: Calibration, undecided: UndecidedPolicy = UndecidedPolicy.LEAN) -> Outcome:
    """The verdict the Manager gives this run (the same arithmetic as the verdict_manager node)."""
    a = _assessed(run, cal)
    lean = decide("calibrated", run.signals(), cal)
    label, conf = settle(a.decision, a.decided_by, label_of(a.decision), lean, undecided, cal)
    return Outcome(a.decision, a.decided_by, label, conf, label == run.gold)


def old_outcome(run: ManagerRun, old: Calibration) -> Outcome:
    """The verdict the earlier Manager gave (a proof decisive at 1.0, else its calibrated regression)."""
    d = decide("calibrated", run.signals(), old)
    if d.rule != "proof":
        return Outcome(Decision.UNDECIDED, None, d.label, d.confidence, d.label == run.gold)
    decision = Decision.SUPPORTED if d.label == Label.FACTUAL else Decision.REFUTED
    return Outcome(decision, DecidedBy.PROOF, d.label, d.confidence, d.label == run.gold)


def confidence_table(runs: Sequence[ManagerRun], cal: Calibration) -> dict[str, float]:
    """Smoothed accuracy of each kind of decided verdict (`decision:decided_by`) and of each decision."""
    groups: dict[str, list[bool]] = {}
    for r in runs:
        a = _assessed(r, cal)
        lb = label_of(a.decision)
        if lb is None:
            continue
        ok = lb == r.gold
        groups.setdefault(f"{a.decision}:{a.decided_by}", []).append(ok)
        groups.setdefault(str(a.decision), []).append(ok)
    return {k: round((sum(v) + 1) / (len(v) + 2), 4) for k, v in sorted(groups.items())}


def fit_manager(runs: Sequence[ManagerRun], source: dict[str, object]) -> Calibration:
    """The Manager's calibration from the `fit` half of the runs (module docstring)."""
    fit = [r for r in runs if r.half == "fit"]
    if not fit:
        raise ValueError("no run of the fit half; build the mix with `drowzee verifier mix`")
    threshold, judge_info = judge_threshold(fit)
    reject, reject_info = judge_reject_threshold(fit, threshold)
    reliability, counted = {}, {}
    for name in ("seeker", "guardian"):
        value, low, _, n = source_reliability(fit, name)
        if n:
            reliability[name] = round(value, 4)
            counted[name] = low > 0.5
    cal = Calibration(
        features=list(FEATURES),
        coef=[0.0] * len(FEATURES),
        intercept=0.0,
        judge_threshold=threshold,
        judge_reject_threshold=reject,
        counted=counted,
        reliability=reliability,
    )
    coef, intercept, subset = fit_lean(fit, cal)
    cal = cal.model_copy(update={"coef": coef, "intercept": intercept})
    return cal.model_copy(
        update={
            "confidence": confidence_table(fit, cal),
            "fitted_on": source
            | {"runs": len(runs), "fit_runs": len(fit), "lean_rows": subset}
            | {"judge": judge_info, "judge_reject": reject_info},
        }
    )


def carried(cal: Calibration, earlier: Calibration, name: str, why: str) -> Calibration:
    """`cal` with one source's dev reliability and counting taken from an `earlier` calibration.

    For a source whose runs were not redone (the Guardian on CPU: hours for the mix) while its model
    and the mix's items are unchanged. The carry is recorded in `fitted_on`; a source these runs
    measured is never overwritten.
    """
    if name in cal.reliability:
        raise ValueError(f"these runs measured the {name}; nothing to carry")
    if name not in earlier.reliability:
        raise ValueError(f"the earlier calibration did not measure the {name}")
    reliability = cal.reliability | {name: earlier.reliability[name]}
    counted = cal.counted | {name: earlier.counts(name)}
    note = {"reliability": earlier.reliability[name], "counted": earlier.counts(name), "why": why}
    fitted_on = cal.fitted_on | {f"{name}_carried": note | {"from": earlier.fitted_on.get(f"{name}_runs")}}
    return cal.model_copy(update={"reliability": reliability, "counted": counted, "fitted_on": fitted_on})


def reliability_table(outcomes: Sequence[Outcome], bins: int = BINS) -> list[dict[str, float]]:
    """Confidence bins over [0.5, 1]: rows, mean confidence and accuracy per non-empty bin."""
    out = []
    for b in range(bins):
        lo, hi = 0.5 + 0.5 * b / bins, 0.5 + 0.5 * (b + 1) / bins
        inside = [o for o in outcomes if lo <= o.confidence < hi or (b == bins - 1 and o.confidence == hi)]
        if inside:
            out.append(
                {
                    "low": round(lo, 3),
                    "high": round(hi, 3),
                    "rows": len(inside),
                    "confidence": round(sum(o.confidence for o in inside) / len(inside), 4),
                    "accuracy": round(sum(o.correct for o in inside) / len(inside), 4),
                }
            )
    return out


def ece(outcomes: Sequence[Outcome]) -> float:
    """Expected calibration error of the confidences (equal-width bins over [0.5, 1])."""
    n = len(outcomes)
    return (
        round(sum(r["rows"] / n * abs(r["accuracy"] - r["confidence"]) for r in reliability_table(outcomes)), 4)
        if n
        else 0.0
    )


def figures(runs: Sequence[ManagerRun], verdict: Callable[[ManagerRun], Outcome]) -> dict[str, Any]:
    """Per-decision figures (`drowzee_core.oracles.decisions`), the undecided cap held, ECE and reliability."""
    outs = [verdict(r) for r in runs]
    rows = [
        JudgedLabel(gold_label=str(r.gold), parsed_label=str(o.label), decision=str(o.decision))
        for r, o in zip(runs, outs, strict=True)
    ]
    undecided = [o.confidence for o in outs if o.decision == Decision.UNDECIDED]
    return decision_figures(rows).model_dump() | {
        "max_undecided_confidence": max(undecided, default=None),
        "ece": ece(outs),
        "reliability": reliability_table(outs),
    }


def report(runs: Sequence[ManagerRun], cal: Calibration, old: Calibration | None = None) -> dict[str, Any]:
    """Figures of the `check` half, overall and per source (and the earlier Manager's, when given)."""
    check = [r for r in runs if r.half == "check"]
    groups: dict[str, list[ManagerRun]] = {"all": check}
    for r in check:
        groups.setdefault(f"{r.source}, {'with' if r.supplied else 'no'} evidence", []).append(r)
    table: dict[str, dict[str, Any]] = {}
    for name, rows in sorted(groups.items()):
        table[name] = {"now": figures(rows, lambda r: outcome(r, cal))}
        if old is not None:
            table[name]["before"] = figures(rows, partial(old_outcome, old=old))
    return {"half": "check", "undecided_cap": MAX_UNDECIDED_CONFIDENCE, "groups": table}


__all__ = [
    "JUDGE_PRECISION",
    "Outcome",
    "carried",
    "confidence_table",
    "ece",
    "figures",
    "fit_lean",
    "fit_manager",
    "judge_reject_threshold",
    "judge_threshold",
    "old_outcome",
    "outcome",
    "reliability_table",
    "report",
    "source_reliability",
    "wilson_low",
]
