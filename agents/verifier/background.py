"""Calls started early and collected later: the Guardian's request runs while the claims are read and proved.

LangGraph runs a graph in steps and starts a step only when every node of the one before has finished.
A Guardian node beside the claims node would hold the KB check and the Seeker back for as long as its
model answers (a cold model server takes 10-15 s to load). So `prepare` starts the request here under
a ticket (a string kept in the state, which the checkpointer can store) and the `guardian` node, the
last before the Verdict Manager, collects it. A ticket never collected (a run that stopped early) is
dropped once `MAX_PENDING` newer ones wait.
"""

from __future__ import annotations

import threading
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

MAX_PENDING = 256
WORKERS = 8
"""Requests in flight at once (batch threads and service workers each have at most one)."""


class Background:
    """A small pool of calls, each under a ticket."""

    def __init__(self, workers: int = WORKERS) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="drowzee-early")
        self._pending: OrderedDict[str, Future[Any]] = OrderedDict()
        self._lock = threading.Lock()

    def start(self, fn: Callable[[], Any]) -> str:
        """Run `fn` in the background; the ticket to collect its result with."""
        ticket = uuid.uuid4().hex
        future = self._pool.submit(fn)
        with self._lock:
            self._pending[ticket] = future
            while len(self._pending) > MAX_PENDING:
                _, old = self._pending.popitem(last=False)
                old.cancel()
        return ticket

    def collect(self, ticket: str, timeout: float | None = None) -> Any:
        """The result of the call under `ticket` (its exception re-raised); waits at most `timeout` seconds.

        Raises:
            KeyError: No call waits under `ticket` (collected already, or dropped).
            TimeoutError: The call did not finish in time.

        """
        with self._lock:
            future = self._pending.pop(ticket)
        return future.result(timeout=timeout)

    def close(self) -> None:
        """Cancel what has not started; do not wait for running calls (each has its own deadline)."""
        with self._lock:
            self._pending.clear()
        self._pool.shutdown(wait=False, cancel_futures=True)


__all__ = ["MAX_PENDING", "Background"]
