"""Shared pieces of the service benchmarks: the server in a subprocess, its settings, latency figures.

`start_server` runs `python app.py` on a free loopback port with the environment it is given (a temp
jobs folder, a fresh call cache...) and stops it afterwards; `server_settings` says what that
environment makes of the service's and the verifier's settings; `latency` summarises seconds.
"""

from __future__ import annotations

import logging
import math
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

log = logging.getLogger("bench.service")
ROOT = Path(__file__).resolve().parents[1]
SECRET_FIELDS = ("token",)
"""Settings never written to a results file."""


def free_port() -> int:
    """A TCP port free on loopback now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class ServerStartError(RuntimeError):
    """The server exited or did not answer `/healthz` in time."""


@dataclass
class Server:
    """A service started by `start_server`: its base URL, process and log file."""

    url: str
    proc: subprocess.Popen[bytes]
    log_path: Path
    startup_s: float


def wait_healthy(url: str, timeout_s: float, proc: subprocess.Popen[bytes] | None = None) -> float:
    """Seconds until `GET url/healthz` answers 200; `ServerStartError` past `timeout_s` or if `proc` exits."""
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        if proc is not None and proc.poll() is not None:
            raise ServerStartError(f"the server exited with {proc.returncode} before answering /healthz")
        try:
            if httpx.get(url + "/healthz", timeout=5).status_code == 200:
                return time.monotonic() - started
        except httpx.HTTPError:
            pass
        time.sleep(0.5)
    raise ServerStartError(f"{url}/healthz did not answer within {timeout_s:g} s")


@contextmanager
def start_server(env: Mapping[str, str], log_path: Path, timeout_s: float = 300.0) -> Iterator[Server]:
    """`python app.py` on a free loopback port with `env` (stdout and stderr to `log_path`), stopped on exit."""
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    cmd = [sys.executable, str(ROOT / "app.py"), "--host", "127.0.0.1", "--port", str(port)]
    log.info("starting the server: %s (log: %s)", " ".join(cmd), log_path)
    with log_path.open("wb") as out:
        proc = subprocess.Popen(cmd, cwd=ROOT, env=dict(env), stdout=out, stderr=subprocess.STDOUT)
        try:
            try:
                startup = wait_healthy(url, timeout_s, proc)
            except ServerStartError as exc:
                raise ServerStartError(f"{exc}; see {log_path}") from exc
            log.info("server up at %s after %.1f s", url, startup)
            yield Server(url, proc, log_path, startup)
        finally:
            proc.terminate()
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                log.warning("the server did not stop within 30 s of SIGTERM; killing it")
                proc.kill()
                proc.wait()


def server_settings(env: Mapping[str, str]) -> dict[str, Any]:
    """The service's and the verifier's settings as `env` sets them (secrets left out)."""
    from agents.verifier.settings import VerifierSettings
    from service.settings import ServiceSettings

    saved = dict(os.environ)
    os.environ.clear()
    os.environ.update(env)
    try:
        service = ServiceSettings.load().model_dump(mode="json", exclude=set(SECRET_FIELDS))
        verifier = VerifierSettings.load().model_dump(mode="json")
    finally:
        os.environ.clear()
        os.environ.update(saved)
    service["token_set"] = bool(env.get(ServiceSettings.env_name("token")))
    return {"service": service, "verifier": verifier}


def process_stats(pid: int, exclude: int | None = None) -> dict[str, Any] | None:
    """CPU seconds and resident memory of a process with its children, less the subtree of `exclude`.

    None without psutil or the process.
    """
    try:
        import psutil  # type: ignore[import-untyped]
    except ImportError:
        return None
    try:
        proc = psutil.Process(pid)
        procs = [proc, *proc.children(recursive=True)]
        if exclude is not None and psutil.pid_exists(exclude):
            left_out = psutil.Process(exclude)
            skip = {exclude, *(c.pid for c in left_out.children(recursive=True))}
            procs = [p for p in procs if p.pid not in skip]
        cpu = sum(p.cpu_times().user + p.cpu_times().system for p in procs)
        rss = sum(p.memory_info().rss for p in procs)
    except psutil.Error:
        return None
    return {"cpu_s": round(cpu, 1), "rss_mb": round(rss / 2**20, 1)}


def model_server() -> dict[str, Any]:
    """The embedded model server on its fixed loopback port: whether it answers, its main process, its owner.

    Every Drowzee process on the machine shares it: the first to need it starts it (`ensure_local_server`)
    and owns it (`--parent-pid`), the rest reuse it. `pid` and `owner_pid` need psutil (else None).
    """
    from drowzee_core.llm.local import LOCAL_HOST, LOCAL_PORT

    url = f"http://{LOCAL_HOST}:{LOCAL_PORT}"
    try:
        running = httpx.get(url + "/health", timeout=5).status_code == 200
    except httpx.HTTPError:
        running = False
    out: dict[str, Any] = {"url": url, "running": running, "pid": None, "owner_pid": None}
    try:
        import psutil
    except ImportError:
        return out
    try:
        pid = next(
            c.pid
            for c in psutil.net_connections(kind="tcp")
            if c.laddr and c.laddr.port == LOCAL_PORT and c.status == psutil.CONN_LISTEN and c.pid
        )
        proc = psutil.Process(pid)
        while (parent := proc.parent()) is not None and "drowzee_core.llm.server" in " ".join(parent.cmdline()):
            proc = parent
        cmd = proc.cmdline()
    except (StopIteration, psutil.Error) as exc:  # not listening, gone, or no permission to see it
        log.debug("model server process not found: %r", exc)
        return out
    out["pid"] = proc.pid
    if "--parent-pid" in cmd and cmd.index("--parent-pid") + 1 < len(cmd):
        out["owner_pid"] = int(cmd[cmd.index("--parent-pid") + 1])
    return out


def percentile(values: Sequence[float], q: float) -> float:
    """The `q`-th percentile (0-100) of `values`, interpolated between the nearest ranks; nan when empty."""
    if not values:
        return math.nan
    xs = sorted(values)
    pos = (len(xs) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def latency(values: Sequence[float], digits: int = 3) -> dict[str, Any]:
    """n, p50, p95, max and mean of `values` (seconds), rounded; None figures when there are none."""
    if not values:
        return {"n": 0, "p50": None, "p95": None, "max": None, "mean": None}
    return {
        "n": len(values),
        "p50": round(percentile(values, 50), digits),
        "p95": round(percentile(values, 95), digits),
        "max": round(max(values), digits),
        "mean": round(sum(values) / len(values), digits),
    }


__all__ = [
    "ROOT",
    "Server",
    "ServerStartError",
    "free_port",
    "latency",
    "model_server",
    "percentile",
    "process_stats",
    "server_settings",
    "start_server",
    "wait_healthy",
]
