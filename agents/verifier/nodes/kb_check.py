"""kb_check: prove or refute each claim with Prolog, on the user's KB and on the pair's supplied triples.

When the supplied triples are the answer set of a "which ..." question, the node also reports how
many of those answers the response names (`agents.reading.claims.answer_set`: a signal for the Manager, not a
proof).

Supplied triples go into a scratch KB for this pair only (a second Prolog module, never the user's
KB) and are reasoned over with the same rule families. Supplied evidence is about this pair, so when
it decides a claim it wins over the user's KB; otherwise the user's KB decides. Absence is never
"false": an unknown claim stays unknown. One exception, for supplied triples only: where they give two
names values of a relation and share none, "the same N" / "different Ns" is decided by those values
(`agents.verifier.kb.supplied`). Every proof's stored facts become evidence items (`K1`, ...).

The results are cached (tool `prove`) by KB fingerprint, package version, supplied triples and claims:
a cached pair loads neither the scratch KB nor Prolog.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import Any

from agents.reading.claim_types import (
    Claim,
    CommonClaim,
    ComparisonClaim,
    CountClaim,
    SetClaim,
    TemporalClaim,
    TextClaim,
    TripleClaim,
    only_sufficient,
    replaced,
)
from agents.reading.claims import evidence_answers
from agents.verifier.cache import PROVE_TOOL
from agents.verifier.context import VerifierContext
from agents.verifier.kb.counts import count_values
from agents.verifier.kb.dates import at_year
from agents.verifier.kb.event_years import in_decade
from agents.verifier.kb.lists import whole_list
from agents.verifier.kb.numbers import near
from agents.verifier.kb.prove import Decided, common, compare, prove_claim, temporal
from agents.verifier.kb.sets import count_at_least, set_complete
from agents.verifier.kb.supplied import distinct_values
from agents.verifier.kb_opinion import kb_opinion
from agents.verifier.nodes.base import node
from agents.verifier.schemas import KBOrigin, KBResult
from agents.verifier.state import VerifierState
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.logic.temporal import TemporalEngine
from drowzee_core.records.enums import ProofStatus, TimeWord
from drowzee_core.records.provenance import code_digest
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource, OpinionSource

UNIQUE_VALUE_RULES = frozenset(
    {"negation_functional", "negation_inverse_functional", "negation_partition", "negation_complete"}
)
"""Prolog rules that refute a stated value because the KB holds another, unique one (or a complete list)."""


Decidable = TripleClaim | CommonClaim | CountClaim | ComparisonClaim | SetClaim
"""The claims Prolog decides from stored facts (temporal claims go to the MTL engine, text to the Seeker)."""


def _decide(reasoner: Reasoner, claim: Decidable) -> Decided:
    d = _decide_now(reasoner, claim)
    past = not isinstance(claim, SetClaim) and claim.past
    if past and d.proof is not None and d.proof.rule in UNIQUE_VALUE_RULES:
        # "Bonn was the capital of Germany": today's unique value (Berlin) does not decide the past
        note = f"the KB's unique value decides the present, not this past-tense claim ({d.proof.text})"
        return Decided(ProofStatus.UNKNOWN, None, note)
    return d


def _decide_now(reasoner: Reasoner, claim: Decidable) -> Decided:
    if isinstance(claim, SetClaim) and claim.said_whole:
        whole = claim.conditions[0]
        return whole_list(reasoner, whole.other, whole.relation, claim.candidates)
    if isinstance(claim, SetClaim):
        return set_complete(reasoner, claim.operation, claim.conditions, claim.candidates, claim.text)
    if isinstance(claim, CountClaim) and claim.values:
        return count_values(reasoner, claim.subject, claim.relation, claim.at_least, claim.negated)
    if isinstance(claim, CountClaim):
        return count_at_least(reasoner, claim.relation, claim.subject, claim.at_least, claim.negated)
    if isinstance(claim, ComparisonClaim):
        return compare(reasoner, claim.subject, claim.relation, claim.direction, claim.candidates, claim.year)
    if isinstance(claim, CommonClaim):
        return common(reasoner, claim.subject, claim.relation, claim.object, claim.negated)
    if claim.year is not None and claim.time == TimeWord.DECADE and claim.object == str(claim.year):
        return in_decade(reasoner, claim.subject, claim.relation, claim.year, claim.negated)
    if claim.year is not None and claim.tolerance is None:
        return at_year(reasoner, claim.subject, claim.relation, claim.object, claim.year, claim.negated, claim.time)
    if claim.tolerance is not None:
        return near(reasoner, claim.subject, claim.relation, claim.object, claim.tolerance, claim.negated)
    return prove_claim(reasoner, claim.subject, claim.relation, claim.object, claim.negated)


def check_claims(
    main: Reasoner | None,
    supplied: Reasoner | None,
    claims: Sequence[Claim],
    events: Callable[[], TemporalEngine] | None = None,
) -> list[KBResult]:
    """Each decidable claim's result (runs on the KB thread); `events` gives the MTL engine of temporal claims."""
    out = []
    for c in claims:
        if isinstance(c, TemporalClaim) and events is not None:
            d = temporal(events(), c.mtl, c.negated)
            origin = KBOrigin.MAIN if d.status != ProofStatus.UNKNOWN else None
            note = f"main: {d.status} ({d.note})"
            out.append(KBResult(claim_id=c.id, status=d.status, kb=origin, proof=d.proof, note=note, linked=d.linked))
            continue
        if isinstance(c, TextClaim | TemporalClaim):
            continue
        notes = []
        linked = False
        decided: tuple[Decided, KBOrigin] | None = None
        for reasoner, origin in ((supplied, KBOrigin.SUPPLIED), (main, KBOrigin.MAIN)):
            if reasoner is None:
                continue
            said: Decidable = c
            if origin == KBOrigin.SUPPLIED and isinstance(c, TripleClaim) and c.supplied_as is not None:
                said = replaced(c, **dict(zip(("subject", "relation", "object"), c.supplied_as, strict=True)))
            d = _decide(reasoner, said)
            if d.status == ProofStatus.UNKNOWN and origin == KBOrigin.SUPPLIED and isinstance(c, CommonClaim):
                d = distinct_values(reasoner, c.subject, c.relation, c.object, c.negated) or d
            notes.append(f"{origin}: {d.status} ({d.note})")
            linked = linked or d.linked
            if d.status != ProofStatus.UNKNOWN:
                decided = (d, origin)
                break
        if decided is None:
            out.append(KBResult(claim_id=c.id, status=ProofStatus.UNKNOWN, note="; ".join(notes), linked=linked))
        else:
            d, origin = decided
            out.append(KBResult(claim_id=c.id, status=d.status, kb=origin, proof=d.proof, note="; ".join(notes)))
    return _sufficient(claims, _either_or(claims, out))


