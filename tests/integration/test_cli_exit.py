"""The `drowzee` console script's prompt exit: status codes, flushed output, exit handlers run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

SCRIPT = "from cli.main import run; run()"


def drowzee(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SCRIPT, *args], capture_output=True, text=True, timeout=120, cwd=cwd)


def test_status_codes_and_messages_come_through() -> None:
    assert drowzee("--help").returncode == 0
    missing = drowzee("kb", "stats", "--kb", "/nonexistent/kb.sqlite")
    assert missing.returncode == 2 and "no knowledge base at /nonexistent/kb.sqlite" in missing.stderr
    usage = drowzee("verify", "--response", "x")
    assert usage.returncode == 2 and "--query" in usage.stderr


def test_piped_output_is_whole_and_exit_handlers_ran(tmp_path: Path) -> None:
    proved = drowzee("prove", "Paris", "located_in", "Europe", "--json")
    assert proved.returncode == 0 and json.loads(proved.stdout)["status"] == "supported"
    # an exit handler registered by a command runs before the process ends (here: a marker file)
    code = (
        "import atexit, pathlib, sys; from cli.main import app, run; "
        f"atexit.register(lambda: pathlib.Path({str(tmp_path / 'ran')!r}).write_text('yes')); "
        "sys.argv = ['drowzee', '--help']; run()"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Usage" in done.stdout and (tmp_path / "ran").read_text() == "yes"
