"""The verifier graph: wiring only (the nodes live in `agents/nodes/`).

    START -> prepare -> claims -> (kb_check ->) seeker ---+
                  +--> guardian --------------------------+-> verdict_manager -> END

The Guardian needs nothing but the pair, so it runs beside the claims / KB / Seeker chain (its model
is served by another process). Checkpoints go to SQLite, so a batch can resume a pair mid-way.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Literal

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from agents.context import VerifierContext
from agents.nodes import claims, guardian, kb_check, prepare, seeker, verdict_manager
from agents.state import VerifierInput, VerifierOutput, VerifierState

CHECKPOINTED_TYPES = (
    [
        ("agents.schemas", name)
        for name in ("Claim", "ClaimCondition", "ClaimKind", "ClaimOrigin", "ClaimSupport", "KBOrigin", "KBResult")
    ]
    + [
        ("drowzee_core.records.verdict", name)
        for name in (
            "EvidenceItem",
            "EvidenceSource",
            "Opinion",
            "OpinionSource",
            "Verdict",
            "VerdictProvenance",
            "ClaimVerdict",
            "DecidedBy",
            "Decision",
            "ModelRef",
            "UndecidedPolicy",
        )
    ]
    + [
        ("agents.answer_set", "AnswerSet"),
        ("drowzee_core.records.enums", "Label"),
        ("drowzee_core.records.enums", "ProofStatus"),
        ("drowzee_core.records.proof", "ProofNode"),
    ]
)
"""Our record types that checkpoints may hold (LangGraph refuses to revive unlisted types)."""


def after_claims(state: VerifierState, runtime: Runtime[VerifierContext]) -> Literal["kb_check", "seeker"]:
    """Skip the KB check when it is off and no triples were supplied."""
    if runtime.context.settings.use_kb or state.get("supplied_triples"):
        return "kb_check"
    return "seeker"


def checkpointer(path: Path | None = None) -> SqliteSaver:
    """A SQLite checkpointer (in memory when `path` is None)."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path) if path else ":memory:", check_same_thread=False)
    return SqliteSaver(conn, serde=JsonPlusSerializer(allowed_msgpack_modules=CHECKPOINTED_TYPES))


def build_graph(
    saver: SqliteSaver | None = None,
) -> CompiledStateGraph[VerifierState, VerifierContext, VerifierInput, VerifierOutput]:
    """The compiled verifier graph (input: the request's fields; output: `{"verdict": Verdict}`)."""
    g = StateGraph(VerifierState, VerifierContext, input_schema=VerifierInput, output_schema=VerifierOutput)
    g.add_node("prepare", prepare)
    g.add_node("claims", claims)
    g.add_node("kb_check", kb_check)
    g.add_node("seeker", seeker)
    g.add_node("guardian", guardian)
    g.add_node("verdict_manager", verdict_manager)
    g.add_edge(START, "prepare")
    g.add_edge("prepare", "claims")
    g.add_edge("prepare", "guardian")
    g.add_conditional_edges("claims", after_claims)
    g.add_edge("kb_check", "seeker")
    g.add_edge(["seeker", "guardian"], "verdict_manager")
    g.add_edge("verdict_manager", END)
    return g.compile(checkpointer=saver or checkpointer())


__all__ = ["CHECKPOINTED_TYPES", "after_claims", "build_graph", "checkpointer"]
