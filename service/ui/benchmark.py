"""The Benchmark tab: run the closed loop (`drowzee benchmark`) as a job, watch it, read its report.

Each run is a `drowzee benchmark` process in `<jobs_dir>/benchmark/<id>/` (its run folder is `run/`),
so it keeps running when the page closes. The watched run's id is kept in the browser: a reload
shows it again, and earlier runs stay in the list, their reports one click away.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

import gradio as gr

from service.ui.jobs_view import (
    BOOT_S,
    BROWSER_SECRET,
    LOG_BYTES,
    POLL_S,
    empty_status,
    find_job,
    job_choices,
    status_html,
    warn,
)
from service.ui.loop_report import REPORT_CSS, STAGES_CSS, report_html, run_progress, stages_html
from service.ui.loop_report import standalone_report as _standalone

if TYPE_CHECKING:
    from service.procs import ProcJob
    from service.runtime import Runtime

KIND = "benchmark"
GENERATORS = ("drowzee-qa", "temporal", "factchd", "erbench")
"""Generators the loop runs (`agents.loop.kinds.KINDS`); erbench only from recorded answers (it needs a schema)."""
SOURCES = ("Model role", "OpenAI-compatible endpoint", "Recorded answers")
MODEL_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.@+-]{0,63}$")
INTRO = (
    "Test a model with cases whose answers Prolog proves, verify its answers, and score both against the"
    " ground truth: the model's hallucination rate, and how well the verifier detects its hallucinations"
    " (`docs/loop.md` explains the figures). A run is a `drowzee benchmark` process: it goes on when you"
    " close the page, and earlier runs stay in the list."
)


def _int(value: float | None) -> int | None:
    return int(value) if value else None


def build_argv(
    out: Path,
    generator: str,
    n: float | None,
    seed: float | None,
    source: str,
    role: str,
    base_url: str,
    model: str,
    answers: Path | None,
    evidence: str,
    limit: float | None,
) -> list[str]:
    """The `drowzee benchmark` arguments of the form's values, checked as the CLI would (`LoopConfig`)."""
    from pydantic import ValidationError

    from agents.loop.state import KINDS_PAIRS, LoopConfig, LoopError

    values: dict[str, Any] = {"generator": generator, "seed": int(seed or 0), "evidence": evidence}
    values["limit"] = _int(limit)
    if generator in KINDS_PAIRS or source != "Recorded answers":
        values["n"] = _int(n)
    if generator not in KINDS_PAIRS:
        if source == "Model role":
            values["target"] = role.strip() or None
        elif source == "OpenAI-compatible endpoint":
            values["base_url"], values["model"] = base_url.strip() or None, model.strip() or None
            if not (values["base_url"] and values["model"]):
                raise ValueError("give both the endpoint's base URL and the model name")
        else:
            values["answers"] = str(answers) if answers else None
    try:
        LoopConfig(**values)
    except LoopError as exc:
        raise ValueError(str(exc)) from None
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        raise ValueError(f"{'.'.join(map(str, first['loc']))}: {first['msg']}") from None
    flags = {"n": "--n", "target": "--target", "base_url": "--base-url", "model": "--model", "answers": "--answers"}
    argv = ["-v", KIND, "--generator", generator, "--seed", str(values["seed"]), "--evidence", evidence]
    for key, flag in (*flags.items(), ("limit", "--limit")):
        if values.get(key) is not None:
            argv += [flag, str(values[key])]
    return [*argv, "--out", str(out)]


def _expected(argv: list[str]) -> int | None:
    """The rows a run will have, from its arguments: --limit, else --n (None: all recorded answers)."""
    got = {argv[i]: argv[i + 1] for i in range(len(argv) - 1) if argv[i] in ("--n", "--limit")}
    values = [int(v) for v in got.values()]
    return min(values) if values else None


def _downloads(job: ProcJob) -> list[str]:
    """The report as one HTML page, the scores and the rows, copied once to a temp folder Gradio may serve."""
    out = Path(job.out_dir or "")
    dest = Path(tempfile.gettempdir()) / "drowzee-bench" / job.id
    page = dest / f"report-{job.id}.html"
    if not page.is_file():
        dest.mkdir(parents=True, exist_ok=True)
        for name in ("scores.json", "rows.jsonl"):
            if (out / name).is_file():
                shutil.copyfile(out / name, dest / name)
        _standalone(out, page)  # last: its presence marks the copy complete
    return [str(page), *(str(dest / n) for n in ("scores.json", "rows.jsonl") if (dest / n).is_file())]


