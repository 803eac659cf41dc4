"""Score verifier verdicts against the pairs' gold labels, reasons and ground-truth facts.

`drowzee score verdicts PAIRS VERDICTS`: rows of both files are joined by `id` (a verdict row is
`{"id", "verdict": {...}}`, as `drowzee batch` writes it). Per pair: the verdict's label against the
gold label, ExpMatch of its explanation against the gold `reason` (FactCHD's formula), and for our
generated pairs the graph oracle's node / edge similarity between the triples of the explanation and
of the pair's ground-truth facts (both read by the same extractor, so labels meet labels). The
summary holds FactCls, accuracy and macro-F1 with 95 % intervals, and the per-decision figures
(`drowzee_core.oracles.decisions`: counts per decision, coverage, accuracy on decided and undecided rows),
overall and per pattern, grounding and source, each beside the constant baselines on the same rows.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from typing import Any

from drowzee_core.errors import DrowzeeError
from drowzee_core.oracles.decisions import decision_figures, decision_of
from drowzee_core.oracles.factchd_metrics import exp_match
from drowzee_core.oracles.judged import GraphOracle, JudgedVerdict, VerdictFigures, VerdictSummary

Rows = list[dict[str, Any]]
GROUPS = ("pattern", "grounding", "source", "category")
MIN_GROUP = 2


def join(rows: Sequence[dict[str, Any]]) -> Rows:
    """Pairs joined with their verdicts by id; every verdict must name a pair, every pair needs a verdict."""
    pairs = {str(r["id"]): r for r in rows if "verdict" not in r and "error" not in r and "id" in r}
    verdicts = {str(r["id"]): r for r in rows if "verdict" in r or "error" in r}
    if not pairs or not verdicts:
        raise DrowzeeError("give the pairs file and the verdicts file (rows with `verdict`, as `drowzee batch` writes)")
    unknown = sorted(set(verdicts) - set(pairs))
    if unknown:
        raise DrowzeeError(f"{len(unknown)} verdicts name no pair (e.g. id {unknown[0]!r}); are these the right files?")
    missing = sorted(set(pairs) - set(verdicts))
    if missing:
        raise DrowzeeError(f"{len(missing)} pairs have no verdict (e.g. id {missing[0]!r}); run the batch to the end")
    return [pairs[i] | {"_verdict": verdicts[i]} for i in pairs]


def truth_texts(pair: dict[str, Any]) -> list[str]:
    """A generated pair's ground-truth facts as sentences (the claims' `text`, written with entity labels)."""
    gt = pair.get("ground_truth") or {}
    return [str(c["text"]) for c in gt.get("claims", []) if c.get("text")]


def judge(pair: dict[str, Any], similarity: Callable[[str, list[str]], tuple[float, float]] | None) -> JudgedVerdict:
    """One judged row."""
    v = pair["_verdict"]
    verdict = v.get("verdict") or {}
    explanation = str(verdict.get("explanation", ""))
    truth = truth_texts(pair)
    node_sim, edge_sim = (
        similarity(explanation, truth) if similarity is not None and truth and explanation else (None, None)
    )
    error = v.get("error")
    return JudgedVerdict(
        id=str(pair["id"]),
        gold_label=str(pair["label"]),
        parsed_label=str(verdict.get("label") or ""),
        decision=decision_of(v.get("verdict")),
        error=None if error is None else str(error),
        degraded=bool(verdict.get("degraded", False)),
        exp_match=round(exp_match(explanation, str(pair["reason"])), 5) if pair.get("reason") else None,
        node_sim=node_sim,
        edge_sim=edge_sim,
        **{g: _group(pair, g) for g in GROUPS},
    )


def _group(pair: dict[str, Any], name: str) -> str | None:
    value = pair.get(name) or (pair.get("meta") or {}).get(name)
    return None if value is None else str(value)


def summarize(judged: Sequence[JudgedVerdict]) -> VerdictSummary:
    """Figures with intervals and the constant baselines, overall and per group.

    A row without a decision counts as an older verdict's.
    """
    import numpy as np

    from drowzee_core.oracles.stats import baselines, codes, figures

    def block(rows: Sequence[JudgedVerdict]) -> VerdictFigures:
        labels = [{"gold_label": r.gold_label, "parsed_label": r.parsed_label} for r in rows]
        gold, pred = codes(labels, "gold_label"), codes(labels, "parsed_label")
        exps = [r.exp_match for r in rows]
        exp = np.array(exps, dtype=np.float64) if all(e is not None for e in exps) else None
        sims = [(r.node_sim, r.edge_sim) for r in rows if r.node_sim is not None and r.edge_sim is not None]
        graph = (
            GraphOracle(
                rows=len(sims),
                node_sim=round(float(np.mean([a for a, _ in sims])), 4),
                edge_sim=round(float(np.mean([b for _, b in sims])), 4),
            )
            if sims
            else None
        )
        return VerdictFigures(
            verifier=figures("verifier", pred, gold, exp),
            baselines=baselines(gold),
            degraded=sum(r.degraded for r in rows),
            errors=sum(r.error is not None for r in rows),
            decisions=decision_figures(rows),
            graph_oracle=graph,
        )

    by: dict[str, dict[str, VerdictFigures]] = {}
    for g in GROUPS:
        groups: dict[str, list[JudgedVerdict]] = defaultdict(list)
        for r in judged:
            if value := getattr(r, g):
                groups[value].append(r)
        blocks = {k: block(v) for k, v in sorted(groups.items()) if len(v) >= MIN_GROUP}
        if blocks:
            by[f"by_{g}"] = blocks
    return VerdictSummary.model_validate({"overall": block(judged), **by})


def score_verdicts(
    rows: Sequence[dict[str, Any]],
    similarity: Callable[[str, list[str]], tuple[float, float]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[JudgedVerdict], VerdictSummary]:
    """Judged rows and the summary."""
    judged = []
    for pair in join(rows):
        judged.append(judge(pair, similarity))
        if progress:
            progress(1)
    return judged, summarize(judged)


__all__ = ["join", "judge", "score_verdicts", "summarize", "truth_texts"]
