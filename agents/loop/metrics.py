"""Verifier-vs-oracle metrics of the closed loop (pure: rows in, figures out; no files, no models).

The oracle says which of the target's answers are hallucinations (`hallucinated`); the verifier
*detects* one when its verdict is NON-FACTUAL (`flagged`). Over the rows that have both:

- detection precision, recall and F1 of hallucinated answers, and accuracy (agreement with the oracle),
  each with a 95 % percentile-bootstrap interval (paired rows; the resampling constants of
  `drowzee_core.oracles.stats`), beside the constant baselines on the same rows: always flag, never flag and the
  majority oracle label (ties go to "flag"). Precision is 0 when nothing is flagged and recall 0 when
  nothing is a hallucination (scikit-learn's `zero_division=0`);
- the target's hallucination rate with its interval;
- overall and per model, domain, rule family and temporal operator;
- the graph oracle on the verdicts' explanations: mean node / edge similarity to the case's facts, and
  how often both reach the match threshold ("cites the decisive facts"), over all rows and over the
  detected hallucinations;
- the confusion rows by id: misses (hallucinations not flagged) and false alarms (flagged, not one);
- the same detection figures against the answer-level label (`answer_wrong`: the answer alone is
  wrong, the Drowzee authors' definition, blind to the reasoning), overall and per model: how well
  the verifier agrees with the published labels.

Rows without an oracle label (unparsed answers, unreadable reasoning) or without a verdict (a row the
verifier could not check) are counted apart and left out of every figure.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.oracles.graph import DEFAULT_MATCH
from drowzee_core.oracles.stats import Figure, bootstrap_bounds

GROUPS: tuple[str, ...] = ("model", "domain", "rule", "operator")
"""Fields the figures are broken down by (rows without the field are left out of that breakdown)."""
DETECTION = ("precision", "recall", "f1", "accuracy")


class LoopRow(BaseModel):
    """One answer of the target as the loop judged it: the oracle's label beside the verifier's verdict."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Case id.")
    model: str = Field(default="", description="The model under test.")
    domain: str | None = Field(default=None, description="KB domain (or Drowzee's category).")
    rule: str | None = Field(default=None, description="Rule family, MTL operator or Drowzee reasoning type.")
    operator: str | None = Field(default=None, description="Top-level temporal operator (temporal cases).")
    question: str = Field(default="", description="The question asked.")
    gold: str = Field(default="", description="The gold answer (or label).")
    llm_answer: str = Field(default="", description="The target's answer.")
    oracle_class: str | None = Field(default=None, description="The oracle's class (CO / OL / EI / EK), if any.")
    hallucinated: bool | None = Field(description="The oracle's label; None when it gives none.")
    answer_wrong: bool | None = Field(
        default=None, description="Answer-level label: the answer alone is wrong; None when it commits to none."
    )
    verdict_label: str | None = Field(default=None, description="FACTUAL / NON-FACTUAL; None without a verdict.")
    flagged: bool | None = Field(description="Verifier said NON-FACTUAL; None without a verdict.")
    degraded: bool = Field(default=False, description="A verifier source failed for this verdict.")
    verifier_error: str | None = Field(default=None, description="Why the row has no verdict.")
    explanation: str = Field(default="", description="The verdict's explanation.")
    node_sim: float | None = Field(default=None, description="Graph oracle: explanation vs facts, nodes.")
    edge_sim: float | None = Field(default=None, description="Graph oracle: explanation vs facts, edges.")


class Detection(BaseModel):
    """Detection figures of one predictor (the verifier or a baseline) on one set of rows."""

    model_config = ConfigDict(frozen=True)

    name: str = Field(description="Verifier or baseline name.")
    precision: Figure = Field(description="Flagged answers that are hallucinations.")
    recall: Figure = Field(description="Hallucinations that were flagged.")
    f1: Figure = Field(description="Harmonic mean of precision and recall.")
    accuracy: Figure = Field(description="Agreement with the oracle.")


class Block(BaseModel):
    """The figures of one group of rows."""

    model_config = ConfigDict(frozen=True)

    n: int = Field(description="Rows with an oracle label and a verdict.")
    hallucinations: int = Field(description="Of them, hallucinations per the oracle.")
    flagged: int = Field(description="Of them, flagged by the verifier.")
    confusion: dict[str, int] = Field(description="tp, fp, fn, tn.")
    hallucination_rate: Figure | None = Field(description="The target's rate over the rows (None when n is 0).")
    verifier: Detection | None = Field(description="The verifier's figures (None when n is 0).")
    baselines: list[Detection] = Field(default_factory=list, description="Always / never flag, majority.")


