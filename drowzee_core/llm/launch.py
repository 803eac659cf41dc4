"""Starting and stopping the local model server from a client process (no server code is imported).

`ensure_local_server()` starts `python -m drowzee_core.llm.server` in the background when nothing
answers on the port and waits for `/health`. Every process that uses the server holds a lease (a file
named by its pid under `<home>/run/model-server-<port>/`), taken before it looks for a running server;
the starter stops the server at exit unless another live process holds a lease, and the server stops
itself when no holder is alive, so a starter killed with SIGKILL leaves nothing behind.
`stop_server` stops it at once.

This module imports neither litserve nor a model library, so a command can start the server in a
background thread at its very beginning (`start_soon`) and let it load while the command loads the rest.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.leases import live_leases, release_lease, take_lease
from drowzee_core.llm.local import LOCAL_HOST, LOCAL_PORT

log = logging.getLogger(__name__)

START_TIMEOUT_S = 600.0
"""How long a start may take, and how long litserve waits for a request's answer (a model may load on the first one)."""
_held: set[int] = set()
"""Ports this process holds a lease on (released at exit)."""
_starting = threading.Lock()
"""One start at a time in this process: a second caller waits for the first one's server."""


def server_log() -> Path:
    """The local model server's log file (what it prints, kept across runs)."""
    return home() / "logs" / "model-server.log"


def start_soon(host: str = LOCAL_HOST, port: int = LOCAL_PORT) -> threading.Thread:
    """Start (or join) the local server in a daemon thread; a later `ensure_local_server` waits for it.

    A failure is logged here; the caller's own `ensure_local_server` meets it again and reports it.
    """

    def start() -> None:
        try:
            ensure_local_server(host, port)
        except (DrowzeeError, OSError) as exc:
            log.warning("starting the local model server early failed (it is tried again when needed): %s", exc)

    thread = threading.Thread(target=start, daemon=True, name="drowzee-model-server-start")
    thread.start()
    return thread


def _leave(port: int, proc: subprocess.Popen[bytes] | None) -> None:
    """At exit: drop this process's lease; stop the server it started unless others still use it."""
    release_lease(port)
    if proc is None:
        return
    others = live_leases(port)
    if others:
        log.info("model server on port %s left running for processes %s", port, others)
        return
    stop_server(proc, wait_for_group=False)


def free_port() -> int:
    """A free loopback port (for a private server, e.g. one evaluation's)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def health_status(host: str = LOCAL_HOST, port: int = LOCAL_PORT) -> int | None:
    """The HTTP status of `/health` on the port (503 while the model worker is dead), None when nothing answers."""
    try:
        return httpx.get(f"http://{host}:{port}/health", timeout=2.0).status_code
    except httpx.HTTPError:
        return None


def healthy(host: str = LOCAL_HOST, port: int = LOCAL_PORT) -> bool:
    """Whether a server answers `/health` on the port with 200 (its model worker is running)."""
    return health_status(host, port) == 200


def ensure_local_server(
    host: str = LOCAL_HOST,
    port: int = LOCAL_PORT,
    timeout: float = START_TIMEOUT_S,
    adapters: list[Path] | None = None,
) -> subprocess.Popen[bytes] | None:
    """Start the local server in the background unless one is already healthy; wait until it is.

    This process takes a lease on the server first (see the module docstring), so a server another
    process started stays up while this one uses it.

    Calls from several threads of one process start one server: the first starts it, the others wait
    for it (`start_soon` lets a command start the server while it loads everything else).

    Returns the started process (None when a server was already running).
    """
    with _starting:
        return _ensure(host, port, timeout, adapters)


def _ensure(host: str, port: int, timeout: float, adapters: list[Path] | None) -> subprocess.Popen[bytes] | None:
    first = port not in _held
    take_lease(port)
    _held.add(port)
    status = health_status(host, port)
    if status is not None:  # a server is there; a 503 means its worker is being restarted (or gave up: see the log)
        if status != 200:
            log.warning("the model server on port %s answers /health with %s; see %s", port, status, server_log())
        if first:
            atexit.register(_leave, port, None)
        return None
    log_path = server_log()
    log_path.parent.mkdir(parents=True, exist_ok=True)
    cmd = [
        sys.executable,
        "-m",
        "drowzee_core.llm.server",
        "--host",
        host,
        "--port",
        str(port),
        "--parent-pid",
        str(os.getpid()),
    ]
    for folder in adapters or []:
        cmd += ["--adapter", str(folder)]
    with log_path.open("ab") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, start_new_session=True)
    atexit.register(_leave, port, proc)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise DrowzeeError(f"the local model server exited with status {proc.returncode}; see {log_path}")
        if healthy(host, port):
            log.info("local model server is up on %s:%s (pid %s)", host, port, proc.pid)
            return proc
        time.sleep(0.5)
    stop_server(proc)
    raise DrowzeeError(f"the local model server did not become healthy in {timeout:.0f}s; see {log_path}")


STOP_TIMEOUT_S = 15.0
"""How long a stopping server may take before its process group is killed."""


def stop_server(proc: subprocess.Popen[bytes], wait_for_group: bool = True) -> None:
    """Stop a server started by `ensure_local_server`, worker processes included.

    Args:
        proc: The server process.
        wait_for_group: Also wait until every process of its group is gone. Without it (a CLI at exit),
            this returns once the server itself has exited: it stops its inference workers first, and
            multiprocessing's resource tracker, the last of the group, exits by itself about a second later.

    """
    deadline = time.monotonic() + STOP_TIMEOUT_S
    try:
        os.killpg(proc.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=STOP_TIMEOUT_S)
        while wait_for_group and time.monotonic() < deadline:  # until the whole group (workers too) is gone
            os.killpg(proc.pid, 0)
            time.sleep(0.1)
        if proc.poll() is None or wait_for_group:
            os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait(timeout=5)


__all__ = [
    "START_TIMEOUT_S",
    "ensure_local_server",
    "free_port",
    "health_status",
    "healthy",
    "server_log",
    "start_soon",
    "stop_server",
]
