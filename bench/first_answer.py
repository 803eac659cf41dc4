"""The service's first answer: start `app.py`, wait until `/healthz` says ready, time the first check.

Each run starts a fresh server on the seed KB (the embedded defaults, so the Guardian too unless
`--no-guardian`), polls `/healthz` until `ready` (the start-up warm-up of `service/warmup.py` has
checked its pair), then times one `POST /api/verify` of a pair the warm-up did not check. With
`--no-warm` the server starts with `DROWZEE_SERVICE_WARM=false` and the check is timed once
`/healthz` answers (the verifier then loads on that request). Prints the seconds to ready and of the
first check per run, and their median with min-max.

Run: .venv/bin/python bench/first_answer.py [--runs 3] [--no-warm] [--no-guardian] [--kb PATH]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
PAIR = {"query": "Where is Lyon?", "response": "Lyon is located in Germany."}
LIMIT_S = 600.0


def _port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def one_run(warm: bool, guardian: bool, kb: Path | None) -> tuple[float, float, str]:
    """(seconds until ready, seconds of the first check, its decision) of one fresh server."""
    port = _port()
    env = os.environ | {
        "DROWZEE_SERVICE_JOBS_DIR": tempfile.mkdtemp(prefix="drowzee-first-"),
        "DROWZEE_SERVICE_WARM": "true" if warm else "false",
        "DROWZEE_VERIFY_USE_GUARDIAN": "true" if guardian else "false",
        "GRADIO_ANALYTICS_ENABLED": "False",
    }
    if kb is not None:
        env["DROWZEE_KB"] = str(kb)
    url = f"http://127.0.0.1:{port}"
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "app.py", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        while time.perf_counter() - t0 < LIMIT_S:
            try:
                health = httpx.get(url + "/healthz", timeout=2).json()
                if health.get("ready") or (not warm and health.get("status") == "ok"):
                    break
                if health.get("warm_up") == "failed":
                    raise SystemExit(f"warm-up failed: {health.get('warm_up_error')}")
            except httpx.HTTPError:
                pass
            time.sleep(0.5)
        ready = time.perf_counter() - t0
        t1 = time.perf_counter()
        verdict = httpx.post(url + "/api/verify", json=PAIR, timeout=LIMIT_S).json()
        return ready, time.perf_counter() - t1, str(verdict.get("decision"))
    finally:
        proc.terminate()
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()


def _spread(values: list[float]) -> dict[str, float]:
    return {"median": round(statistics.median(values), 2), "min": round(min(values), 2), "max": round(max(values), 2)}


def main(argv: list[str] | None = None) -> int:
    """Run the server `--runs` times and print the figures as JSON."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--no-warm", action="store_true")
    ap.add_argument("--no-guardian", action="store_true")
    ap.add_argument("--kb", type=Path)
    args = ap.parse_args(argv)
    runs = [one_run(not args.no_warm, not args.no_guardian, args.kb) for _ in range(args.runs)]
    ready, first = [r[0] for r in runs], [r[1] for r in runs]
    out = {
        "warm": not args.no_warm,
        "guardian": not args.no_guardian,
        "runs": [{"ready_s": round(a, 2), "first_check_s": round(b, 2), "decision": d} for a, b, d in runs],
        "ready_s": _spread(ready),
        "first_check_s": _spread(first),
    }
    sys.stdout.write(json.dumps(out, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
