"""The e2e tier: the real server (`python app.py`) in a subprocess, driven in headless Debian Chromium.

Playwright drives the system's Chromium (`/usr/bin/chromium`, or `$DROWZEE_CHROMIUM`); it never
downloads a browser. `make test` installs Chromium first (`scripts/setup_chromium.sh`).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from drowzee_core.kb.model import Stats

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("DROWZEE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_ready(url: str, proc: subprocess.Popen[bytes], limit_s: float = 300) -> None:
    """Wait until /healthz says the start-up warm-up has checked its pair (`service/warmup.py`)."""
    deadline = time.monotonic() + limit_s
    health: dict[str, Any] = {}
    while time.monotonic() < deadline and proc.poll() is None:
        health = httpx.get(url + "/healthz", timeout=5).json()
        if health.get("ready"):
            return
        if health.get("warm_up") == "failed":
            raise AssertionError(f"the warm-up failed: {health.get('warm_up_error')}")
        time.sleep(0.5)
    raise AssertionError(f"the server was not ready within {limit_s:g} s: {health}")


@pytest.fixture(scope="module")
def server(seed_kb: tuple[Path, Stats], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The service on the embedded defaults over a fresh seed KB; yields its base URL."""
    port = free_port()
    tmp = tmp_path_factory.mktemp("service")
    env = os.environ | {
        "DROWZEE_KB": str(seed_kb[0]),
        "DROWZEE_SERVICE_JOBS_DIR": str(tmp / "jobs"),
        "GRADIO_ANALYTICS_ENABLED": "False",
    }
    log = (tmp / "server.log").open("wb")
    proc = subprocess.Popen(
        [sys.executable, str(ROOT / "app.py"), "--port", str(port)], cwd=ROOT, env=env, stdout=log, stderr=log
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise AssertionError(f"the server exited with {proc.returncode}: {(tmp / 'server.log').read_text()}")
            try:
                if httpx.get(url + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.5)
        else:
            raise AssertionError("the server did not answer /healthz within 120 s")
        wait_ready(url, proc)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Headless Debian Chromium under Playwright."""
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/setup_chromium.sh (make test does) or set DROWZEE_CHROMIUM")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()
