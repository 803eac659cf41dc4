"""Leases on the local model server: who still uses it (pure file and pid bookkeeping, no server)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from drowzee_core.llm import server


def test_live_leases_keep_live_pids_and_drop_dead_ones(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "home", lambda: tmp_path)
    dead = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, check=True)
    dead_pid = int(dead.stdout)
    assert server.live_leases(1234) == []  # no folder yet
    server.take_lease(1234)
    server.take_lease(1234, dead_pid)
    (server.lease_dir(1234) / "notes.txt").write_text("not a lease")
    assert server.live_leases(1234) == [os.getpid()]
    assert not (server.lease_dir(1234) / str(dead_pid)).exists()  # a dead holder's lease is cleared
    server.release_lease(1234)
    assert server.live_leases(1234) == [] and server.live_leases(4321) == []
