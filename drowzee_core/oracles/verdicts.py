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


def judge(pair: dict[str, Any], similarity: Callable[[str, list[str]], tuple[float, float]] | None) -> dict[str, Any]:
    """One judged row."""
    v = pair["_verdict"]
    verdict = v.get("verdict") or {}
    decision = decision_of(v.get("verdict"))
    explanation = str(verdict.get("explanation", ""))
    row: dict[str, Any] = {
        "id": pair["id"],
        "gold_label": pair["label"],
        "parsed_label": verdict.get("label", ""),
        "decision": decision,
        "error": v.get("error"),
        "degraded": bool(verdict.get("degraded", False)),
        "exp_match": round(exp_match(explanation, str(pair["reason"])), 5) if pair.get("reason") else None,
    }
    for g in GROUPS:
        row[g] = pair.get(g) or (pair.get("meta") or {}).get(g)
    truth = truth_texts(pair)
    if similarity is not None and truth and explanation:
        row["node_sim"], row["edge_sim"] = similarity(explanation, truth)
    return row


def summarize(judged: Rows) -> dict[str, Any]:
    """Figures with intervals and the constant baselines, overall and per group.

    Each judged row needs `gold_label`, `parsed_label`, `exp_match`, `degraded`, `error` and `decision`
    (`decision_of` its verdict; a row without it counts as an older verdict's).
    """
    import numpy as np

    from drowzee_core.oracles.stats import baselines, codes, figures

    def block(rows: Rows) -> dict[str, Any]:
        gold, pred = codes(rows, "gold_label"), codes(rows, "parsed_label")
        exps = [r["exp_match"] for r in rows]
        exp = np.array(exps, dtype=np.float64) if all(e is not None for e in exps) else None
        out: dict[str, Any] = {
            "verifier": figures("verifier", pred, gold, exp).model_dump(),
            "baselines": [b.model_dump() for b in baselines(gold)],
            "degraded": sum(r["degraded"] for r in rows),
            "errors": sum(r["error"] is not None for r in rows),
            "decisions": decision_figures(rows),
        }
        sims = [(r["node_sim"], r["edge_sim"]) for r in rows if "node_sim" in r]
        if sims:
            out["graph_oracle"] = {
                "rows": len(sims),
                "node_sim": round(float(np.mean([a for a, _ in sims])), 4),
                "edge_sim": round(float(np.mean([b for _, b in sims])), 4),
            }
        return out

    summary: dict[str, Any] = {"overall": block(judged)}
    for g in GROUPS:
        groups: dict[str, Rows] = defaultdict(list)
        for r in judged:
            if r.get(g):
                groups[str(r[g])].append(r)
        blocks = {k: block(v) for k, v in sorted(groups.items()) if len(v) >= MIN_GROUP}
        if blocks:
            summary[f"by_{g}"] = blocks
    return summary


def score_verdicts(
    rows: Sequence[dict[str, Any]],
    similarity: Callable[[str, list[str]], tuple[float, float]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[Rows, dict[str, Any]]:
    """Judged rows and the summary."""
    judged = []
    for pair in join(rows):
        judged.append(judge(pair, similarity))
        if progress:
            progress(1)
    return judged, summarize(judged)


__all__ = ["join", "judge", "score_verdicts", "summarize", "truth_texts"]
