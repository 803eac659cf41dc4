"""`report`: Markdown + HTML with plots in the run folder (the target's heatmaps and the verifier's figures)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from agents.loop.context import LoopContext
from agents.loop.kinds import KINDS
from agents.loop.metrics import LoopMetrics, LoopRow
from agents.loop.mitigation import Mitigation
from agents.loop.nodes.base import JUDGED, REPORT_HTML, REPORT_MD, ROWS, SCORES, node_provenance, rows_of
from agents.loop.nodes.score import read_scores
from agents.loop.render import detection_plot, markdown
from agents.loop.state import Artefact, LoopState
from drowzee_core.oracles.report import html_page, write_report
from drowzee_core.records.provenance import atomic_write_text, input_files, write_sidecar


def report(state: LoopState, runtime: Runtime[LoopContext]) -> dict[str, Any]:
    """Write `report.md`, `report.html`, `detection.png` and (Drowzee kinds) `target/` with the heatmaps."""
    cfg, ctx = state["config"], runtime.context
    spec = KINDS[cfg.kind]
    scores = read_scores(Path(state["scores"].path))
    metrics = LoopMetrics.model_validate(scores["verifier"])
    rows = [LoopRow.model_validate(r) for r in rows_of(ctx.out / ROWS)]
    inputs = input_files([ctx.out / SCORES, ctx.out / ROWS, ctx.out / JUDGED])
    if spec.heatmaps:
        target = ctx.out / "target"
        write_report(rows_of(ctx.out / JUDGED), target, title=f"Target model on {cfg.generator}")
        write_sidecar(target, node_provenance("report", state, ctx, inputs))
    group = "model" if len(metrics.groups.get("model", {})) > 1 else "rule"
    detection_plot(metrics, ctx.out / "detection.png", group)
    mitigated = None
    if "mitigation" in state:
        path = Path(state["mitigation"].path)
        mitigated = Mitigation.model_validate_json(path.read_text("utf-8"))
        inputs |= input_files([path])
    text = markdown(cfg, metrics, scores["oracle"], rows, spec.heatmaps, group, mitigated)
    counts = {"evaluated": metrics.evaluated, "misses": len(metrics.misses), "false_alarms": len(metrics.false_alarms)}
    for name, body in ((REPORT_MD, text), (REPORT_HTML, html_page(text, f"Closed loop: {cfg.generator}"))):
        atomic_write_text(ctx.out / name, body)
        write_sidecar(ctx.out / name, node_provenance("benchmark.report", state, ctx, inputs, counts))
    return {"report": Artefact(path=str(ctx.out / REPORT_MD), counts=counts), "finished": ["report"]}


__all__ = ["report"]
