"""Process trees for the batch fault scripts: start a command in its own session, SIGKILL it and its children.

A process group is what one `killpg` reaches, but a child may leave it: the local model server runs in
its own session (and stops itself when its starter is gone). `kill_tree` kills the group, then gives
the escaped descendants a grace period and kills those still alive. Linux only (reads /proc).
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import time
from pathlib import Path

log = logging.getLogger("bench.process_tree")


def proc_table() -> dict[int, tuple[int, int, str]]:
    """Parent pid, process group and state of every process by pid, from /proc (Linux)."""
    table: dict[int, tuple[int, int, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()  # the command name may hold spaces and parentheses
        table[int(entry.name)] = (int(fields[1]), int(fields[2]), fields[0])
    return table


def descendants(pid: int) -> dict[int, int]:
    """The process group of every live descendant of `pid`, by pid."""
    table = proc_table()
    found: dict[int, int] = {}
    todo = [pid]
    while todo:
        parent = todo.pop()
        for child, (ppid, pgid, state) in table.items():
            if ppid == parent and child not in found and state != "Z":
                found[child] = pgid
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return state[state.rfind(")") + 2] != "Z"


def kill_tree(proc: subprocess.Popen[bytes], grace: float) -> tuple[int, int, int]:
    """SIGKILL the run's process group; give escaped children `grace` seconds to stop, then kill them.

    Returns (descendants at the kill, those outside the group, those still alive after the grace).
    """
    children = descendants(proc.pid)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    outside = {pid: pgid for pid, pgid in children.items() if pgid != proc.pid}
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(alive(p) for p in outside):
        time.sleep(0.1)
    left = [pid for pid in outside if alive(pid)]
    for pid in left:
        log.warning("child %s outlived the grace period; killing its group %s", pid, outside[pid])
        with contextlib.suppress(ProcessLookupError):
            os.killpg(outside[pid], signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    return len(children), len(outside), len(left)


def start(cmd: list[str], log_path: Path, cwd: Path) -> subprocess.Popen[bytes]:
    """Start `cmd` in its own session (so one killpg reaches its children), its output appended to `log_path`."""
    with log_path.open("ab") as sink:
        return subprocess.Popen(cmd, cwd=cwd, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)


__all__ = ["alive", "descendants", "kill_tree", "proc_table", "start"]