class GraphOracle(BaseModel):
    """The graph oracle on the verdicts' explanations against the cases' facts."""

    model_config = ConfigDict(frozen=True)

    rows: int = Field(description="Rows with a similarity (an explanation and facts with edges).")
    node_sim: float | None = Field(description="Mean node similarity.")
    edge_sim: float | None = Field(description="Mean edge similarity.")
    cites_facts: float | None = Field(description="Share with node and edge similarity >= the threshold.")
    detected_rows: int = Field(description="Detected hallucinations (true positives) with a similarity.")
    detected_cites_facts: float | None = Field(description="`cites_facts` over the detected hallucinations.")
    threshold: float = Field(description="The match threshold.")


class LoopMetrics(BaseModel):
    """Everything the score node computes about the verifier against the oracle."""

    model_config = ConfigDict(frozen=True)

    rows: int = Field(description="Answers judged.")
    evaluated: int = Field(description="Rows with an oracle label and a verdict (the figures' rows).")
    no_oracle_label: int = Field(description="Rows the oracle gives no label (unparsed, unreadable reasoning).")
    no_verdict: int = Field(description="Rows the verifier could not check.")
    degraded: int = Field(description="Evaluated rows whose verdict lacks a failed source.")
    overall: Block
    groups: dict[str, dict[str, Block]] = Field(description="Group field -> value -> figures.")
    graph_oracle: GraphOracle
    answer_level: dict[str, Block] = Field(
        default_factory=dict,
        description="The verifier against the answer-level label (`all`, then `model=NAME`): agreement with it.",
    )
    misses: list[str] = Field(description="Ids of hallucinations the verifier did not flag.")
    false_alarms: list[str] = Field(description="Ids of flagged answers that are not hallucinations.")


def _ratio(num: NDArray[Any], den: NDArray[Any]) -> NDArray[np.float64]:
    return np.where(den > 0, num / np.maximum(den, 1), 0.0)


def detection_stats(pred: NDArray[Any], gold: NDArray[Any], axis: int = -1) -> NDArray[np.float64]:
    """(precision, recall, F1, accuracy) of flags `pred` against hallucinations `gold` (0/1), along `axis`."""
    p, g = pred == 1, gold == 1
    tp = (p & g).sum(axis)
    fp = (p & ~g).sum(axis)
    fn = (~p & g).sum(axis)
    precision, recall = _ratio(tp, tp + fp), _ratio(tp, tp + fn)
    f1 = _ratio(2 * tp, 2 * tp + fp + fn)
    return np.stack([precision, recall, f1, (p == g).mean(axis)])


def _mean(x: NDArray[Any], axis: int = -1) -> NDArray[np.float64]:
    return np.asarray(np.mean(x, axis=axis))


def figures(values: Sequence[float], data: tuple[NDArray[Any], ...], stat: Any) -> list[Figure]:
    """Each value with its 95 % percentile-bootstrap interval ([v, v] for fewer than 2 rows)."""
    if len(data[0]) < 2:
        return [Figure(value=round(v, 5), low=round(v, 5), high=round(v, 5)) for v in values]
    low, high = bootstrap_bounds(data, stat)  # NaN where every resample is equal: the interval is [v, v]
    out = []
    for v, lo, hi in zip(values, low, high, strict=True):
        lo_, hi_ = (v, v) if np.isnan(lo) or np.isnan(hi) else (float(lo), float(hi))
        out.append(Figure(value=round(v, 5), low=round(lo_, 5), high=round(hi_, 5)))
    return out


def detection(name: str, pred: NDArray[np.int64], gold: NDArray[np.int64]) -> Detection:
    """A predictor's detection figures with intervals."""
    values = [float(v) for v in detection_stats(pred, gold)]
    figs = figures(values, (pred, gold), detection_stats)
    return Detection(name=name, **dict(zip(DETECTION, figs, strict=True)))


def constant_baselines(gold: NDArray[np.int64]) -> list[Detection]:
    """Always flag, never flag, and the majority oracle label (ties: flag), on the same rows."""
    flag_majority = int((gold == 1).sum() * 2 >= len(gold))
    named = [
        ("always flag", 1),
        ("never flag", 0),
        (f"majority ({'flag' if flag_majority else 'no flag'})", flag_majority),
    ]
    return [detection(n, np.full(len(gold), v, dtype=np.int64), gold) for n, v in named]


