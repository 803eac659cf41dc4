"""Liveness of the local model server: a dead inference worker is noticed, its requests fail, it is restarted.

litserve runs the model in an inference worker process and answers HTTP in front of it. Left alone, a
worker that dies (killed by the OOM killer, a crash in native code) leaves `/health` answering 200 and
every request it held waiting forever. `LiveServer` adds what the model server needs:

- a watch thread that checks the workers every `WATCH_S` seconds; a dead one fails the requests it was
  answering at once (HTTP 503, naming the server's log) and is started again, up to `MAX_RESTARTS` quick
  deaths in a row; past that, every model request (queued or new) is refused at once with such an error;
- `/health` answers 503 while a worker is dead, so it reports the model, not just the HTTP process;
- the HTTP server runs as a thread of the server process (no uvicorn child that could outlive it), and
  the worker and litserve's manager processes are killed by the kernel when the server process dies
  (`die_with_parent`: `PR_SET_PDEATHSIG` on Linux, a watch thread elsewhere).
"""

from __future__ import annotations

import asyncio
import ctypes
import logging
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from multiprocessing.managers import SyncManager
from pathlib import Path
from typing import Any

import litserve as ls
from fastapi import HTTPException, Request, Response
from fastapi.responses import JSONResponse
from litserve.utils import LitAPIStatus

from drowzee_core.llm.launch import START_TIMEOUT_S, server_log
from drowzee_core.llm.openai_logprobs import LogprobOpenAISpec

log = logging.getLogger(__name__)
WATCH_S = 0.5
"""How often the server checks that its inference workers are alive."""
MAX_RESTARTS = 5
"""How many quick deaths in a row (each within `STABLE_S` of its start) are restarted before requests are refused."""
STABLE_S = 300.0
"""A worker that ran this long before dying starts the count of restarts afresh."""
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent_pid: int | None = None) -> None:
    """Make this process end when its parent does (call it first thing in a child process).

    On Linux the kernel sends SIGKILL when the parent dies (`prctl(PR_SET_PDEATHSIG)`); elsewhere a
    daemon thread polls the parent pid. A parent that is already gone ends this process at once.

    Args:
        parent_pid: The parent's pid as the parent saw it; default: the current parent.

    """
    parent = parent_pid or os.getppid()
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
            log.warning("prctl(PR_SET_PDEATHSIG) failed (errno %s); watching the parent instead", ctypes.get_errno())
            threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    else:
        threading.Thread(target=_watch_parent, args=(parent,), daemon=True).start()
    if os.getppid() != parent:  # the parent died before the death signal was armed
        os._exit(1)


