"""Batch jobs: an uploaded file checked on the batch engine in this process, on the server's verifier.

Each job is a folder `jobs_dir/batch/<id>/` holding the upload (under its own name, made safe), the job record
(`job.json`, rewritten atomically) and the results ledger (`results.jsonl`, one record per input row,
fsynced as each is final; `agents.batch.engine.Ledger`). A job survives a page reload (its id is all the UI
needs) and a server restart: `resume_unfinished` continues every job that was running, after the
rows already in its ledger. On shutdown, running jobs stop taking new rows and keep what they wrote.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import threading
import uuid
from collections.abc import Callable, Iterable, Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from agents.batch.engine import Ledger, Tally, Task, Verify, parse_columns, plan, read_rows, run_local, scan
from agents.batch.rows import BatchError, Record
from drowzee_core.records.provenance import input_files, provenance, write_sidecar
from service.errors import BadInputError, BusyError, RefusedError
from service.settings import ServiceSettings
from service.upload import inspect_upload, suffix_of

log = logging.getLogger(__name__)
JOB_ID = re.compile(r"^[0-9a-f]{12}$")
SAFE_NAME = re.compile(r"[^A-Za-z0-9_-]+")
Status = Literal["queued", "running", "done", "failed"]


class UnknownJobError(RefusedError):
    """No job has that id."""

    status = 404


class BatchJob(BaseModel):
    """A batch job as stored in `job.json`."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Job id (12 hex digits).")
    filename: str = Field(description="The uploaded file's name.")
    input: str = Field(description="The upload's file name in the job folder (row errors cite it).")
    created: datetime = Field(description="When the job was created (UTC).")
    status: Status = Field(description="queued / running / done / failed.")
    total: int = Field(description="Rows in the upload.")
    columns: dict[str, str] = Field(description="Engine field -> the upload's column.")
    finished: datetime | None = Field(default=None, description="When the job ended.")
    error: str | None = Field(default=None, description="Why the job failed, when it did.")


class BatchStatus(BaseModel):
    """A job's progress, counts, metrics (when rows carry labels) and a page of its results."""

    model_config = ConfigDict(extra="forbid")

    job: BatchJob
    done: int = Field(description="Rows with a record so far (verdicts and error rows).")
    counts: dict[str, int] = Field(description="FACTUAL / NON-FACTUAL / error / degraded counts.")
    decisions: dict[str, int] = Field(
        default_factory=dict,
        description="Verdicts per decision: supported / refuted / unsupported / undecided"
        " (`unknown (older verdict)` for verdicts that record none).",
    )
    metrics: dict[str, Any] | None = Field(
        description="FactCls, accuracy, macro-F1 with intervals, and the per-decision figures (coverage, accuracy"
        " on decided and undecided rows beside the constant baselines), when labelled."
    )
    results: list[dict[str, Any]] = Field(description="Records `offset`..`offset+limit` of the results file.")
    next_offset: int | None = Field(description="Offset of the next page, or None at the end.")


