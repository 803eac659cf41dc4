"""prepare: read the supplied evidence into evidence items (S1, S2, ...) and triples for a scratch KB."""

from __future__ import annotations

from typing import Any

from agents.verifier.context import VerifierContext
from agents.verifier.evidence import normalize_evidence
from agents.verifier.nodes.base import node
from agents.verifier.state import VerifierState


@node("prepare")
def prepare(state: VerifierState, ctx: VerifierContext) -> dict[str, Any]:
    """Supplied evidence as items and triples (unreadable evidence fails this node: degraded, not fatal)."""
    supplied = normalize_evidence(state.get("evidence"))
    return {"gathered": supplied.items, "supplied_triples": supplied.triples}