def block(rows: Sequence[LoopRow], label: str = "hallucinated") -> Block:
    """The figures of rows that all have the oracle label `label` (a `LoopRow` field) and a verdict."""
    gold = np.array([int(bool(getattr(r, label))) for r in rows], dtype=np.int64)
    pred = np.array([int(bool(r.flagged)) for r in rows], dtype=np.int64)
    tp = int(((pred == 1) & (gold == 1)).sum())
    fp = int(((pred == 1) & (gold == 0)).sum())
    fn = int(((pred == 0) & (gold == 1)).sum())
    confusion = {"tp": tp, "fp": fp, "fn": fn, "tn": len(rows) - tp - fp - fn}
    if not rows:
        return Block(n=0, hallucinations=0, flagged=0, confusion=confusion, hallucination_rate=None, verifier=None)
    (rate,) = figures([float(gold.mean())], (gold.astype(np.float64),), _mean)
    return Block(
        n=len(rows),
        hallucinations=int(gold.sum()),
        flagged=int(pred.sum()),
        confusion=confusion,
        hallucination_rate=rate,
        verifier=detection("verifier", pred, gold),
        baselines=constant_baselines(gold),
    )


def graph_oracle(rows: Sequence[LoopRow], threshold: float = DEFAULT_MATCH) -> GraphOracle:
    """Mean explanation-vs-facts similarity and the share that matches, overall and on detected hallucinations."""
    sims = [r for r in rows if r.node_sim is not None and r.edge_sim is not None]

    def cites(group: list[LoopRow]) -> float | None:
        if not group:
            return None
        hits = sum(float(r.node_sim or 0) >= threshold and float(r.edge_sim or 0) >= threshold for r in group)
        return round(hits / len(group), 4)

    detected = [r for r in sims if r.hallucinated and r.flagged]
    return GraphOracle(
        rows=len(sims),
        node_sim=round(float(np.mean([r.node_sim for r in sims])), 4) if sims else None,
        edge_sim=round(float(np.mean([r.edge_sim for r in sims])), 4) if sims else None,
        cites_facts=cites(sims),
        detected_rows=len(detected),
        detected_cites_facts=cites(detected),
        threshold=threshold,
    )


def by_group(rows: Iterable[LoopRow], field: str) -> dict[str, list[LoopRow]]:
    """Rows by the value of `field` (rows without one are left out), sorted by value."""
    out: dict[str, list[LoopRow]] = defaultdict(list)
    for r in rows:
        value = getattr(r, field)
        if value not in (None, ""):
            out[str(value)].append(r)
    return dict(sorted(out.items()))


def answer_level(rows: Sequence[LoopRow]) -> dict[str, Block]:
    """The verifier against the answer-level label: over all rows with one and a verdict, then per model."""
    labelled = [r for r in rows if r.answer_wrong is not None and r.flagged is not None]
    if not labelled:
        return {}
    per_model = {f"model={m}": block(v, "answer_wrong") for m, v in by_group(labelled, "model").items()}
    return {"all": block(labelled, "answer_wrong"), **per_model}


def loop_metrics(rows: Sequence[LoopRow], threshold: float = DEFAULT_MATCH) -> LoopMetrics:
    """Every figure of the verifier against the oracle (see the module docstring)."""
    evaluated = [r for r in rows if r.hallucinated is not None and r.flagged is not None]
    groups = {g: {k: block(v) for k, v in by_group(evaluated, g).items()} for g in GROUPS}
    return LoopMetrics(
        rows=len(rows),
        evaluated=len(evaluated),
        no_oracle_label=sum(r.hallucinated is None for r in rows),
        no_verdict=sum(r.hallucinated is not None and r.flagged is None for r in rows),
        degraded=sum(r.degraded for r in evaluated),
        overall=block(evaluated),
        groups={g: v for g, v in groups.items() if v},
        graph_oracle=graph_oracle(evaluated, threshold),
        answer_level=answer_level(rows),
        misses=[r.id for r in evaluated if r.hallucinated and not r.flagged],
        false_alarms=[r.id for r in evaluated if r.flagged and not r.hallucinated],
    )


__all__ = [
    "GROUPS",
    "Block",
    "Detection",
    "GraphOracle",
    "LoopMetrics",
    "LoopRow",
    "answer_level",
    "block",
    "by_group",
    "constant_baselines",
    "detection",
    "detection_stats",
    "figures",
    "graph_oracle",
    "loop_metrics",
]
