"""Leases on the local model server: who still uses it (pure file and pid bookkeeping, no server)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from drowzee_core.llm import leases


def test_live_leases_keep_live_pids_and_drop_dead_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(leases, "home", lambda: tmp_path)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True)
    dead_pid = int(dead.stdout)
    assert leases.live_leases(1234) == []  # no folder yet
    leases.take_lease(1234)
    leases.take_lease(1234, dead_pid)
    (leases.lease_dir(1234) / "notes.txt").write_text("not a lease")
    assert leases.live_leases(1234) == [os.getpid()]
    assert not (leases.lease_dir(1234) / str(dead_pid)).exists()  # a dead holder's lease is cleared
    leases.release_lease(1234)
    assert leases.live_leases(1234) == [] and leases.live_leases(4321) == []
