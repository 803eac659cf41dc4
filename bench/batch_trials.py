"""The records and single-run steps of `bench/batch_faults.py`: kill plans, watching a run, tearing its output.

`batch_faults.py` drives the trials (kill, resume, compare) and reports them; this module holds what
one run and one trial are made of, so each file keeps to one concern.
"""

from __future__ import annotations

import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.batch_common import ROOT, Comparison, batch_cmd
from bench.process_tree import start

POLL_S = 0.02


@dataclass(frozen=True)
class Timing:
    """The reference run's pace: seconds to its first output line and per further row."""

    first_line_s: float
    per_row_s: float
    total_s: float


@dataclass(frozen=True)
class Plan:
    """When to kill one run: after `value` seconds, or once the output has `value` complete lines."""

    kind: Literal["delay", "lines"]
    value: float

    def show(self) -> str:
        """`3.2s` or `L17`."""
        return f"{self.value:.1f}s" if self.kind == "delay" else f"L{int(self.value)}"


@dataclass
class Kill:
    """One SIGKILL and what it left behind.

    Attributes:
        attempt: Which run of the trial was killed (1 is the fresh run, later ones resume).
        plan: The planned moment (`Plan.show`).
        seconds: Seconds the run had run when it was killed.
        lines: Complete output lines after the kill.
        torn_bytes: Bytes after the last newline that the kill left (a line cut mid-write).
        injected_bytes: Bytes of a cut line appended after the kill (`--tear-prob`).
        children: Descendants of the run at the kill.
        outside_group: Those of them in another process group (out of the SIGKILL's reach).
        orphans_left: Those still alive after `--orphan-grace` seconds (then killed).

    """

    attempt: int
    plan: str
    seconds: float
    lines: int
    torn_bytes: int
    injected_bytes: int
    children: int
    outside_group: int
    orphans_left: int


@dataclass
class Trial:
    """One trial: its kills, the runs it took, and how its final output compares with the reference."""

    index: int
    kills: list[Kill] = field(default_factory=list)
    attempts: int = 0
    rc: int | None = None
    hung: bool = False
    tails: int = 0
    repaired: int = 0
    bad_lines: int = 0
    seconds: float = 0.0
    comparison: Comparison = field(default_factory=Comparison)

    def ok(self, reference_rc: int) -> bool:
        """Every row once, same records, all cut tails repaired, same exit code."""
        return (
            self.comparison.ok
            and not self.hung
            and not self.bad_lines
            and self.repaired == self.tails
            and self.rc == reference_rc
        )


@dataclass(frozen=True)
class TrialContext:
    """What every trial shares: the input, the reference, the knobs."""

    inputs: Path
    workdir: Path
    extra: list[str]
    rows: int
    reference: dict[int, dict[str, Any]]
    reference_lines: dict[int, bytes]
    pace: Timing
    max_kills: int
    tear_prob: float
    orphan_grace: float
    timeout: float


# --- one run ------------------------------------------------------------------------------------------


def lines_in(out: Path) -> int:
    """Complete lines in the output file so far."""
    try:
        return out.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def watch(proc: subprocess.Popen[bytes], out: Path, plan: Plan | None, timeout: float) -> str:
    """Wait until the run exits (`exited`), its plan says kill (`kill`) or it runs past `timeout` (`hung`)."""
    began = time.monotonic()
    while proc.poll() is None:
        spent = time.monotonic() - began
        if spent > timeout:
            return "hung"
        if plan and (spent >= plan.value if plan.kind == "delay" else lines_in(out) >= plan.value):
            return "kill"
        time.sleep(POLL_S)
    return "exited"


def reference_run(inputs: Path, out: Path, extra: list[str], workdir: Path) -> tuple[int, Timing]:
    """The uninterrupted run: its exit code and pace."""
    proc = start(batch_cmd(inputs, out, extra), workdir / "reference.log", ROOT)
    began = time.monotonic()
    first: float | None = None
    while proc.poll() is None:
        if first is None and lines_in(out) > 0:
            first = time.monotonic() - began
        time.sleep(POLL_S)
    total = time.monotonic() - began
    rows = max(lines_in(out), 1)
    first = first if first is not None else total
    return proc.returncode, Timing(first, max(total - first, 0.0) / max(rows - 1, 1), total)


# --- one trial ----------------------------------------------------------------------------------------


def plan_kill(rng: random.Random, pace: Timing, done: int, rows: int, first: bool) -> Plan:
    """A random moment in the remaining run: a delay within its expected length, or a line still to come.

    A trial's first kill is always at a line before the last, so that every trial has at least one kill
    (a delay may outlast the run).
    """
    remaining = max(rows - done, 1)
    if first:
        return Plan("lines", rng.randint(1, max(rows - 1, 1)))
    if rng.random() < 0.5:
        return Plan("delay", round(rng.uniform(0.0, pace.first_line_s + remaining * pace.per_row_s), 2))
    return Plan("lines", done + rng.randint(1, remaining))


def tear(out: Path, reference_lines: dict[int, bytes], rng: random.Random) -> int:
    """Append a prefix of the next row's reference line without its newline; the bytes appended."""
    data = out.read_bytes() if out.exists() else b""
    if data and not data.endswith(b"\n"):
        return 0  # already torn
    nxt = reference_lines.get(data.count(b"\n") + 1)
    if not nxt or len(nxt) < 3:
        return 0
    cut = nxt[: rng.randint(1, len(nxt) - 2)]
    with out.open("ab") as fh:
        fh.write(cut)
    return len(cut)


__all__ = [
    "POLL_S",
    "Kill",
    "Plan",
    "Timing",
    "Trial",
    "TrialContext",
    "lines_in",
    "plan_kill",
    "reference_run",
    "tear",
    "watch",
]
