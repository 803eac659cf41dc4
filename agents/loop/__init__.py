"""The closed loop (LangGraph): generate cases -> ask the model under test -> verify its answers -> score -> report.

The target's hallucinations are known from the Prolog-proved ground truth, so the loop measures both
the model under test and the triangulation verifier against it (detection precision / recall / F1,
the graph oracle on the verdicts' explanations). Use `run_loop(LoopConfig(...), default_context(...))`
or `drowzee benchmark`; see docs/loop.md.
"""

from agents.loop.context import LoopContext, Target, default_context
from agents.loop.graph import build_loop_graph, loop_checkpointer
from agents.loop.metrics import LoopMetrics, LoopRow, loop_metrics
from agents.loop.run import finished_nodes, has_run, run_loop, thread_id
from agents.loop.state import Artefact, LoopConfig, LoopError

__all__ = [
    "Artefact",
    "LoopConfig",
    "LoopContext",
    "LoopError",
    "LoopMetrics",
    "LoopRow",
    "Target",
    "build_loop_graph",
    "default_context",
    "finished_nodes",
    "has_run",
    "loop_checkpointer",
    "loop_metrics",
    "run_loop",
    "thread_id",
]