class BatchJobs:
    """Creates, runs, resumes and reports batch jobs; at most `max_jobs` run at once."""

    def __init__(self, settings: ServiceSettings, verify: Callable[[], Verify]) -> None:
        self.settings = settings
        self.root = settings.jobs_dir / "batch"
        self._verify = verify
        self._lock = threading.Lock()
        self._live: dict[str, Ledger] = {}
        self._threads: dict[str, threading.Thread] = {}
        self._stop = threading.Event()

    # ------------------------------------------------------------------------------------------ storage
    def folder(self, job_id: str) -> Path:
        """The job's folder, or `UnknownJobError` (ids are checked before they touch a path)."""
        if not JOB_ID.match(job_id) or not (self.root / job_id / "job.json").is_file():
            raise UnknownJobError(f"no batch job {job_id!r}")
        return self.root / job_id

    def get(self, job_id: str) -> BatchJob:
        """The job's record."""
        return BatchJob.model_validate_json((self.folder(job_id) / "job.json").read_text(encoding="utf-8"))

    def _save(self, job: BatchJob) -> None:
        path = self.root / job.id / "job.json"
        tmp = path.with_suffix(".tmp")
        tmp.write_text(job.model_dump_json(indent=1), encoding="utf-8")
        tmp.replace(path)

    def results_path(self, job_id: str) -> Path:
        """The job's results ledger (it may not exist yet)."""
        return self.folder(job_id) / "results.jsonl"

    def jobs(self) -> list[BatchJob]:
        """Every job, newest first."""
        if not self.root.is_dir():
            return []
        jobs = [self.get(p.name) for p in self.root.iterdir() if JOB_ID.match(p.name) and (p / "job.json").is_file()]
        return sorted(jobs, key=lambda j: j.created, reverse=True)

    # ------------------------------------------------------------------------------------------ lifecycle
    def running(self) -> int:
        """Jobs running now."""
        with self._lock:
            return sum(t.is_alive() for t in self._threads.values())

    def create(
        self, upload: Path, filename: str, columns: str | None = None, evidence_field: str | None = None
    ) -> BatchJob:
        """Check the upload, move it into a new job folder and start the job (`upload` is consumed)."""
        suffix = suffix_of(filename)
        try:
            cols = parse_columns(columns, evidence_field)
        except BatchError as exc:
            raise BadInputError(str(exc).replace("--columns", "columns")) from None
        staged = upload.with_suffix(suffix) if upload.suffix != suffix else upload
        if staged != upload:
            upload.replace(staged)
        info = inspect_upload(staged, cols, self.settings)
        if self.running() >= self.settings.max_jobs:
            raise BusyError(
                f"{self.settings.max_jobs} batch jobs are running; wait for one to finish or raise"
                f" {ServiceSettings.env_name('max_jobs')}",
                "max_jobs",
            )
        name = Path(filename).name
        safe = SAFE_NAME.sub("_", Path(name).stem)[:80].strip("._") or "input"
        job = BatchJob(
            id=uuid.uuid4().hex[:12],
            filename=name,
            input=safe + suffix,
            created=datetime.now(UTC),
            status="queued",
            total=info.rows,
            columns=cols,
        )
        folder = self.root / job.id
        folder.mkdir(parents=True)
        shutil.move(staged, folder / job.input)
        self._save(job)
        self._start(job)
        return job

    def _start(self, job: BatchJob) -> None:
        thread = threading.Thread(target=self._run, args=(job,), name=f"drowzee-batch-{job.id}", daemon=True)
        with self._lock:
            self._threads[job.id] = thread
        thread.start()

    def _until_stopped(self, items: Iterable[Task | Record]) -> Iterator[Task | Record]:
        for item in items:
            if self._stop.is_set():
                return
            yield item

    def _run(self, job: BatchJob) -> None:
        folder = self.root / job.id
        source = folder / job.input
        out = folder / "results.jsonl"
        job = job.model_copy(update={"status": "running"})
        self._save(job)
        try:
            with Ledger(out, resume=True) as ledger:
                with self._lock:
                    self._live[job.id] = ledger
                items = plan(read_rows(source), ledger.done, job.columns)
                run_local(self._until_stopped(items), self._verify(), ledger.write, self.settings.batch_concurrency)
                counts = dict(ledger.tally.counts)
            if self._stop.is_set() and sum(counts.get(k, 0) for k in ("FACTUAL", "NON-FACTUAL", "error")) < job.total:
                log.info("batch job %s stopped at shutdown; it resumes when the server starts again", job.id)
                return
            params = {"columns": job.columns, "filename": job.filename, "job": job.id}
            write_sidecar(out, provenance("service.batch", params, inputs=input_files([source]), counts=counts))
            job = job.model_copy(update={"status": "done", "finished": datetime.now(UTC)})
        except Exception as exc:  # a job's failure is recorded on the job, never lost in a thread
            log.exception("batch job %s failed", job.id)
            job = job.model_copy(update={"status": "failed", "finished": datetime.now(UTC), "error": str(exc)})
        finally:
            with self._lock:
                self._live.pop(job.id, None)
        self._save(job)

    def resume_unfinished(self) -> list[str]:
        """Start again every job that was queued or running when the server stopped; their ids."""
        resumed = [j for j in self.jobs() if j.status in ("queued", "running")]
        for job in resumed:
            log.info("resuming batch job %s (%s)", job.id, job.filename)
            self._start(job)
        return [j.id for j in resumed]

    def close(self, wait_s: float = 30.0) -> None:
        """Stop taking new rows; wait up to `wait_s` for rows in flight (their records are kept)."""
        self._stop.set()
        with self._lock:
            threads = list(self._threads.values())
        for t in threads:
            t.join(timeout=wait_s)

    # ------------------------------------------------------------------------------------------ reading
    def tally(self, job_id: str) -> Tally:
        """Counts and labels over the job's results so far."""
        with self._lock:
            live = self._live.get(job_id)
            if live is not None:
                return live.tally
        out = self.results_path(job_id)
        return scan(out).tally if out.exists() else Tally()

    def status(self, job_id: str, offset: int = 0, limit: int = 50) -> BatchStatus:
        """Progress, counts, metrics and records `offset`..`offset+limit` (in the order they were written)."""
        job = self.get(job_id)
        tally = self.tally(job_id)
        page: list[dict[str, Any]] = []
        more = False
        out = self.results_path(job_id)
        if out.exists():
            with out.open(encoding="utf-8") as fh:
                for n, line in enumerate(fh):
                    if n < offset or not line.endswith("\n"):
                        continue
                    if len(page) == limit:
                        more = True
                        break
                    page.append(json.loads(line))
        return BatchStatus(
            job=job,
            done=tally.rows,
            counts=dict(tally.counts),
            decisions=dict(tally.decisions),
            metrics=tally.metrics(),
            results=page,
            next_offset=offset + len(page) if more else None,
        )


__all__ = ["BatchJob", "BatchJobs", "BatchStatus", "UnknownJobError"]
