"""Benchmark and training jobs: each a `drowzee ...` command in its own process, tracked on disk.

janus hosts one Prolog per process and the server's is busy, so these jobs run as child processes
(each in its own process group). A job lives in `jobs_dir/<kind>/<id>/`: `job.json` (the `ProcJob`
record, written atomically on every change) and `log.txt` (the command's stdout and stderr). At most
`max_running` run at once; later ones wait as `queued`. A monitor thread records each exit.

After a server restart the records are read back: a job whose process is gone without a recorded
exit status is `failed` with a note saying so (its exit status is unknown); one still running (the
server died, the child did not) is watched again and can be cancelled. `close()` stops them all.
"""

from __future__ import annotations

import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path

from pydantic import ValidationError

from drowzee_core.records.provenance import atomic_write_text
from service.proc_record import (
    FINISHED,
    ID_RE,
    KINDS,
    ProcJob,
    ProcJobError,
    Status,
    alive,
    clean_log,
    new_id,
    now,
    proc_state,
)

log = logging.getLogger(__name__)

DRIVER = "import sys; from cli.main import app; sys.exit(app(prog_name='drowzee'))"
DEFAULT_COMMAND: tuple[str, ...] = (sys.executable, "-c", DRIVER)
"""`drowzee` in this interpreter (the CLI module has no `__main__` guard, so `-m` would not run it)."""
GRACE_S = 10.0
"""Seconds a cancelled job gets to exit after SIGTERM before SIGKILL."""


