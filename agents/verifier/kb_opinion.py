"""What the KB check's results say about the whole response: refuted, proved, or no label (pure).

A refuted claim, or a question answered both ways, makes the response NON-FACTUAL; every claim the
KB can read proved (with the answer itself among them) makes it FACTUAL; anything else leaves it to
the other sources. `kb_check` (the node) gives this opinion beside its per-claim results.
"""

from __future__ import annotations

from collections.abc import Sequence

from agents.reading.claim_types import (
    Claim,
    ClaimKind,
    ClaimOrigin,
    CommonClaim,
    CountClaim,
    RelatedClaim,
    SetClaim,
    TemporalClaim,
    TextClaim,
    TripleClaim,
)
from agents.verifier.schemas import KBResult
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import Opinion, OpinionSource


def self_contradiction(claims: Sequence[Claim]) -> tuple[Claim, Claim] | None:
    """Two claims the response makes of a question that negate each other ("Yes, because ... No, because ...")."""
    said: dict[tuple[object, ...], Claim] = {}
    for c in claims:
        if c.origin != ClaimOrigin.QUERY or isinstance(c, TextClaim | SetClaim):
            continue
        key = _asserted(c)
        if (other := said.get((*key, not c.negated))) is not None:
            return other, c
        said[(*key, c.negated)] = c
    return None


def _asserted(c: RelatedClaim | TemporalClaim) -> tuple[object, ...]:
    """What a claim asserts, less its polarity: two claims with one key and opposite polarities contradict."""
    if isinstance(c, TemporalClaim):
        return (c.kind, c.mtl)
    value: object = None
    if isinstance(c, TripleClaim | CommonClaim):
        value = c.object
    elif isinstance(c, CountClaim):
        value = (c.at_least, c.values)
    return (c.kind, c.subject, c.relation, value)


def kb_opinion(claims: Sequence[Claim], results: Sequence[KBResult]) -> Opinion:
    """NON-FACTUAL when a claim is refuted or answered both ways; FACTUAL when Prolog proved what is asserted.

    Otherwise no label.

    "What the response asserts" is every claim, or - for an answer to a question - every claim the
    KB can read when they include the answer itself (a claim composed from the query and the
    response's Yes / No or short answer): free sentences around an answer do not block its proof,
    and neither do sentences a template parsed but whose relation or names no KB holds (they are
    as unread as free text: "It was a major turning point ..." read with the subject "It").
    """
    refuted = [r for r in results if r.status == ProofStatus.CONTRADICTED]
    proved = {r.claim_id for r in results if r.status == ProofStatus.SUPPORTED}
    if refuted:
        lines = "; ".join(r.proof.text for r in refuted if r.proof is not None)
        return Opinion(source=OpinionSource.KB_CHECK, label=Label.NON_FACTUAL, confidence=1.0, explanation=lines)
    if both := self_contradiction(claims):
        said = f"the response answers both ways: {both[0].text!r} and {both[1].text!r}"
        return Opinion(
            source=OpinionSource.KB_CHECK,
            label=Label.NON_FACTUAL,
            confidence=1.0,
            explanation=f"{said}; one of them is false whatever the facts",
        )
    unlinked = {r.claim_id for r in results if not r.linked}
    # a set answer's completeness can be refuted, never proved: it does not block the members' proofs
    asserted = [c for c in claims if c.kind != ClaimKind.SET]
    # a name of the answer itself that no KB holds leaves the answer unproved (it is no free sentence around it)
    readable = [
        c for c in asserted if c.kind != ClaimKind.TEXT and (c.id not in unlinked or c.origin == ClaimOrigin.QUERY)
    ]
    answers = [c for c in readable if c.origin == ClaimOrigin.QUERY]
    if readable and all(c.id in proved for c in readable) and (len(readable) == len(asserted) or answers):
        rest = len(asserted) - len(readable)
        extra = f"; {rest} unread sentence(s) around the answer are left to the other sources" if rest else ""
        return Opinion(
            source=OpinionSource.KB_CHECK,
            label=Label.FACTUAL,
            confidence=1.0,
            explanation=f"{len(readable)} claim(s) proved{extra}",
        )
    return Opinion(
        source=OpinionSource.KB_CHECK,
        explanation=f"{len(proved)} of {len(claims)} claims proved, none refuted; the rest is not decided by the KB",
    )


__all__ = ["kb_opinion", "self_contradiction"]
