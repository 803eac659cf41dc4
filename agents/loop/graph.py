"""The closed-loop graph: wiring only (the nodes live in `agents/loop/nodes/`).

    START -> generate -> ask -> verify -> score -> [mitigate, with `--mitigate rag`] -> report -> END

Each node writes its artefact into the run folder and returns only its `Artefact`; a SQLite checkpoint
after each node lets a re-run of the same command on the same folder resume after the last finished node.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from agents.loop.context import LoopContext
from agents.loop.nodes import ask, generate, mitigate, report, score, verify
from agents.loop.state import Artefact, LoopConfig, LoopInput, LoopOutput, LoopState
from agents.verifier.checkpoints import checkpointer

NODES = ("generate", "ask", "verify", "score", "mitigate", "report")
CHECKPOINTED_TYPES: tuple[type, ...] = (LoopConfig, Artefact)
"""Our record types that the loop's checkpoints hold (LangGraph refuses to revive unlisted types)."""


def loop_checkpointer(path: Path | None = None) -> SqliteSaver:
    """The loop's SQLite checkpointer (in memory when `path` is None)."""
    return checkpointer(CHECKPOINTED_TYPES, path)


def after_score(state: LoopState) -> Literal["mitigate", "report"]:
    """`mitigate` when the run asks for a retrieval patch, else straight to `report`."""
    choice = state["config"].mitigate
    if choice == "rag":
        return "mitigate"
    if choice == "none":
        return "report"
    raise ValueError(f"unknown mitigation {choice!r}")


def build_loop_graph(
    saver: SqliteSaver | None = None,
) -> CompiledStateGraph[LoopState, LoopContext, LoopInput, LoopOutput]:
    """The compiled loop graph (input: `{"config": LoopConfig}`; output: every artefact)."""
    g = StateGraph(LoopState, LoopContext, input_schema=LoopInput, output_schema=LoopOutput)
    g.add_node("generate", generate)
    g.add_node("ask", ask)
    g.add_node("verify", verify)
    g.add_node("score", score)
    g.add_node("mitigate", mitigate)
    g.add_node("report", report)
    g.add_edge(START, "generate")
    g.add_edge("generate", "ask")
    g.add_edge("ask", "verify")
    g.add_edge("verify", "score")
    g.add_conditional_edges("score", after_score)
    g.add_edge("mitigate", "report")
    g.add_edge("report", END)
    return g.compile(checkpointer=saver or loop_checkpointer())


__all__ = ["CHECKPOINTED_TYPES", "NODES", "after_score", "build_loop_graph", "loop_checkpointer"]
