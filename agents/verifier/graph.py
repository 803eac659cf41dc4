"""The verifier graph: wiring only (the nodes live in `agents/verifier/nodes/`).

    START -> prepare -> claims -> (kb_check ->) seeker -> guardian -> verdict_manager -> END

The Guardian needs nothing but the pair, so its request runs beside the claims / KB / Seeker chain (its
model is served by another process): `prepare` starts it in the background and the `guardian` node
collects it (`agents.verifier.background`; a Guardian node beside `claims` would hold every later step
back until its model answered, because LangGraph starts a step only when the one before has finished).
Each run is checkpointed to SQLite (in memory unless `Verifier` is given a path) while it runs: the
state after each node, which the tests inspect. A pair is not resumed mid-way: the batch's ledger
resumes whole pairs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from langgraph.checkpoint.sqlite import SqliteSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from agents.reading.claim_types import CLAIM_TYPES, ClaimCondition, ClaimKind, ClaimOrigin
from agents.reading.claims import AnswerSet
from agents.verifier.checkpoints import checkpointer
from agents.verifier.context import VerifierContext
from agents.verifier.nodes import claims, guardian, kb_check, prepare, seeker, verdict_manager
from agents.verifier.schemas import ClaimSupport, KBOrigin, KBResult
from agents.verifier.state import VerifierInput, VerifierOutput, VerifierState
from drowzee_core.records.enums import Label, ProofStatus, TimeWord
from drowzee_core.records.proof import ProofNode
from drowzee_core.records.verdict import (
    CitedSentence,
    ClaimReading,
    ClaimVerdict,
    DecidedBy,
    Decision,
    EvidenceFinding,
    EvidenceItem,
    EvidenceSource,
    ModelRef,
    Opinion,
    OpinionSource,
    UndecidedPolicy,
    Verdict,
    VerdictProvenance,
)

CHECKPOINTED_TYPES: tuple[type, ...] = (
    *CLAIM_TYPES,
    ClaimCondition,
    ClaimKind,
    ClaimOrigin,
    ClaimSupport,
    KBOrigin,
    KBResult,
    AnswerSet,
    EvidenceItem,
    EvidenceSource,
    Opinion,
    OpinionSource,
    Verdict,
    VerdictProvenance,
    ClaimVerdict,
    DecidedBy,
    Decision,
    ModelRef,
    UndecidedPolicy,
    Label,
    ProofStatus,
    ProofNode,
    TimeWord,
    ClaimReading,
    CitedSentence,
    EvidenceFinding,
)
"""Our record types that checkpoints may hold (LangGraph refuses to revive unlisted types)."""


def after_claims(state: VerifierState, runtime: Runtime[VerifierContext]) -> Literal["kb_check", "seeker"]:
    """Skip the KB check when it is off and no triples were supplied."""
    if runtime.context.settings.use_kb or state.get("supplied_triples"):
        return "kb_check"
    return "seeker"


def verifier_checkpointer(path: Path | None = None) -> SqliteSaver:
    """The verifier's SQLite checkpointer (in memory when `path` is None)."""
    return checkpointer(CHECKPOINTED_TYPES, path)


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
    g.add_conditional_edges("claims", after_claims)
    g.add_edge("kb_check", "seeker")
    g.add_edge("seeker", "guardian")
    g.add_edge("guardian", "verdict_manager")
    g.add_edge("verdict_manager", END)
    return g.compile(checkpointer=saver or verifier_checkpointer())


__all__ = ["CHECKPOINTED_TYPES", "after_claims", "build_graph", "verifier_checkpointer"]
