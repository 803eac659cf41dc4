"""What every node shares: timing, and turning a failure into a recorded, degraded opinion."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from langgraph.runtime import Runtime

from agents.verifier.context import VerifierContext
from agents.verifier.state import VerifierState
from drowzee_core.records.verdict import Opinion, OpinionSource

log = logging.getLogger(__name__)

NodeBody = Callable[[VerifierState, VerifierContext], dict[str, Any]]


class Node(Protocol):
    """A graph node as LangGraph calls it: the state, and the runtime by keyword."""

    __name__: str

    def __call__(self, state: VerifierState, *, runtime: Runtime[VerifierContext]) -> dict[str, Any]:
        """The node's state update."""
        ...


MAX_REASON = 500


def failure_reason(name: str, exc: BaseException) -> str:
    """The degraded reason a failed node records: `name: ExcType: message`, at most `MAX_REASON` characters."""
    return f"{name}: {type(exc).__name__}: {exc}"[:MAX_REASON]


def node(name: str, source: OpinionSource | None = None) -> Callable[[NodeBody], Node]:
    """Wrap a node body: time it, and record any failure as a degraded reason (and a missing opinion).

    A tool, model or Prolog call that raises, times out or returns unparseable output must not crash
    the run: the verdict is then marked `degraded` with the reason, and the other sources decide.
    """

    def wrap(body: NodeBody) -> Node:
        def run(state: VerifierState, *, runtime: Runtime[VerifierContext]) -> dict[str, Any]:
            started = time.perf_counter()
            try:
                out = body(state, runtime.context)
            except Exception as exc:
                reason = failure_reason(name, exc)
                log.warning("verifier node failed: %s", reason)
                out = {"degraded": [reason]}
                if source is not None:
                    out["opinions"] = [Opinion(source=source, error=reason)]
            out["timings"] = {name: time.perf_counter() - started}
            return out

        run.__name__ = name
        run.__doc__ = body.__doc__
        return run

    return wrap


__all__ = ["Node", "NodeBody", "failure_reason", "node"]
