"""The Batch tab: upload a JSONL/CSV of pairs, watch the job on the batch engine, read and download results.

The job id lives in the browser's local storage (`gr.BrowserState`), so a page reload picks the job
up again; the job itself runs in the server (`service.jobs`) whether or not a page watches it.
"""

from __future__ import annotations

import shutil
import uuid
from datetime import UTC, datetime
from html import escape
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gradio as gr

from drowzee_core.oracles.decisions import DECISION_COLUMNS, counts_line, coverage_line, decision_of, decision_rows
from service.errors import RefusedError

if TYPE_CHECKING:
    from service.jobs import BatchJob, BatchStatus
    from service.runtime import Runtime

HEADERS = ["row", "id", "label", "decision", "confidence", "degraded", "explanation or error"]
SHOWN = 200
"""Result rows shown in the table (the download has all)."""
FIGURES = (("factcls", "FactCls"), ("acc", "accuracy"), ("macro_f1", "macro-F1"))

INTRO = """Upload a **JSONL** or **CSV** file of Query-Response pairs (FactCHD schema: `query`, `response`,
optional `id`, `evidence`, `label`). Other column names? Map them, e.g. `query=question,response=answer,label=gold`.
Every row gets a record: a verdict, or an error that says what is wrong with the row. Rows with a `label`
give metrics beside the constant baselines, per decision too (coverage: the share of rows decided, not
left "not verified"). The job keeps running if you close the page."""


def _job_choices(runtime: Runtime) -> list[tuple[str, str]]:
    return [(f"{j.filename} · {j.created:%Y-%m-%d %H:%M:%S} · {j.total:,} rows", j.id) for j in runtime.batch.jobs()]


def _start(runtime: Runtime, file: str | None, columns: str, evidence: str) -> tuple[str, Any]:
    if not file:
        raise gr.Error("Choose a .jsonl or .csv file first.")
    staging = runtime.settings.jobs_dir / "incoming"
    staging.mkdir(parents=True, exist_ok=True)
    staged = staging / f"{uuid.uuid4().hex}.part"
    shutil.copyfile(file, staged)
    try:
        job = runtime.batch.create(staged, Path(file).name, columns.strip() or None, evidence.strip() or None)
    except RefusedError as exc:
        raise gr.Error(str(exc)) from None
    finally:
        staged.unlink(missing_ok=True)
        staged.with_suffix(Path(file).suffix.lower()).unlink(missing_ok=True)
    return job.id, gr.update(choices=_job_choices(runtime), value=job.id)


def _progress_html(job: BatchJob, done: int) -> str:
    pct = 100.0 * done / job.total if job.total else 100.0
    colour = {"failed": "#dc2626", "done": "#059669"}.get(job.status, "#4f46e5")
    line = f"<b>{escape(job.filename)}</b> · {job.status} · {done:,} / {job.total:,} rows"
    if job.status == "running" and done:
        elapsed = (datetime.now(UTC) - job.created).total_seconds()
        rate = done / elapsed if elapsed > 0 else 0.0
        eta = (job.total - done) / rate if rate > 0 else None
        line += f" · {rate:.2f} rows/s" + (f" · about {eta / 60:.1f} min left" if eta is not None else "")
    if job.error:
        line += f"<br><span style='color:#dc2626'>{escape(job.error)}</span>"
    return (
        f"<div id='batch-progress-text'>{line}</div>"
        "<div style='background:#e5e7eb;border-radius:6px;height:10px;margin-top:6px'>"
        f"<div style='background:{colour};width:{pct:.1f}%;height:10px;border-radius:6px'></div></div>"
    )


def _fig(fig: dict[str, Any] | None) -> str:
    if not fig or fig.get("value") is None:
        return "–"
    return f"{fig['value']:.3f} <span class='dz-muted'>[{fig['low']:.3f}, {fig['high']:.3f}]</span>"


def _interval_html(cell: str) -> str:
    """A table cell, its `[low, high]` interval (when it has one) in small print as in the label figures."""
    value, sep, interval = cell.partition(" [")
    return escape(value) + (f" <span class='dz-muted'>[{escape(interval)}</span>" if sep else "")


def _decisions_html(figures: dict[str, Any]) -> str:
    """The per-decision figures (`drowzee_core.oracles.decisions`): coverage, then accuracy per subset."""
    head = "".join(f"<th>{escape(c)}</th>" for c in DECISION_COLUMNS)
    cells = ("".join(f"<td>{_interval_html(c)}</td>" for c in row) for row in decision_rows(figures))
    body = "".join(f"<tr>{c}</tr>" for c in cells)
    return (
        f"<p><b>Per decision</b>: {escape(coverage_line(figures))}. <span class='dz-muted'>Undecided rows are"
        " shown as not verified; their label is the --undecided policy's. Each accuracy stands beside the"
        " constant baselines on the same rows.</span></p>"
        f"<table class='dz-table' id='batch-decisions'><tr>{head}</tr>{body}</table>"
    )