def tab(runtime: Runtime) -> None:
    """The Benchmark tab."""
    with gr.Tab("Benchmark", id="benchmark"):
        gr.Markdown(INTRO)
        with gr.Row(equal_height=False):
            with gr.Column(scale=2, min_width=320):
                generator = gr.Dropdown(
                    list(GENERATORS), value="drowzee-qa", label="Cases", elem_id="bench-generator",
                    info="drowzee-qa: yes/no questions over KB rules; temporal: time questions; factchd: claims "
                    "with their own responses (no model asked); erbench: from recorded answers only.",
                )  # fmt: skip
                with gr.Row():
                    n = gr.Number(20, label="Cases to generate (n)", precision=0, minimum=1, elem_id="bench-n")
                    seed = gr.Number(0, label="Seed", precision=0, elem_id="bench-seed")
                source = gr.Radio(list(SOURCES), value=SOURCES[0], label="Model under test", elem_id="bench-source")
                role = gr.Textbox("target", label="Model role", info="See `drowzee models`.", elem_id="bench-role")
                with gr.Row(visible=False) as endpoint_row:
                    base_url = gr.Textbox(label="Base URL", placeholder="http://host:8000/v1", elem_id="bench-base-url")
                    model = gr.Textbox(label="Model name", elem_id="bench-model")
                with gr.Group(visible=False) as answers_box:
                    answers = gr.File(
                        label="Recorded answers (history.json or run-llm JSONL)",
                        file_types=[".json", ".jsonl"], type="filepath", elem_id="bench-answers",
                    )  # fmt: skip
                    answers_model = gr.Textbox(
                        label="Model that gave them (names a history.json's model)", placeholder="e.g. vicuna-13b",
                        elem_id="bench-answers-model",
                    )  # fmt: skip
                with gr.Row():
                    limit = gr.Number(0, label="Limit (0: all)", precision=0, minimum=0, elem_id="bench-limit")
                    evidence = gr.Radio(
                        ["none", "facts"], value="none", label="Verifier evidence", elem_id="bench-evidence",
                        info="facts: give the verifier each case's proved facts",
                    )  # fmt: skip
                with gr.Row():
                    run = gr.Button("Run benchmark", variant="primary", elem_id="bench-run")
                    cancel = gr.Button("Cancel run", variant="stop", elem_id="bench-cancel")
            with gr.Column(scale=3, min_width=360):
                with gr.Row(equal_height=False):
                    jobs = gr.Dropdown([], label="Runs", scale=5, elem_id="bench-jobs")
                    refresh = gr.Button("Refresh", size="sm", scale=0, min_width=90, elem_id="bench-refresh")
                progress = gr.HTML(empty_status("run"), elem_id="bench-progress", css_template=STAGES_CSS)
                with gr.Accordion("Log", open=False, elem_id="bench-log-box"):
                    log_box = gr.Textbox(
                        lines=12, max_lines=12, show_label=False, autoscroll=True, elem_id="bench-log", buttons=["copy"]
                    )
                files = gr.File(
                    label="Downloads", file_count="multiple", interactive=False, visible=False, elem_id="bench-files"
                )
        report = gr.HTML("", elem_id="bench-report", css_template=REPORT_CSS)
        timer = gr.Timer(POLL_S, active=False)
        boot = gr.Timer(BOOT_S)  # once the tab is shown: its stored job id is readable then
        stored = gr.BrowserState(None, storage_key="drowzee-bench-job", secret=BROWSER_SECRET)

    def pick_source(gen: str, src: str) -> tuple[Any, ...]:
        pairs = gen == "factchd"
        return (
            gr.update(visible=not pairs),
            gr.update(visible=not pairs and src == SOURCES[0]),
            gr.update(visible=not pairs and src == SOURCES[1]),
            gr.update(visible=not pairs and src == SOURCES[2]),
            gr.update(visible=pairs or src != SOURCES[2]),
        )

    for trigger in (generator.change, source.change):
        trigger(pick_source, [generator, source], [source, role, endpoint_row, answers_box, n], show_progress="hidden")

    def show(job_id: str | None, full: bool = True) -> tuple[Any, ...]:
        """progress, log, report, files, timer of one job; report and files once it is done (`full`: reset them)."""
        job = find_job(runtime.procs, job_id, (KIND,))
        if job is None:
            return empty_status("run"), "", "", gr.update(visible=False, value=None), gr.Timer(active=False)
        prog = run_progress(Path(job.out_dir or ""), _expected(job.argv))
        tail = runtime.procs.log_tail(job.id, LOG_BYTES)
        head = status_html(job, tail) + stages_html(prog, job.status)
        if not job.done:
            rest = ("", gr.update(visible=False, value=None)) if full else (gr.skip(), gr.skip())
            return head, tail, *rest, gr.Timer(active=True)
        try:
            body = report_html(Path(job.out_dir or ""))
            got = _downloads(job) if body else None
        except (OSError, ValueError) as exc:
            warn("cannot show the report", exc)
            body, got = "", None
        if not body:
            body = "<div class='dz-muted'>No report: the run did not finish (the log says why).</div>"
        return head, tail, body, gr.update(visible=bool(got), value=got), gr.Timer(active=False)

    def choices(selected: str | None) -> Any:
        return gr.update(choices=job_choices(runtime.procs, (KIND,)), value=selected)

    def restore(job_id: str | None) -> tuple[Any, ...]:
        job = find_job(runtime.procs, job_id, (KIND,))
        return (choices(job.id if job else None), *show(job.id if job else None))

    def select(job_id: str | None) -> tuple[Any, ...]:
        return (job_id, *show(job_id))

    def start(*form: Any) -> tuple[Any, ...]:
        from service.procs import new_id

        gen, n_, seed_, src, role_, url, model_, upload, upload_model, evidence_, limit_ = form
        procs = runtime.procs
        job_id = new_id()
        folder = procs.job_dir(KIND, job_id)
        try:
            path = None
            if src == SOURCES[2] and gen != "factchd" and upload:
                name = (upload_model or "").strip() or "recorded"
                if not MODEL_RE.match(name):
                    raise ValueError(f"model name {name!r}: letters, digits and _ . @ + - only")
                path = folder / "answers" / name / Path(upload).name  # a history.json's folder names its model
                path.parent.mkdir(parents=True)
                shutil.copyfile(upload, path)
            argv = build_argv(folder / "run", gen, n_, seed_, src, role_, url, model_, path, evidence_, limit_)
            who = {SOURCES[0]: f"role {role_}", SOURCES[1]: model_, SOURCES[2]: f"{path.parent.name if path else ''}"}
            title = f"{gen} · {'own responses' if gen == 'factchd' else who[src]} · evidence {evidence_}"
            job = procs.start(KIND, argv, out_dir=folder / "run", title=title, job_id=job_id)
        except (ValueError, OSError) as exc:
            shutil.rmtree(folder, ignore_errors=True)
            warn("cannot start the run", exc)
            return (gr.skip(),) * 7
        gr.Info(f"Run {job.id} started; it keeps running if you close the page.")
        return (job.id, choices(job.id), *show(job.id))

    def poll(job_id: str | None) -> tuple[Any, ...]:
        job = find_job(runtime.procs, job_id, (KIND,))
        ended = job is None or job.done
        return (choices(job_id) if job is not None and ended else gr.skip(), *show(job_id, full=ended))

    def stop(job_id: str | None) -> tuple[Any, ...]:
        job = find_job(runtime.procs, job_id, (KIND,))
        if job is None or job.done:
            gr.Info("Pick a running run to cancel.")
        else:
            runtime.procs.cancel(job.id)
            gr.Info(f"Cancelling run {job.id}…")
        return show(job_id, full=False)

    view = [progress, log_box, report, files, timer]
    form = [generator, n, seed, source, role, base_url, model, answers, answers_model, evidence, limit]
    run.click(start, form, [stored, jobs, *view], concurrency_limit=1)
    jobs.input(select, [jobs], [stored, *view])
    timer.tick(poll, [jobs], [jobs, *view], show_progress="hidden")
    cancel.click(stop, [jobs], view)
    refresh.click(restore, [jobs], [jobs, *view])
    boot.tick(lambda j: (*restore(j), gr.Timer(active=False)), [stored], [jobs, *view, boot], show_progress="hidden")


__all__ = ["GENERATORS", "build_argv", "tab"]
