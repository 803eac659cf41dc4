"""The Train tab: generate pairs from the KB, LoRA-tune a Guardian adapter on them, evaluate it.

Each step is a `drowzee` process job (`generate factchd`, `train guardian`, `eval guardian`) with its
log; a trained adapter goes to `<home>/adapters/<name>`, where the local model server finds it, and
appears in the adapter list when its job is done. Training runs on the CPU: keep the steps few.
"""

from __future__ import annotations

import re
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
from service.ui.loop_report import STAGES_CSS, bar_html

if TYPE_CHECKING:
    from service.procs import ProcessJobs, ProcJob
    from service.runtime import Runtime

KINDS = ("generate", "train", "eval")
SPLITS = ("all", "train", "dev", "test")
PAIRS_FILE = "pairs.jsonl"
BASE_PREFIX = "base:"
_STEP = re.compile(r"^\s*\d+%\|[^|\n]*\|\s*(\d+)/(\d+) \[", re.MULTILINE)
"""A tqdm bar line (`  40%|####  | 8/20 [...`); other bars start with a description (`Loading weights: ...`)."""
INTRO = (
    "Make a Truth Guardian of your own: **1** generate FactCHD-style pairs (query, response, FACTUAL /"
    " NON-FACTUAL with the reason) from the knowledge base, **2** LoRA-tune a small base model on them, **3**"
    " measure it on other pairs. Each step is a `drowzee` process with its log; training runs on the CPU, so"
    " a few dozen steps take minutes. A trained adapter appears in the model list below when its job is done."
)


def generate_argv(out: Path, n: float | None, seed: float | None, split: str) -> list[str]:
    """`drowzee generate factchd` arguments (`split` all: no --split)."""
    argv = ["-v", "generate", "factchd", "--n", str(int(n or 0)), "--seed", str(int(seed or 0))]
    return [*argv, *(["--split", split] if split != "all" else []), "--out", str(out)]


def train_argv(
    data: str,
    name: str,
    base: str,
    steps: float | None,
    batch: float | None,
    limit: float | None,
    add_from: list[str] | None = None,
) -> list[str]:
    """`drowzee train guardian` arguments; the adapter goes to `<home>/adapters/<name>` (checked: new, valid).

    `add_from`: benchmark run folders whose confirmed hallucinations join the pairs (`--add-from`).
    """
    from drowzee_core.config import home
    from drowzee_core.llm.local import BASE_MODELS, NAME_RE

    if not data:
        raise ValueError("pick the training pairs (generate them first)")
    if not NAME_RE.match(name):
        raise ValueError(f"adapter name {name!r}: lower case letters, digits and _ . - (starting with a letter)")
    if name in BASE_MODELS or (home() / "adapters" / name).exists():
        raise ValueError(f"an adapter or model named {name!r} exists already; choose another name")
    max_steps = int(steps or 0)
    if max_steps < 1:
        raise ValueError("training steps must be at least 1")
    argv = ["-v", "train", "guardian", "--data", data, "--name", name, "--base", base]
    argv += ["--max-steps", str(max_steps), "--batch-size", str(int(batch or 1)), "--save-steps", str(max_steps)]
    for run in add_from or []:
        argv += ["--add-from", run]
    return argv + (["--limit", str(int(limit))] if limit else [])


def eval_argv(out: Path, data: str, model: str, limit: float | None) -> list[str]:
    """`drowzee eval guardian` arguments: an adapter folder, or `base:NAME` for a base model alone."""
    if not data or not model:
        raise ValueError("pick the evaluation pairs and the model to evaluate")
    which = ["--base", model.removeprefix(BASE_PREFIX)] if model.startswith(BASE_PREFIX) else ["--adapter", model]
    argv = ["-v", "eval", "guardian", "--data", data, *which, "--out", str(out)]
    return argv + (["--limit", str(int(limit))] if limit else [])


def train_fraction(job: ProcJob, log: str) -> float | None:
    """A training job's progress from its log: the last `step/max_steps` of the trainer's bar (None: not yet)."""
    if job.kind != "train" or "--max-steps" not in job.argv:
        return None
    total = job.argv[job.argv.index("--max-steps") + 1]
    steps = [int(m.group(1)) for m in _STEP.finditer(log) if m.group(2) == total]
    return min(1.0, steps[-1] / int(total)) if steps else None


def adapters() -> tuple[list[list[str]], list[tuple[str, str]]]:
    """The adapter table (name, base, trained, steps, loss, folder) and the models to evaluate (label, value)."""
    from drowzee_core.llm.local import BASE_MODELS, find_adapters

    rows, models = [], []
    for a in find_adapters().values():
        t, created = a.manifest.get("training") or {}, str(a.manifest.get("created", ""))[:16].replace("T", " ")
        rows.append([a.name, a.base, created, str(t.get("steps", "")), str(t.get("train_loss", "")), str(a.path)])
        models.append((f"{a.name} (adapter on {a.base})", str(a.path)))
    return rows, models + [(f"{b} (base model, no adapter)", BASE_PREFIX + b) for b in BASE_MODELS]


