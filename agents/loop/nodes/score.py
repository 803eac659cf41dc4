"""`score`: the oracle on the target's answers, the graph oracle on the verdicts, and the verifier's figures.

1. The kind's registered scorer judges the answers (`judged.jsonl`: Drowzee's CO / OL / EI / EK, ERBench's
   A / R / AR / H, or FactCHD's FactCls / ExpMatch of the verdicts) and gives its summary.
2. For kinds with ground-truth facts, the same Drowzee scorer reads each verdict's *explanation* as the
   response, which gives the graph oracle's node / edge similarity between the explanation's triples
   and the case's facts.
3. `agents.loop.metrics` (pure) compares the verifier's flags with the oracle's labels (`rows.jsonl`
   holds the joined rows; `scores.json` the oracle's summary and every figure).
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from agents.loop.context import LoopContext
from agents.loop.kinds import KINDS
from agents.loop.metrics import loop_metrics
from agents.loop.nodes.base import ANSWERS, JUDGED, ROWS, SCORES, VERDICTS, counter, node_provenance, rows_of
from agents.loop.rows import join, similarities
from agents.loop.state import Artefact, LoopState
from drowzee_core.records.jsonl import write_jsonl
from drowzee_core.records.provenance import atomic_write_text, input_files, write_sidecar

log = logging.getLogger(__name__)


def score(state: LoopState, runtime: Runtime[LoopContext]) -> dict[str, Any]:
    """Write `judged.jsonl`, `rows.jsonl` and `scores.json`."""
    cfg, ctx = state["config"], runtime.context
    spec = KINDS[cfg.kind]
    answers = rows_of(state["answers"].path)
    verdicts = {str(r["id"]): r for r in rows_of(state["verdicts"].path)}
    inputs = input_files([ctx.out / ANSWERS, ctx.out / VERDICTS])
    scored = [spec.scorer_row(a, verdicts.get(str(a["id"]))) for a in answers]
    with ctx.track(f"scoring ({spec.scorer})", len(answers)) as done:
        judged, summary = ctx.score(spec.scorer, scored, counter(done))
    write_jsonl(judged, ctx.out / JUDGED, node_provenance(f"score.{spec.scorer}", state, ctx, inputs, summary))
    sims = {}
    if spec.explain:
        explained = [
            a | {"llm_answer": v["verdict"]["explanation"]}
            for a in answers
            if (v := verdicts.get(str(a["id"]))) and v.get("verdict") and v["verdict"].get("explanation")
        ]
        with ctx.track("graph oracle on explanations", len(explained)) as done:
            sim_rows, _ = ctx.score("drowzee", explained, counter(done))
        sims = similarities(sim_rows)
    rows = join(judged, verdicts, spec, sims)
    metrics = loop_metrics(rows)
    counts = {
        "evaluated": metrics.evaluated,
        "no_oracle_label": metrics.no_oracle_label,
        "no_verdict": metrics.no_verdict,
    }
    write_jsonl(rows, ctx.out / ROWS, node_provenance("benchmark.score", state, ctx, inputs, counts))
    out = ctx.out / SCORES
    data = {"kind": cfg.kind, "scorer": spec.scorer, "oracle": summary, "verifier": metrics.model_dump(mode="json")}
    atomic_write_text(out, json.dumps(data, indent=1, ensure_ascii=False) + "\n")
    write_sidecar(out, node_provenance("benchmark.score", state, ctx, inputs, counts))
    log.info("score: %d rows, %d evaluated -> %s", metrics.rows, metrics.evaluated, out)
    return {"scores": Artefact(path=str(out), rows=metrics.rows, counts=counts), "finished": ["score"]}


def read_scores(path: Path) -> dict[str, Any]:
    """`scores.json` as the score node wrote it."""
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


__all__ = ["read_scores", "score"]
