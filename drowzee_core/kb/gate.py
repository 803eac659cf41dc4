"""The KB thread: every call that touches the KB store or Prolog runs on one dedicated thread.

janus hosts one Prolog per process and its global variables are per thread, and a `KBStore` (SQLite)
may only be used by the thread that opened it; LangGraph runs nodes on worker threads. `KBGate` owns
one thread that holds the store and the engines and runs those calls one at a time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


class KBGate:
    """One thread that owns the KB store and the Prolog engines; `run` executes a call on it."""

    def __init__(self) -> None:
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="drowzee-kb", initializer=self._mark)
        self._ident: int | None = None

    def _mark(self) -> None:
        self._ident = threading.get_ident()

    def run(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(*args)` on the KB thread and return its result (exceptions propagate).

        A call made on the KB thread itself runs directly (waiting on its own queue would deadlock).
        """
        if threading.get_ident() == self._ident:
            return fn(*args)
        return self._pool.submit(fn, *args).result()

    def close(self) -> None:
        """Stop the thread after pending calls."""
        self._pool.shutdown(wait=True)


__all__ = ["KBGate"]