def _metrics_html(status: BatchStatus) -> str:
    counts = status.counts
    head = (
        f"<b>{counts.get('FACTUAL', 0):,}</b> FACTUAL · <b>{counts.get('NON-FACTUAL', 0):,}</b> NON-FACTUAL ·"
        f" <b>{counts.get('error', 0):,}</b> error rows · <b>{counts.get('degraded', 0):,}</b> degraded"
    )
    if status.decisions:
        head += f"<br>decisions: {escape(counts_line(status.decisions))}"
    m = status.metrics
    if not m:
        return f"<div>{head}</div><div class='dz-muted'>No labelled rows: metrics appear when rows carry a label.</div>"
    rows = [("verifier", m["verifier"]), *((b["name"], b) for b in m.get("baselines", []))]
    cells = "".join(
        f"<tr><td>{escape(name)}</td>" + "".join(f"<td>{_fig(fig.get(k))}</td>" for k, _ in FIGURES) + "</tr>"
        for name, fig in rows
    )
    header = "".join(f"<th>{label}</th>" for _, label in FIGURES)
    html = (
        f"<div>{head}</div><p class='dz-muted'>{m['rows']:,} labelled rows; 95 % bootstrap intervals;"
        " NON-FACTUAL is the positive class of FactCls.</p>"
        f"<table class='dz-table'><tr><th>who</th>{header}</tr>{cells}</table>"
    )
    return html + (_decisions_html(m["decisions"]) if "decisions" in m else "")


def _table(status: BatchStatus) -> list[list[Any]]:
    rows: list[list[Any]] = []
    for rec in status.results:
        v = rec.get("verdict")
        if v is None:
            rows.append([rec["row"], rec.get("id", ""), "error", "", None, None, rec.get("error", "")])
        else:
            conf = round(v["confidence"], 3)
            rows.append(
                [rec["row"], rec.get("id", ""), v["label"], decision_of(v), conf, v["degraded"], v["explanation"]]
            )
    return sorted(rows, key=lambda r: int(r[0]))


def _refresh(runtime: Runtime, job_id: str | None) -> tuple[str, str, Any, Any]:
    if not job_id:
        return "<div class='dz-muted'>No job yet.</div>", "", gr.update(value=[]), gr.update(visible=False)
    try:
        status = runtime.batch.status(job_id, 0, SHOWN)
    except RefusedError:
        return "<div class='dz-muted'>That job is gone.</div>", "", gr.update(value=[]), gr.update(visible=False)
    path = runtime.batch.results_path(job_id)
    download = gr.update(value=str(path), visible=path.exists(), label=f"Download results ({status.job.status})")
    return _progress_html(status.job, status.done), _metrics_html(status), gr.update(value=_table(status)), download


def tab(runtime: Runtime) -> None:
    """Build the Batch tab."""
    with gr.Tab("Batch", id="batch"):
        gr.Markdown(INTRO)
        with gr.Row():
            upload = gr.File(label="Pairs (.jsonl or .csv)", file_types=[".jsonl", ".csv"], elem_id="batch-file")
            with gr.Column():
                columns = gr.Textbox(
                    label="Column map (optional)",
                    placeholder="query=question,response=answer,label=gold",
                    elem_id="batch-columns",
                )
                evidence = gr.Textbox(
                    label="Evidence column (optional)", placeholder="evidence", elem_id="batch-evidence-field"
                )
                start = gr.Button("Check the file", variant="primary", elem_id="batch-start")
        with gr.Row():
            jobs = gr.Dropdown(label="Jobs", choices=_job_choices(runtime), elem_id="batch-jobs", scale=4)
            reload = gr.Button("Refresh list", scale=1, elem_id="batch-jobs-refresh")
        job_id = gr.BrowserState(None, storage_key="drowzee-batch-job")
        progress = gr.HTML(elem_id="batch-progress")
        metrics = gr.HTML(elem_id="batch-metrics")
        download = gr.DownloadButton("Download results", visible=False, elem_id="batch-download")
        table = gr.Dataframe(
            headers=HEADERS,
            label=f"Results (first {SHOWN} rows; the download has all)",
            interactive=False,
            wrap=True,
            column_widths=["5%", "7%", "11%", "10%", "10%", "8%", "49%"],
            elem_id="batch-results",
        )
        timer = gr.Timer(1.5)

        start.click(
            lambda f, c, e: _start(runtime, f, c, e), inputs=[upload, columns, evidence], outputs=[job_id, jobs]
        )
        jobs.input(lambda j: j, inputs=jobs, outputs=job_id)
        reload.click(lambda: gr.update(choices=_job_choices(runtime)), outputs=jobs)
        timer.tick(
            lambda j: _refresh(runtime, j),
            inputs=job_id,
            outputs=[progress, metrics, table, download],
            show_progress="hidden",
        )


__all__ = ["tab"]
