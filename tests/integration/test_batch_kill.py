"""SIGKILL a real batch process at fixed points and resume: every row once, the records of an uninterrupted run.

The process is `tests.integration.batch_kill_child` (`run_batch` with a deterministic fake verifier, no
model stack); the test waits until the output holds k lines, kills the process group, and resumes.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

pytestmark = pytest.mark.integration

ROOT = Path(__file__).resolve().parents[2]
ROWS = 60
PAUSE = "0.02"  # seconds per row in the child: the last kill point leaves it ~0.2 s of work
KILL_AT = (0, 4, 11, 11, 26, 39, 50)
"""Output lines at each SIGKILL; 0 kills the first run as it starts, a repeat kills a resumed run as it starts."""
BAD_ROWS = {9: "not valid JSON", 17: "missing field", 30: "not UTF-8", 33: "duplicate id", 45: "evidence"}
HANG_GUARD_S = 60.0  # fail instead of hanging if the child stops making progress; no timing is asserted


def _write_input(path: Path) -> None:
    lines = [
        json.dumps({"id": f"r{i}", "query": f"q{i}?", "response": f"answer {i}. " * (1 + i % 7), "evidence": [f"f{i}"]})
        for i in range(1, ROWS + 1)
    ]
    raw = [x.encode() for x in lines]
    raw[8] = b'{"id": "r9", "response": "cut'
    raw[16] = json.dumps({"id": "r17", "query": "q17?"}).encode()
    raw[29] = b'{"id": "r30", "response": "\xff\xfe"}'
    raw[32] = json.dumps({"id": "r4", "query": "q4?", "response": "again"}).encode()
    raw[44] = json.dumps({"id": "r45", "query": "q45?", "response": "x", "evidence": 5}).encode()
    path.write_bytes(b"\n".join(raw) + b"\n")


def _start(inputs: Path, out: Path, mode: str, log: Path) -> subprocess.Popen[bytes]:
    cmd = [sys.executable, "-m", "tests.integration.batch_kill_child", str(inputs), str(out), mode, PAUSE]
    with log.open("ab") as sink:
        return subprocess.Popen(cmd, cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT, start_new_session=True)


def _lines(out: Path) -> int:
    return out.read_bytes().count(b"\n") if out.exists() else 0


def _records(out: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in out.read_text("utf-8").splitlines()]


def _kill_at(proc: subprocess.Popen[bytes], out: Path, k: int, log: Path) -> None:
    """SIGKILL the process group once `out` holds `k` lines."""
    deadline = time.monotonic() + HANG_GUARD_S
    while _lines(out) < k:
        if proc.poll() is not None:
            pytest.fail(f"the batch ended (status {proc.returncode}) before line {k}: {log.read_text()[-2000:]}")
        if time.monotonic() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pytest.fail(f"no line {k} after {HANG_GUARD_S:.0f} s: {log.read_text()[-2000:]}")
        time.sleep(0.001)
    os.killpg(proc.pid, signal.SIGKILL)
    assert proc.wait() == -signal.SIGKILL, f"the batch finished before the kill at line {k}"


def _finish(inputs: Path, out: Path, mode: str, log: Path) -> None:
    proc = _start(inputs, out, mode, log)
    try:
        assert proc.wait(timeout=HANG_GUARD_S) == 0, log.read_text()[-2000:]
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)


def test_sigkill_at_any_point_then_resume_gives_the_uninterrupted_records(tmp_path: Path) -> None:
    inputs, log = tmp_path / "in.jsonl", tmp_path / "child.log"
    _write_input(inputs)
    whole = tmp_path / "whole.jsonl"
    _finish(inputs, whole, "fresh", log)
    want = {r["row"]: r for r in _records(whole)}
    assert sorted(want) == list(range(1, ROWS + 1))
    for row, reason in BAD_ROWS.items():
        assert reason in want[row]["error"]
    assert sum("verdict" in r for r in want.values()) == ROWS - len(BAD_ROWS)

    out = tmp_path / "out.jsonl"
    for i, k in enumerate(KILL_AT):
        proc = _start(inputs, out, "resume" if i else "fresh", log)
        _kill_at(proc, out, k, log)
        kept = _records(out) if out.exists() and out.read_bytes().endswith(b"\n") else None
        if kept is not None:  # a kill between writes leaves whole lines, each row at most once
            assert len({r["row"] for r in kept}) == len(kept) == _lines(out)
            assert all(r == want[r["row"]] for r in kept)
        if i == 2:  # what a power cut mid-write leaves: the next record's first bytes, no newline
            missing = set(want) - {r["row"] for r in _records(out)}
            nxt = json.dumps(want[min(missing)], ensure_ascii=False).encode()
            with out.open("ab") as fh:
                fh.write(nxt[: len(nxt) // 2])
    _finish(inputs, out, "resume", log)

    got = _records(out)
    assert sorted(r["row"] for r in got) == list(range(1, ROWS + 1))  # none lost, none twice
    assert {r["row"]: r for r in got} == want
