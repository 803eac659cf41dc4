"""prepare: start the Guardian's request; read the supplied evidence into items (S1, S2, ...) and triples."""

from __future__ import annotations

from typing import Any

from agents.verifier.context import VerifierContext
from agents.verifier.evidence import normalize_evidence
from agents.verifier.nodes.base import failure_reason, node
from agents.verifier.nodes.guardian import ask_guardian
from agents.verifier.state import VerifierState


@node("prepare")
def prepare(state: VerifierState, ctx: VerifierContext) -> dict[str, Any]:
    """Start the Guardian's request (`agents.verifier.background`); read supplied evidence as items and triples.

    Unreadable evidence fails this node: degraded, not fatal; the Guardian's request is started first.
    """
    ticket = ask_guardian(state, ctx)
    try:
        supplied = normalize_evidence(state.get("evidence"))
    except Exception as exc:  # what `node` records for any failure, without losing the ticket
        return {"guardian_ticket": ticket, "degraded": [failure_reason("prepare", exc)]}
    return {"guardian_ticket": ticket, "gathered": supplied.items, "supplied_triples": supplied.triples}
