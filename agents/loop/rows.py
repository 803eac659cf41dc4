"""Joining what the nodes wrote into `LoopRow`s: an answered case, its verdict record and its judgement (pure)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from agents.loop.kinds import KindSpec
from agents.loop.metrics import LoopRow

Row = Mapping[str, Any]
Similarity = tuple[float | None, float | None]
RULE_FIELDS = ("rule", "pattern", "question_type", "reasoning")
"""Where a row's rule family is: ours, FactCHD pattern, ERBench question type, Drowzee's reasoning type."""


def _str(value: Any) -> str | None:
    return None if value in (None, "") else str(value)


def loop_row(judged: Row, verdict: Row | None, spec: KindSpec, sim: Similarity | None = None) -> LoopRow:
    """One `LoopRow` from a judged answer (the scorer's row: the case, the answer, the judgement) and its verdict."""
    v = (verdict or {}).get("verdict") or None
    label = _str(v.get("label")) if v else None
    return LoopRow(
        id=str(judged["id"]),
        model=str(judged.get("model") or ""),
        domain=_str(judged.get("domain") or judged.get("category")),
        rule=_str(next((judged[k] for k in RULE_FIELDS if judged.get(k)), None)),
        operator=_str(judged.get("operator")),
        question=str(judged.get("question") or judged.get("query") or ""),
        gold=str(judged.get("answer") or judged.get("label") or ""),
        llm_answer=str(judged.get("llm_answer") or ""),
        oracle_class=_str(judged.get("class")),
        hallucinated=spec.oracle(judged),
        answer_wrong=spec.answer_oracle(judged),
        verdict_label=label,
        flagged=None if label is None else label == "NON-FACTUAL",
        degraded=bool(v.get("degraded")) if v else False,
        verifier_error=None if v else _str((verdict or {}).get("error")) or "no verdict",
        explanation=str(v.get("explanation", "")) if v else "",
        node_sim=sim[0] if sim else None,
        edge_sim=sim[1] if sim else None,
    )


def join(
    judged: Sequence[Row],
    verdicts: Mapping[str, Row],
    spec: KindSpec,
    sims: Mapping[str, Similarity] | None = None,
) -> list[LoopRow]:
    """`LoopRow`s of the judged answers, in their order, with each one's verdict record (by id)."""
    sims = sims or {}
    return [loop_row(j, verdicts.get(str(j["id"])), spec, sims.get(str(j["id"]))) for j in judged]


def similarities(judged_explanations: Sequence[Row]) -> dict[str, Similarity]:
    """Node / edge similarity by id, from the drowzee scorer's rows over the verdicts' explanations."""
    return {
        str(r["id"]): (r.get("node_similarity"), r.get("edge_similarity"))
        for r in judged_explanations
        if r.get("node_similarity") is not None
    }


__all__ = ["join", "loop_row", "similarities"]