def _watch_parent(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(1)


@contextmanager
def _managers_die_with_parent() -> Iterator[None]:
    """While open, `multiprocessing.Manager()` starts a manager process that dies with this one."""
    real = mp.Manager
    me = os.getpid()

    def manager() -> SyncManager:
        m = SyncManager(ctx=mp.get_context())
        m.start(die_with_parent, (me,))
        return m

    mp.Manager = manager
    try:
        yield
    finally:
        mp.Manager = real


class LiveServer(ls.LitServer):  # type: ignore[misc]
    """A `litserve.LitServer` that watches its inference workers (see the module docstring).

    Args:
        *args: `LitServer`'s arguments.
        log_path: The server's log file, named in the errors clients get.
        **kwargs: `LitServer`'s keyword arguments (`restart_workers` is always on).

    """

    def __init__(self, *args: Any, log_path: Path, **kwargs: Any) -> None:
        super().__init__(*args, restart_workers=True, **kwargs)  # workers then report which request they hold
        self.log_path = log_path
        self.restarts = 0
        self.started = time.monotonic()  # when the current worker started (about)
        self.gave_up = False
        self._loop: asyncio.AbstractEventLoop | None = None
        self.app.middleware("http")(self._guard)

    def __getstate__(self) -> dict[str, Any]:
        """Without the event loop, which cannot be pickled (litserve copies the server for each worker)."""
        return self.__dict__ | {"_loop": None}

    def workers_alive(self) -> bool:
        """Whether every inference worker process is running."""
        workers = getattr(self, "inference_workers", [])
        return bool(workers) and all(w.is_alive() for w in workers)

    async def _guard(self, request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        """`/health` says 503 while a worker is dead; model requests are refused once restarts gave up."""
        path = request.url.path
        if path == self.healthcheck_path and not self.workers_alive():
            return Response(content="inference worker not running", status_code=503)
        if self.gave_up and path.startswith("/v1/"):
            detail = (
                f"the model server's inference worker died {self.restarts + 1} times and is not restarted;"
                f" see {self.log_path}, then restart the server"
            )
            return JSONResponse({"detail": detail}, status_code=503)
        return await call_next(request)

    @asynccontextmanager
    async def lifespan(self, app: Any) -> AsyncIterator[None]:
        """Run litserve's lifespan; also keeps the HTTP event loop, where dead workers' requests are failed."""
        self._loop = asyncio.get_running_loop()
        async with super().lifespan(app):
            yield

    def _init_manager(self, num_api_servers: int) -> Any:
        with _managers_die_with_parent():
            return super()._init_manager(num_api_servers)

    def _perform_graceful_shutdown(self, manager: Any, uvicorn_workers: dict[str, Any], reason: str = "normal") -> None:
        """Run litserve's shutdown of the workers; the HTTP server is a thread, which ends with the process."""
        super()._perform_graceful_shutdown(manager, {}, reason)

    def _start_worker_monitoring(self, manager: Any, uvicorn_workers: dict[str, Any]) -> None:
        """Replaces litserve's monitor (which cannot reach requests held by a uvicorn process)."""
        threading.Thread(target=self._watch, daemon=True, name="drowzee-worker-watch").start()

    def _watch(self) -> None:
        while True:
            try:
                if self._shutdown_event.is_set():
                    return
            except (OSError, EOFError):  # the manager is gone: the server is shutting down
                return
            try:
                for idx, proc in enumerate(list(self.inference_workers)):
                    if not proc.is_alive() and not self.gave_up:
                        self._replace(idx, proc)
            except Exception:  # keep watching: workers started by this thread die with it (PR_SET_PDEATHSIG)
                log.exception("could not replace a dead inference worker; see the traceback above")
            time.sleep(WATCH_S)

    def _replace(self, idx: int, proc: Any) -> None:
        """Fail the requests a dead worker held, then start it again (or give up after `MAX_RESTARTS`)."""
        log.error(
            "the inference worker (pid %s) died with exit code %s; failing the requests it held",
            proc.pid,
            proc.exitcode,
        )
        if time.monotonic() - self.started > STABLE_S:
            self.restarts = 0
        restarting = self.restarts < MAX_RESTARTS
        detail = (
            f"the model server's inference worker (pid {proc.pid}) died (exit code {proc.exitcode}) while answering;"
            f" {'it is being restarted, retry the request' if restarting else 'it is not restarted'};"
            f" see {self.log_path}"
        )
        if self._loop is not None:
            held = None if not restarting else idx  # giving up: the queued requests fail too
            self._loop.call_soon_threadsafe(self._fail_held, held, HTTPException(503, detail))
        if not restarting:
            self.gave_up = True
            log.error("the inference worker died %s times; model requests are refused from now on", self.restarts + 1)
            return
        self.restarts += 1
        (lit_api,) = self.litapi_connector.lit_apis  # one API: worker index == worker id
        self.inference_workers[idx] = self.launch_single_inference_worker(lit_api, idx)
        self.started = time.monotonic()
        log.warning(
            "started a new inference worker (pid %s), restart %s", self.inference_workers[idx].pid, self.restarts
        )

    def _fail_held(self, worker_id: int | None, error: HTTPException) -> None:
        """In the HTTP loop: end with `error` every request worker `worker_id` had started (None: every request)."""
        for item in list(self.response_buffer.values()):
            if (worker_id is not None and item.worker_id != worker_id) or item.event.is_set():
                continue
            if item.response_queue is not None:
                item.response_queue.append((error, LitAPIStatus.ERROR))
            item.response = (error, LitAPIStatus.ERROR)
            item.event.set()


def stop_on_sigterm() -> None:
    """Turn SIGTERM into litserve's orderly shutdown (workers stopped), with a hard exit 10 s later."""
    stopping = threading.Event()

    def on_term(signum: int, _frame: Any) -> None:
        if stopping.is_set():  # a second SIGTERM (the group's, or the lease watcher's) while stopping: ignore it
            log.info("signal %s while stopping: already shutting down", signum)
            return
        stopping.set()
        backstop = threading.Timer(10.0, os._exit, args=(0,))
        backstop.daemon = True
        backstop.start()
        raise KeyboardInterrupt(f"signal {signum}")

    signal.signal(signal.SIGTERM, on_term)


def run_server(api: ls.LitAPI, host: str, port: int) -> None:
    """Serve `api` with the OpenAI spec under `LiveServer` (dead workers noticed; see `liveness`).

    The HTTP server is a thread of this process, SIGTERM stops the workers too, and they die with it.
    """
    stop_on_sigterm()
    server = LiveServer(
        api, spec=LogprobOpenAISpec(), accelerator="cpu", timeout=START_TIMEOUT_S, log_path=server_log()
    )
    server.run(host=host, port=port, generate_client_file=False, api_server_worker_type="thread")


__all__ = ["MAX_RESTARTS", "WATCH_S", "LiveServer", "die_with_parent", "run_server", "stop_on_sigterm"]
