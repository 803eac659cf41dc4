"""`drowzee verify` answered by the real running service (`python app.py`), and refused when settings differ."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import httpx

from drowzee_core.kb.model import Stats

ROOT = Path(__file__).resolve().parents[2]
PAIR = ["--query", "What is the capital of France?", "--response", "Paris is the capital of France."]


def drowzee(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "from cli.main import run; run()"
    return subprocess.run(
        [sys.executable, "-c", code, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


def test_verify_is_answered_by_the_running_service(server: str, seed_kb: tuple[Path, Stats]) -> None:
    env = os.environ | {"DROWZEE_KB": str(seed_kb[0]), "DROWZEE_SERVICE_URL": server}
    assert httpx.get(server + "/healthz", timeout=5).json()["verifier"]

    done = drowzee(["verify", "--json", *PAIR], env)
    assert done.returncode == 0, done.stderr[-3000:]
    assert f"answered by the running service at {server}" in " ".join(done.stderr.split())  # rich wraps at 80
    verdict = json.loads(done.stdout)
    assert verdict["label"] == "FACTUAL"
    assert verdict["decision"] == "supported"
    assert any(c["decided_by"] == "proof" for c in verdict["claims"])

    other = drowzee(["verify", "--no-seeker", "--json", *PAIR], env)
    assert other.returncode != 0
    assert "runs a verifier with other settings" in " ".join(other.stderr.split())
    assert other.stdout == ""