def datasets(procs: ProcessJobs) -> list[tuple[str, str]]:
    """Pairs written by finished generate jobs: (label, path), newest first."""
    found = []
    for job in procs.list("generate"):
        path = Path(job.out_dir or "") / PAIRS_FILE
        if job.status == "done" and path.is_file():
            n = sum(1 for line in path.open("rb") if line.strip())
            found.append((f"{job.title} · {n} pairs · {job.created.astimezone():%m-%d %H:%M}", str(path)))
    return found


def benchmark_runs(procs: ProcessJobs) -> list[tuple[str, str]]:
    """Finished benchmark runs (their folders), newest first: their findings can join a training run."""
    return [
        (f"{job.title} · {job.created.astimezone():%m-%d %H:%M}", str(job.out_dir))
        for job in procs.list("benchmark")
        if job.status == "done" and job.out_dir and (Path(job.out_dir) / "rows.jsonl").is_file()
    ]


def tab(runtime: Runtime) -> None:
    """The Train tab."""
    from drowzee_core.llm.local import BASE_MODELS

    with gr.Tab("Train", id="train"):
        gr.Markdown(INTRO)
        with gr.Row(equal_height=False):
            with gr.Column(scale=2, min_width=320):
                with gr.Group():
                    gr.Markdown("**1 · Training data** — FactCHD-style pairs from the KB", padding=True)
                    with gr.Row():
                        n = gr.Number(200, label="Pairs (n)", precision=0, minimum=1, elem_id="train-n")
                        seed = gr.Number(0, label="Seed", precision=0, elem_id="train-seed")
                        split = gr.Dropdown(list(SPLITS), value="all", label="Entity split", elem_id="train-split")
                    gen = gr.Button("Generate pairs", elem_id="train-generate")
                with gr.Group():
                    gr.Markdown("**2 · Train a Guardian adapter** (LoRA, on the CPU)", padding=True)
                    data = gr.Dropdown([], label="Training pairs", elem_id="train-data")
                    with gr.Row():
                        name = gr.Textbox(label="Adapter name", placeholder="my-guardian", elem_id="train-name")
                        base = gr.Dropdown(
                            sorted(BASE_MODELS), value="smollm2-135m", label="Base", elem_id="train-base"
                        )
                    with gr.Row():
                        steps = gr.Number(20, label="Steps", precision=0, minimum=1, elem_id="train-steps")
                        batch = gr.Number(4, label="Batch size", precision=0, minimum=1, elem_id="train-batch")
                        limit = gr.Number(0, label="Pairs used (0: all)", precision=0, minimum=0, elem_id="train-limit")
                    findings = gr.Dropdown(
                        [],
                        multiselect=True,
                        label="Also learn from benchmark runs (their confirmed hallucinations; optional)",
                        elem_id="train-add-from",
                    )
                    train = gr.Button("Train adapter", variant="primary", elem_id="train-train")
                with gr.Group():
                    gr.Markdown("**3 · Evaluate** — FactCls, ExpMatch, accuracy, macro-F1", padding=True)
                    eval_data = gr.Dropdown([], label="Evaluation pairs", elem_id="train-eval-data")
                    with gr.Row():
                        model = gr.Dropdown([], label="Model", scale=3, elem_id="train-eval-model")
                        eval_limit = gr.Number(
                            40, label="Pairs (0: all)", precision=0, minimum=0, elem_id="train-eval-limit"
                        )
                    evaluate = gr.Button("Evaluate", elem_id="train-eval")
            with gr.Column(scale=3, min_width=360):
                with gr.Row(equal_height=False):
                    jobs = gr.Dropdown([], label="Jobs", scale=5, elem_id="train-jobs")
                    refresh = gr.Button("Refresh", size="sm", scale=0, min_width=90, elem_id="train-refresh")
                progress = gr.HTML(empty_status("job"), elem_id="train-progress", css_template=STAGES_CSS)
                log_box = gr.Textbox(
                    label="Log", lines=14, max_lines=14, autoscroll=True, buttons=["copy"], elem_id="train-log"
                )
                cancel = gr.Button("Cancel job", variant="stop", elem_id="train-cancel")
                table = gr.Dataframe(
                    headers=["adapter", "base", "trained", "steps", "train loss", "folder"],
                    label="Adapters the local model server serves",
                    interactive=False, wrap=True, column_widths=["15%", "14%", "16%", "10%", "11%", "34%"],
                    elem_id="train-adapters",
                )  # fmt: skip
        timer = gr.Timer(POLL_S, active=False)
        boot = gr.Timer(BOOT_S)  # once the tab is shown: its stored job id is readable then
        stored = gr.BrowserState(None, storage_key="drowzee-train-job", secret=BROWSER_SECRET)

    def lists() -> tuple[Any, ...]:
        """The adapter table, the pairs of both dropdowns and the models to evaluate."""
        try:
            rows, models = adapters()
        except Exception as exc:  # a broken adapter folder must not break the tab
            warn("cannot list the adapters", exc)
            rows, models = [], []
        sets = datasets(runtime.procs)
        return (
            rows,
            gr.update(choices=sets),
            gr.update(choices=sets),
            gr.update(choices=models),
            gr.update(choices=benchmark_runs(runtime.procs)),
        )

    def show(job_id: str | None) -> tuple[Any, ...]:
        """progress, log, timer of one job."""
        job = find_job(runtime.procs, job_id, KINDS)
        if job is None:
            return empty_status("job"), "", gr.Timer(active=False)
        tail = runtime.procs.log_tail(job.id, LOG_BYTES)
        head = status_html(job, tail)
        frac = 1.0 if job.status == "done" else train_fraction(job, tail)
        if frac is not None and job.kind == "train":
            head += bar_html(frac)
        return head, tail, gr.Timer(active=not job.done)

    def choices(selected: str | None) -> Any:
        return gr.update(choices=job_choices(runtime.procs, KINDS), value=selected)

    def restore(job_id: str | None) -> tuple[Any, ...]:
        job = find_job(runtime.procs, job_id, KINDS)
        return (choices(job.id if job else None), *show(job.id if job else None), *lists())

    def launch(kind: str, build: Any, title: str) -> tuple[Any, ...]:
        from service.procs import new_id

        procs, job_id = runtime.procs, new_id()
        folder = procs.job_dir(kind, job_id)
        try:
            argv, out = build(folder)
            job = procs.start(kind, argv, out_dir=out, title=title, job_id=job_id)
        except (ValueError, OSError) as exc:
            warn(f"cannot start the {kind} job", exc)
            return (gr.skip(),) * 5
        gr.Info(f"{kind.capitalize()} job {job.id} started.")
        return (job.id, choices(job.id), *show(job.id))

    def start_generate(n_: float, seed_: float, split_: str) -> tuple[Any, ...]:
        title = f"factchd · n={int(n_ or 0)} · seed {int(seed_ or 0)}" + (
            f" · {split_} split" if split_ != "all" else ""
        )
        return launch("generate", lambda f: (generate_argv(f / PAIRS_FILE, n_, seed_, split_), f), title)

    def start_train(*form: Any) -> tuple[Any, ...]:
        data_, name_, base_, steps_, batch_, limit_, runs_ = form
        name_ = (name_ or "").strip()
        from drowzee_core.config import home

        out = home() / "adapters" / name_
        title = f"train {name_} on {base_}" + (f" + {len(runs_)} benchmark run(s)" if runs_ else "")
        return launch("train", lambda f: (train_argv(data_, name_, base_, steps_, batch_, limit_, runs_), out), title)

    def start_eval(data_: str, model_: str, limit_: float) -> tuple[Any, ...]:
        who = (model_ or "").removeprefix(BASE_PREFIX).rstrip("/").rsplit("/", 1)[-1]
        return launch("eval", lambda f: (eval_argv(f / "judged.jsonl", data_, model_, limit_), f), f"eval {who}")

    def poll(job_id: str | None) -> tuple[Any, ...]:
        job = find_job(runtime.procs, job_id, KINDS)
        if job is None or not job.done:
            return (gr.skip(), *show(job_id), *(gr.skip(),) * 5)
        if job.kind == "train" and job.status == "done":
            gr.Info(f"{job.title}: done. The adapter is in the model list.")
        return (choices(job_id), *show(job_id), *lists())

    def stop(job_id: str | None) -> tuple[Any, ...]:
        job = find_job(runtime.procs, job_id, KINDS)
        if job is None or job.done:
            gr.Info("Pick a running job to cancel.")
        else:
            runtime.procs.cancel(job.id)
            gr.Info(f"Cancelling job {job.id}…")
        return show(job_id)

    view, listed = [progress, log_box, timer], [table, data, eval_data, model, findings]
    started = [stored, jobs, *view]
    gen.click(start_generate, [n, seed, split], started, concurrency_limit=1)
    train.click(start_train, [data, name, base, steps, batch, limit, findings], started, concurrency_limit=1)
    evaluate.click(start_eval, [eval_data, model, eval_limit], started, concurrency_limit=1)
    jobs.input(lambda j: (j, *show(j)), [jobs], [stored, *view])
    timer.tick(poll, [jobs], [jobs, *view, *listed], show_progress="hidden")
    cancel.click(stop, [jobs], view)
    refresh.click(restore, [jobs], [jobs, *view, *listed])
    boot.tick(
        lambda j: (*restore(j), gr.Timer(active=False)), [stored], [jobs, *view, *listed, boot], show_progress="hidden"
    )


__all__ = ["KINDS", "adapters", "benchmark_runs", "eval_argv", "generate_argv", "tab", "train_argv", "train_fraction"]
