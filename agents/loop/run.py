"""Running the loop in a folder: a new run, or the resumption of the folder's interrupted (or finished) run.

The thread id is derived from the folder's resolved path, and the checkpoints live in
`DIR/checkpoints.sqlite`, so the same command on the same folder finds its run: a finished run
returns its artefacts at once; an interrupted one continues with the node that did not finish (the
nodes before it are not run again; `verify` itself resumes row by row from its ledger).
"""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path
from typing import Any, cast

from langchain_core.runnables import RunnableConfig

from agents.loop.context import LoopContext
from agents.loop.graph import build_loop_graph, loop_checkpointer
from agents.loop.state import LoopConfig, LoopError, LoopInput

log = logging.getLogger(__name__)
CHECKPOINTS = "checkpoints.sqlite"


def thread_id(out: Path) -> str:
    """The loop's thread id for a run folder (stable across runs and working directories)."""
    return "loop:" + hashlib.sha256(str(out.resolve()).encode()).hexdigest()[:16]


def has_run(out: Path) -> bool:
    """Whether `out` holds a loop run (its checkpoints)."""
    return (out / CHECKPOINTS).exists()


def _differences(old: LoopConfig, new: LoopConfig) -> list[str]:
    a, b = old.model_dump(), new.model_dump()
    return [f"{k}: {a[k]!r} -> {b[k]!r}" for k in a if a[k] != b[k]]


def run_loop(cfg: LoopConfig, ctx: LoopContext) -> dict[str, Any]:
    """Run (or resume) the loop in `ctx.out`; returns the final state's values (every artefact)."""
    saver = loop_checkpointer(ctx.out / CHECKPOINTS)
    try:
        graph = build_loop_graph(saver)
        config: RunnableConfig = {"configurable": {"thread_id": thread_id(ctx.out)}}
        snap = graph.get_state(config)
        start: LoopInput | None = {"config": cfg}
        if snap.values:
            old = snap.values.get("config")
            if isinstance(old, LoopConfig) and old != cfg:
                raise LoopError(
                    f"{ctx.out} holds a run with other options ({'; '.join(_differences(old, cfg))});"
                    " repeat its options to resume it, or choose another --out"
                )
            if not snap.next:
                log.info("the run in %s is finished; nothing to do", ctx.out)
                return dict(snap.values)
            log.info("resuming the run in %s at %s", ctx.out, ", ".join(snap.next))
            start = None
        graph.invoke(cast(Any, start), config, context=ctx, durability="sync")
        return dict(graph.get_state(config).values)
    finally:
        saver.conn.close()


def finished_nodes(out: Path) -> list[str]:
    """The nodes the run in `out` has finished, in order (empty when there is no run)."""
    if not has_run(out):
        return []
    saver = loop_checkpointer(out / CHECKPOINTS)
    try:
        snap = build_loop_graph(saver).get_state({"configurable": {"thread_id": thread_id(out)}})
        return list(snap.values.get("finished", []))
    finally:
        saver.conn.close()


__all__ = ["CHECKPOINTS", "finished_nodes", "has_run", "run_loop", "thread_id"]
