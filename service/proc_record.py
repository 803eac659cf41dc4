"""The record of a process job (`ProcJob`, its `job.json`) and the pure helpers around it.

`service.procs.ProcessJobs` starts and watches the processes; this module holds what a job
is on disk, its ids, the liveness check of a recorded pid, and the cleaning of a log for display.
"""

from __future__ import annotations

import os
import re
import secrets
import shlex
from datetime import UTC, datetime
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict

from service.settings import ServiceError

KINDS = ("benchmark", "generate", "train", "eval")
"""What a process job runs: `drowzee benchmark`, `generate`, `train guardian`, `eval guardian`."""
Status = Literal["queued", "running", "done", "failed", "cancelled"]
FINISHED: tuple[Status, ...] = ("done", "failed", "cancelled")
ID_RE = re.compile(r"^[0-9]{8}-[0-9]{6}-[0-9a-f]{6}$")
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


class ProcJobError(ServiceError):
    """An unknown or malformed job id or kind, or a job that cannot be started."""


class ProcJob(BaseModel):
    """One process job as recorded in its `job.json`."""

    model_config = ConfigDict(extra="forbid")

    id: str
    kind: str
    argv: list[str]
    """The `drowzee` arguments (without the interpreter)."""
    title: str = ""
    created: datetime
    started: datetime | None = None
    finished: datetime | None = None
    status: Status = "queued"
    returncode: int | None = None
    pid: int | None = None
    pid_created: float | None = None
    """The process's start time (`/proc`), to tell our child from a later process that reuses its pid."""
    log: str
    out_dir: str | None = None
    note: str | None = None
    """Why it failed or was cancelled when the exit status does not say (restart, shutdown, launch error)."""

    @property
    def done(self) -> bool:
        """Whether the job has finished (done, failed or cancelled)."""
        return self.status in FINISHED

    @property
    def command(self) -> str:
        """The job's command line as a user would type it."""
        return shlex.join(["drowzee", *self.argv])


def now() -> datetime:
    """The current time (UTC)."""
    return datetime.now(UTC)


def new_id() -> str:
    """A fresh job id: UTC time and 6 random hex digits (sorts by creation)."""
    return f"{now():%Y%m%d-%H%M%S}-{secrets.token_hex(3)}"


def proc_state(pid: int) -> tuple[str, float] | None:
    """State and start time (clock ticks after boot) of process `pid` from `/proc`; None when it is gone."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return fields[0], float(fields[19])


def alive(pid: int, created: float | None) -> bool:
    """Whether process `pid` still runs and is the one that started at `created` (not a reused pid)."""
    if Path("/proc/self/stat").exists():
        stat = proc_state(pid)
        return stat is not None and stat[0] not in "ZX" and (created is None or stat[1] == created)
    try:  # no /proc: whether the pid exists at all
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_log(raw: str) -> str:
    """Log text as shown: ANSI codes removed, progress bars (carriage-return rewrites) reduced to their last state."""
    lines = (_ANSI.sub("", line).rstrip("\r").rsplit("\r", 1)[-1] for line in raw.split("\n"))
    return "\n".join(lines)


__all__ = [
    "FINISHED",
    "ID_RE",
    "KINDS",
    "ProcJob",
    "ProcJobError",
    "Status",
    "alive",
    "clean_log",
    "new_id",
    "now",
    "proc_state",
]
