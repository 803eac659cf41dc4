"""Pieces the Benchmark and Train tabs share to show process jobs (`service.procs`)."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

import gradio as gr

if TYPE_CHECKING:
    from service.procs import ProcessJobs, ProcJob

log = logging.getLogger(__name__)

POLL_S = 2.0
"""Seconds between the progress polls of a watched job."""
LOG_BYTES = 12_000
"""How much of a job's log the tabs show (its end)."""
BOOT_S = 0.5
"""Delay of a tab's first look at its stored job id. A tab's components mount when it is first shown, and a
`gr.BrowserState` reads the browser's storage on mounting, so a page-load event would see no stored id."""
BROWSER_SECRET = "drowzee-ui-jobs"
"""Key of the browser-stored job id: it only obfuscates a job id, and a fixed key lets a stored id
survive a server restart (a random one would not decrypt after it)."""
ICONS = {"queued": "&#9203;", "running": "&#9654;", "done": "&#10003;", "failed": "&#10007;", "cancelled": "&#9632;"}
TEXT_ICONS = {"queued": "…", "running": "▶", "done": "✓", "failed": "✗", "cancelled": "■"}
COLOURS = {"queued": "#6b7280", "running": "#4f46e5", "done": "#059669", "failed": "#dc2626", "cancelled": "#92400e"}


def job_label(job: ProcJob) -> str:
    """A job as one dropdown line: local time, title, status."""
    when = job.created.astimezone().strftime("%m-%d %H:%M")
    return f"{when} · {job.title or job.kind} · {TEXT_ICONS[job.status]} {job.status}"


def job_choices(procs: ProcessJobs, kinds: Sequence[str]) -> list[tuple[str, str]]:
    """(label, id) of the jobs of `kinds`, newest first."""
    return [(job_label(j), j.id) for j in procs.list(kinds)]


def last_error(log: str) -> str | None:
    """What a failed command said last: its `error:` line (the CLI's message), else a traceback's last line."""
    lines = [line.strip() for line in log.splitlines() if line.strip()]
    said = [line for line in lines if line.startswith("error:")]
    if said:
        return said[-1].removeprefix("error:").strip()
    return lines[-1] if lines and "Traceback (most recent call last)" in log else None


def status_html(job: ProcJob, log: str = "") -> str:
    """The job's status line: coloured status, title, timing, the note, the command; a failed job's error."""
    colour = COLOURS[job.status]
    start = job.started or job.created
    end = job.finished
    took = f" in {(end - start).total_seconds():.0f} s" if end and job.started else ""
    note = f" — {escape(job.note)}" if job.note else ""
    error = last_error(log) if job.status == "failed" else None
    shown = (
        f"<div style='color:#b91c1c;background:#fef2f2;border:1px solid #fecaca;border-radius:6px;"
        f"padding:4px 8px;margin:4px 0'>{escape(error)}</div>"
        if error
        else ""
    )
    return (
        f"<div><span style='color:{colour};font-weight:600'>{ICONS[job.status]} {job.status}</span>{took}"
        f" · {escape(job.title or job.kind)}{note}</div>"
        f"{shown}<div class='dz-muted' style='margin:2px 0 6px'><code>{escape(job.command)}</code></div>"
    )


def empty_status(what: str) -> str:
    """The status area when no job is selected."""
    return f"<div class='dz-muted'>No {escape(what)} selected. Start one, or pick an earlier one from the list.</div>"


def warn(what: str, exc: BaseException) -> None:
    """Show an error in the UI as a toast (never a crash) and log it."""
    log.warning("%s: %s", what, exc)
    gr.Warning(f"{what}: {exc}")


def find_job(procs: ProcessJobs, job_id: str | None, kinds: Sequence[str]) -> ProcJob | None:
    """The job `job_id` if it exists and is of `kinds` (a stale or foreign browser-stored id gives None)."""
    from service.procs import ProcJobError

    if not job_id:
        return None
    try:
        job = procs.get(job_id)
    except ProcJobError:
        return None
    return job if job.kind in kinds else None


__all__ = [
    "BOOT_S",
    "BROWSER_SECRET",
    "LOG_BYTES",
    "POLL_S",
    "empty_status",
    "find_job",
    "job_choices",
    "job_label",
    "last_error",
    "status_html",
    "warn",
]