class ProcessJobs:
    """Start, watch, list and cancel `drowzee` child processes whose records live in `jobs_dir`."""

    def __init__(
        self, jobs_dir: Path, command: Sequence[str] = DEFAULT_COMMAND, max_running: int = 2, poll_s: float = 1.0
    ) -> None:
        """Read the jobs of earlier server runs and start the monitor thread.

        Args:
            jobs_dir: Root folder; jobs live in `jobs_dir/<kind>/<id>/`.
            command: What runs before each job's argv (tests inject a fast fake).
            max_running: Jobs running at once; later ones wait as `queued`.
            poll_s: Seconds between the monitor's checks.

        """
        self.jobs_dir = Path(jobs_dir)
        self.command = list(command)
        self.max_running = max_running
        self._lock = threading.RLock()
        self._jobs: dict[str, ProcJob] = {}
        self._procs: dict[str, subprocess.Popen[bytes]] = {}
        self._adopted: set[str] = set()
        self._cancelling: dict[str, float] = {}
        self._load()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, args=(poll_s,), name="drowzee-procs", daemon=True)
        self._thread.start()

    # ------------------------------------------------------------------------------------------ public
    def job_dir(self, kind: str, job_id: str) -> Path:
        """The folder of job `job_id` of `kind` (checked: no path escapes `jobs_dir`)."""
        if kind not in KINDS:
            raise ProcJobError(f"unknown job kind {kind!r}; kinds are {', '.join(KINDS)}")
        if not ID_RE.match(job_id):
            raise ProcJobError(f"malformed job id {job_id!r}")
        return self.jobs_dir / kind / job_id

    def start(
        self, kind: str, argv: Sequence[str], out_dir: Path | None = None, title: str = "", job_id: str | None = None
    ) -> ProcJob:
        """Queue `drowzee *argv` as a job of `kind`; it starts at once when fewer than `max_running` run.

        `job_id` lets the caller prepare files in `job_dir(kind, job_id)` first (take it from `new_id()`).
        """
        job_id = job_id or new_id()
        folder = self.job_dir(kind, job_id)
        with self._lock:
            if job_id in self._jobs or (folder / "job.json").exists():
                raise ProcJobError(f"job {job_id} exists already")
            folder.mkdir(parents=True, exist_ok=True)
            job = ProcJob(
                id=job_id,
                kind=kind,
                argv=[str(a) for a in argv],
                title=title,
                created=now(),
                log=str(folder / "log.txt"),
                out_dir=str(out_dir) if out_dir is not None else None,
            )
            self._save(job)
            self._tick()
            return self._jobs[job_id]

    def get(self, job_id: str) -> ProcJob:
        """The job's current record (`ProcJobError` for a malformed or unknown id)."""
        if not ID_RE.match(job_id):
            raise ProcJobError(f"malformed job id {job_id!r}")
        with self._lock:
            self._tick()
            if job_id not in self._jobs:
                raise ProcJobError(f"no job {job_id}")
            return self._jobs[job_id]

    def list(self, kind: str | Sequence[str] | None = None) -> list[ProcJob]:
        """Jobs of `kind` (a kind, several, or all), newest first."""
        kinds = (kind,) if isinstance(kind, str) else tuple(kind or KINDS)
        with self._lock:
            self._tick()
            jobs = [j for j in self._jobs.values() if j.kind in kinds]
        return sorted(jobs, key=lambda j: j.created, reverse=True)

    def log_tail(self, job_id: str, n_bytes: int = 20_000) -> str:
        """The last `n_bytes` of the job's log, cleaned (`clean_log`); partial first line dropped."""
        path = Path(self.get(job_id).log)
        try:
            with path.open("rb") as fh:
                size = fh.seek(0, os.SEEK_END)
                fh.seek(max(0, size - n_bytes))
                raw = fh.read().decode("utf-8", errors="replace")
        except FileNotFoundError:
            return ""
        if size > n_bytes:
            raw = raw.split("\n", 1)[-1]
        return clean_log(raw)

    def cancel(self, job_id: str) -> ProcJob:
        """Cancel a job: a queued one at once, a running one by SIGTERM to its process group (SIGKILL later)."""
        with self._lock:
            job = self.get(job_id)
            if job.status == "queued":
                self._finish(job, None, "cancelled", "cancelled before it started")
            elif job.status == "running" and job_id not in self._cancelling:
                self._cancelling[job_id] = time.monotonic()
                self._signal(job, signal.SIGTERM)
                self._save(job.model_copy(update={"note": "cancelling"}))
            return self._jobs[job_id]

    def running(self) -> int:
        """Jobs running now."""
        with self._lock:
            return sum(j.status == "running" for j in self._jobs.values())

    def close(self) -> None:
        """Stop the monitor and every unfinished job (SIGTERM, then SIGKILL after a few seconds)."""
        self._stop.set()
        self._thread.join(timeout=5)
        with self._lock:
            for job in [j for j in self._jobs.values() if not j.done]:
                if job.status == "queued":
                    self._finish(job, None, "cancelled", "the server shut down before it started")
                else:
                    self._cancelling.setdefault(job.id, time.monotonic())
                    self._signal(job, signal.SIGTERM)
            deadline = time.monotonic() + 5
            while any(not j.done for j in self._jobs.values()) and time.monotonic() < deadline:
                self._tick(launch=False)
                time.sleep(0.1)
            for job in [j for j in self._jobs.values() if not j.done]:
                self._signal(job, signal.SIGKILL)
                self._finish(job, None, "cancelled", "the server shut down")

    # ------------------------------------------------------------------------------------------ internals
    def _save(self, job: ProcJob) -> None:
        self._jobs[job.id] = job
        atomic_write_text(Path(job.log).parent / "job.json", job.model_dump_json(indent=2) + "\n")

    def _load(self) -> None:
        for path in sorted(self.jobs_dir.glob("*/*/job.json")):
            try:
                job = ProcJob.model_validate_json(path.read_text(encoding="utf-8"))
            except (OSError, ValidationError) as exc:
                log.warning("skipping unreadable job record %s: %s", path, exc)
                continue
            if job.kind not in KINDS or not ID_RE.match(job.id) or path.parent != self.jobs_dir / job.kind / job.id:
                log.warning("skipping job record %s: its kind or id does not match its folder", path)
                continue
            self._jobs[job.id] = job
            if job.status == "queued":
                self._finish(job, None, "failed", "the server restarted before it started; run it again")
            elif job.status == "running":
                if job.pid and alive(job.pid, job.pid_created):
                    self._adopted.add(job.id)
                    log.info("job %s (pid %d) outlived the last server; watching it again", job.id, job.pid)
                else:
                    self._finish(job, None, "failed", "the server restarted while it ran; its exit status is unknown")

    def _watch(self, poll_s: float) -> None:
        while not self._stop.wait(poll_s):
            try:
                with self._lock:
                    self._tick()
            except Exception:  # the monitor must outlive one bad check
                log.exception("process job monitor")

    def _tick(self, launch: bool = True) -> None:
        """Record exits, escalate overdue cancels, start queued jobs while slots are free (lock held)."""
        for job_id, proc in list(self._procs.items()):
            rc = proc.poll()
            if rc is not None:
                del self._procs[job_id]
                self._exited(self._jobs[job_id], rc)
        for job_id in list(self._adopted):
            job = self._jobs[job_id]
            if job.pid is None or not alive(job.pid, job.pid_created):
                self._adopted.discard(job_id)
                cancelled = job_id in self._cancelling
                note = "the server restarted while it ran; its exit status is unknown"
                self._finish(self._jobs[job_id], None, "cancelled" if cancelled else "failed", note)
        for job_id, since in list(self._cancelling.items()):
            job = self._jobs[job_id]
            if job.done:
                del self._cancelling[job_id]
            elif time.monotonic() - since > GRACE_S:
                self._signal(job, signal.SIGKILL)
        if not launch:
            return
        queued = sorted((j for j in self._jobs.values() if j.status == "queued"), key=lambda j: j.created)
        for job in queued[: max(0, self.max_running - self.running())]:
            self._launch(job)

    def _launch(self, job: ProcJob) -> None:
        env = os.environ | {"PYTHONUNBUFFERED": "1", "TERM": "dumb", "COLUMNS": "160"}
        try:
            with Path(job.log).open("ab") as logfile:  # the child keeps its own copy of the descriptor
                logfile.write(f"$ {job.command}\n".encode())
                logfile.flush()
                proc = subprocess.Popen(  # our interpreter and the CLI's arguments, no shell
                    [*self.command, *job.argv],
                    stdin=subprocess.DEVNULL,
                    stdout=logfile,
                    stderr=subprocess.STDOUT,
                    env=env,
                    start_new_session=True,
                )
        except OSError as exc:
            log.warning("job %s did not start: %s", job.id, exc)
            self._finish(job, None, "failed", f"could not start: {exc}")
            return
        self._procs[job.id] = proc
        stat = proc_state(proc.pid)
        self._save(
            job.model_copy(
                update={
                    "status": "running",
                    "started": now(),
                    "pid": proc.pid,
                    "pid_created": stat[1] if stat is not None else None,
                }
            )
        )
        log.info("job %s started (pid %d): %s", job.id, proc.pid, job.command)

    def _exited(self, job: ProcJob, rc: int) -> None:
        if job.id in self._cancelling:
            self._finish(job, rc, "cancelled", None)
        elif rc == 0:
            self._finish(job, rc, "done", None)
        else:
            why = f"killed by signal {-rc}" if rc < 0 else f"exit status {rc}"
            self._finish(job, rc, "failed", f"{why}; see the log")

    def _finish(self, job: ProcJob, rc: int | None, status: Status, note: str | None) -> None:
        update = {"status": status, "returncode": rc, "finished": now(), "note": note}
        self._save(job.model_copy(update=update))
        log.info("job %s %s%s", job.id, status, f" ({note})" if note else "")

    def _signal(self, job: ProcJob, sig: signal.Signals) -> None:
        """Signal the job's process group (its pid leads it: each job starts a new session)."""
        if job.pid is None or (job.id not in self._procs and not alive(job.pid, job.pid_created)):
            return
        try:
            os.killpg(job.pid, sig)
        except ProcessLookupError:
            pass
        except PermissionError as exc:
            log.warning("cannot signal job %s (pid %d): %s", job.id, job.pid, exc)


__all__ = ["DEFAULT_COMMAND", "FINISHED", "KINDS", "ProcJob", "ProcJobError", "ProcessJobs", "clean_log", "new_id"]