def _sufficient(claims: Sequence[Claim], results: list[KBResult]) -> list[KBResult]:
    """A refuted claim that only suffices for the answer (`Claim.sufficient`) leaves it open instead."""
    sufficient = {c.id for c in claims if only_sufficient(c)}
    why = "the question asks more than this claim: its failure leaves the answer open"
    return [
        r.model_copy(update={"status": ProofStatus.UNKNOWN, "proof": None, "note": f"{r.note}; {why}".lstrip("; ")})
        if r.claim_id in sufficient and r.status == ProofStatus.CONTRADICTED
        else r
        for r in results
    ]


def _either_or(claims: Sequence[Claim], results: list[KBResult]) -> list[KBResult]:
    """A refuted alternative of an either-or claim is refuted only when all of its subject's alternatives are."""
    alternatives: dict[str, list[KBResult]] = {}
    either = {c.id: c.subject for c in claims if isinstance(c, TripleClaim) and c.disjunctive}
    for r in results:
        if r.claim_id in either:
            alternatives.setdefault(either[r.claim_id], []).append(r)
    out = []
    for r in results:
        group = alternatives.get(either[r.claim_id], []) if r.claim_id in either else []
        if r.status == ProofStatus.CONTRADICTED and any(g.status != ProofStatus.CONTRADICTED for g in group):
            note = f"{r.note}; an alternative of this either-or claim is not refuted"
            r = KBResult(claim_id=r.claim_id, status=ProofStatus.UNKNOWN, kb=r.kb, note=note)
        out.append(r)
    return out


def proof_evidence(results: Sequence[KBResult]) -> list[EvidenceItem]:
    """The stored facts behind the proofs, as evidence items K1, K2, ... (one per distinct sentence)."""
    items: dict[str, EvidenceItem] = {}
    for r in results:
        if r.proof is None:
            continue
        source = EvidenceSource.SUPPLIED if r.kb == KBOrigin.SUPPLIED else EvidenceSource.KB
        for leaf in r.proof.leaf_nodes():
            if leaf.text not in items:
                ref = " ".join(leaf.fact)
                items[leaf.text] = EvidenceItem(id=f"K{len(items) + 1}", source=source, text=leaf.text, ref=ref)
    return list(items.values())


PROOF_CODE = ("drowzee_core/logic", "drowzee_core/kb")
"""What decides a proof besides the KB and the claims: the reasoner, its Prolog rules and the catalog;
`proof_code` reads them with the KB check's helpers (`agents/verifier/kb/`) and this module."""


@functools.cache
def proof_code() -> str:
    """A digest of the code and rules that decide proofs, so a changed rule never gets a cached answer."""
    root = Path(__file__).resolve().parents[3]
    files = [Path(__file__).resolve(), root / "agents" / "verifier" / "kb"]
    return code_digest(root, [*files, *(root / name for name in PROOF_CODE)])


def prove_params(kb_fingerprint: str, triples: Sequence[Sequence[str]], claims: Sequence[Claim]) -> dict[str, Any]:
    """The cache key parameters of one pair's proofs: the KB, the code that proves, the triples and claims."""
    from drowzee_core import __version__

    return {
        "kb": kb_fingerprint,
        "version": __version__,
        "code": proof_code(),
        "triples": [list(t) for t in triples],
        "claims": [c.model_dump(mode="json") for c in claims],
    }


@node("kb_check", OpinionSource.KB_CHECK)
def kb_check(state: VerifierState, ctx: VerifierContext) -> dict[str, Any]:
    """Prove the claims; the opinion is decisive only when Prolog decided."""
    if not ctx.settings.use_kb:
        return {}
    claims = state.get("claims", [])
    triples = state.get("supplied_triples", [])
    services = ctx.services

    def prove() -> list[KBResult]:
        main, catalog = services.reasoner, services.catalog

        def run() -> list[KBResult]:
            from drowzee_core.logic.scratch import ScratchKB

            scratch: AbstractContextManager[Any] = ScratchKB(triples, catalog) if triples else nullcontext(None)
            with scratch as kb:
                return check_claims(main, kb.reasoner if kb is not None else None, claims, services.temporal_engine)

        return services.gate.run(run)

    results = services.memo(
        PROVE_TOOL,
        prove_params(services.kb_fingerprint, triples, claims),
        prove,
        encode=lambda rs: [r.model_dump(mode="json") for r in rs],
        decode=lambda v: [KBResult.model_validate(r) for r in v],
    )
    return {
        "kb_results": results,
        "answer_set": evidence_answers(state.get("query", ""), state["response"], triples),
        "gathered": proof_evidence(results),
        "opinions": [kb_opinion(claims, results)],
    }
