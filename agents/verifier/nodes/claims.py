"""claims: the response as atomic, self-contained claims with their character spans.

A call of the reading floor (`agents.reading.claims.read_response`). A sentence no reader reads stays a
`text` claim, judged by the Seeker with the whole response; with `extractor` set to `llm` (or `auto` and
a remote extractor role) the extractor model's triples for such sentences are linked to the catalog.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.reading.claim_types import Claim, ClaimOrigin, TextClaim, TripleClaim
from agents.reading.claims import read_response
from agents.verifier.context import VerifierContext
from agents.verifier.nodes.base import node
from agents.verifier.state import VerifierState


def read_claims(ctx: VerifierContext, query: str, response: str, triples: Sequence[Sequence[str]] = ()) -> list[Claim]:
    """Claims of a response (`agents.reading.claims.read_response`), with the LLM extractor when it is on."""
    extract = (lambda found: _extract(ctx, found)) if _use_extractor(ctx) else None
    return read_response(ctx.services, query, response, triples, extract)


def _use_extractor(ctx: VerifierContext) -> bool:
    mode = ctx.settings.extractor
    return mode == "llm" or (mode == "auto" and not ctx.services.role("extractor").is_local)


def _extract(ctx: VerifierContext, claims: list[Claim]) -> list[Claim]:
    """Replace text claims by the extractor's linked triples where the relation links to the catalog."""
    from drowzee_core.llm.extractor import LLMExtractor

    extractor = LLMExtractor(ctx.services.chat("extractor"))
    out: list[Claim] = []
    for c in claims:
        if not isinstance(c, TextClaim):
            out.append(c)
            continue
        linked: list[Claim] = []
        for t in extractor.triples(c.text):
            negated = t.predicate.startswith("not ")
            relation, _score = ctx.services.linker.relation(t.predicate[4:] if negated else t.predicate)
            if relation is not None:
                linked.append(
                    TripleClaim(
                        id=c.id,
                        text=c.text,
                        span=c.span,
                        origin=ClaimOrigin.EXTRACTOR,
                        subject=t.subject,
                        relation=relation,
                        object=t.object,
                        negated=negated,
                    )
                )
        out.extend(linked or [c])
    return out


@node("claims")
def claims(state: VerifierState, ctx: VerifierContext) -> dict[str, Any]:
    """Read the response's claims."""
    return {"claims": read_claims(ctx, state.get("query", ""), state["response"], state.get("supplied_triples", []))}
