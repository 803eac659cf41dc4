"""Truth Seeker: gather evidence (supplied, KB lookup, local corpus, web when enabled) and judge with it.

Evidence ids: `S*` supplied, `K*` proof facts (from the KB check), `R*` KB facts about the claims'
entities, `D*` local corpus passages, `W*` web results. The judge (the trained `judge` role, or the
`seeker` role's LLM with the judge prompt) scores the whole response against all of it, and each claim
on its own; the response-level probability is the Seeker's opinion. With evidence supplied, the evidence
reader also reads each claim against its sentences (`findings`): supported, refuted or not enough
info, citing sentences; the Manager lets that decide every claim a proof did not (`agents.verifier.decision`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from typing import Any

from agents.reading.claim_types import Claim, ClaimKind, ClaimOrigin, TripleClaim, names_of
from agents.reading.evidence import finding_of, value_stated, yes_or_no
from agents.verifier.context import VerifierContext
from agents.verifier.nodes.base import node
from agents.verifier.schemas import ClaimSupport, KBResult
from agents.verifier.state import VerifierState
from drowzee_core.nlp import stop_words
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import EvidenceFinding, EvidenceItem, EvidenceSource, Opinion, OpinionSource

log = logging.getLogger(__name__)

MAX_JUDGED_ITEMS = 30
CITED_PER_CLAIM = 3
_WORD = re.compile(r"\w{3,}")
_NUMERIC = re.compile(r"^[-+]?\d[\d,.]*(?:\s*(?:BC|BCE|AD|CE))?$")


def _words(text: str) -> set[str]:
    """Content words, lower-cased (stop words out: "the" is shared by everything)."""
    return {w.lower() for w in _WORD.findall(text)} - stop_words()


def _names(text: str) -> set[str]:
    """Capitalised content words, lower-cased (a name's words)."""
    return {w.lower() for w in _WORD.findall(text) if w[:1].isupper()} - stop_words()


def bearing(claim: str, items: Sequence[EvidenceItem], k: int = CITED_PER_CLAIM) -> list[str]:
    """Ids of the (at most `k`) items sharing the most content words with `claim`.

    An item bears on the claim when it shares one of the claim's names or two of its content words:
    "France uses the euro" does not bear on "Japan uses the yen".
    """
    words, names = _words(claim), _names(claim)
    shared = [words & _words(e.text) for e in items]
    ranked = sorted(range(len(items)), key=lambda i: (-len(shared[i]), i))
    return [items[i].id for i in ranked[:k] if len(shared[i]) >= 2 or shared[i] & names]


def _new(items: Sequence[EvidenceItem], known: Sequence[EvidenceItem]) -> list[EvidenceItem]:
    """`items` without those whose text is already known (the same fact from two tools is cited once)."""
    seen = {e.text.strip().lower() for e in known}
    out = []
    for e in items:
        key = e.text.strip().lower()
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


"""Evidence items the judge reads per input (supplied first, then proof facts, then retrieval)."""


def _renumber(items: Sequence[EvidenceItem], prefix: str) -> list[EvidenceItem]:
    return [e.model_copy(update={"id": f"{prefix}{i}"}) for i, e in enumerate(items, 1)]


def gather(
    ctx: VerifierContext, query: str, response: str, claims: Sequence[Claim]
) -> tuple[list[EvidenceItem], list[str]]:
    """Retrieved evidence and the reasons of any search that failed (recorded, not fatal)."""
    services, settings = ctx.services, ctx.settings
    found: list[EvidenceItem] = []
    failed: list[str] = []
    named = (m for c in claims for m in names_of(c) if m)
    mentions = list(dict.fromkeys(m for m in named if not _NUMERIC.match(m.strip())))
    if mentions and settings.use_kb:
        facts, store = services.kb_facts, services.store

        def lookup() -> list[EvidenceItem]:
            ids = [i for m in mentions for i in store.resolve(m, 3)]
            return facts.about(ids, limit=settings.top_k * 4)

        found += _renumber(services.gate.run(lookup), "R")
    text = f"{query} {response}".strip()
    if settings.kb_corpus or settings.corpus is not None:
        try:
            found += _renumber(services.corpus.search(text, settings.top_k), "D")
        except Exception as exc:
            failed.append(f"seeker corpus search: {type(exc).__name__}: {exc}")
    if settings.web:
        try:
            found += _renumber(services.web.search(text, settings.top_k), "W")
        except Exception as exc:
            failed.append(f"seeker web search: {type(exc).__name__}: {exc}")
    return found, failed


READ_KINDS = frozenset({ClaimKind.TEXT, ClaimKind.TRIPLE})
"""Claims the evidence reader reads: statements. Question shapes (common, count, comparison, set, temporal)
are the KB check's, over the supplied triples."""


def findings(
    ctx: VerifierContext,
    query: str,
    claims: Sequence[Claim],
    evidence: Sequence[EvidenceItem],
    results: Sequence[KBResult] = (),
) -> tuple[dict[str, EvidenceFinding], list[str]]:
    """Statements the KB check left open, read against the supplied evidence's sentences, and what failed.

    A proof decides first; the evidence reader reads the other statements, and only supplied evidence
    counts (retrieved items are not the pair's evidence). A bare Yes / No is left to the KB check when it
    read the question as logic. With an LLM reader (`evidence_reading`), the model reads each claim's
    aligned sentences (`agents.reading.evidence.llm_reader`); a claim it gives no valid judgement for is read by
    the embedded reader (`agents.reading.evidence.reader`), and the failure is recorded.
    """
    supplied = [e for e in evidence if e.source == EvidenceSource.SUPPLIED]
    proved = {r.claim_id for r in results if r.status in (ProofStatus.SUPPORTED, ProofStatus.CONTRADICTED)}
    asked = any(c.origin == ClaimOrigin.QUERY and c.kind != ClaimKind.TEXT for c in claims)
    claims = [
        c
        for c in claims
        if c.kind in READ_KINDS and c.id not in proved and not (asked and yes_or_no(c.text) is not None)
    ]
    if not supplied or not claims:
        return {}, []
    reader, model = ctx.services.evidence_reader, ctx.services.model_evidence_reader
    sentences = reader.sentences(supplied)
    found: dict[str, EvidenceFinding] = {}
    failed: list[str] = []
    for c in claims:
        # a claim composed from the query states it: nothing of it is the question's presupposition ("given"),
        # nor of a partial reading of the question (read by the reader, and on no span of the response)
        composed = c.origin == ClaimOrigin.QUERY or (c.origin == ClaimOrigin.READER and c.span is None)
        asks = "" if composed else query
        if model is not None:
            try:
                reading = model.read(asks, c.text, reader.aligned(asks, c.text, sentences))
                found[c.id] = finding_of(reading, sentences, read_by=model.name)
                continue
            except Exception as exc:  # a model or network failure: the embedded reader reads this claim
                failed.append(f"seeker evidence reading ({model.name}) of claim {c.id}: {type(exc).__name__}: {exc}")
        reading = reader.read(asks, c.text, sentences)
        if isinstance(c, TripleClaim) and c.object and c.object.islower():  # a common-noun value ("poem") is asserted
            reading = value_stated(reading, c.object, sentences)
        found[c.id] = finding_of(reading, sentences)
    return found, failed


@node("seeker", OpinionSource.SEEKER)
def seeker(state: VerifierState, ctx: VerifierContext) -> dict[str, Any]:
    """Gather evidence and judge the response (and each claim) with it."""
    if not ctx.settings.use_seeker:
        return {}
    query, response = state.get("query", ""), state["response"]
    claims = state.get("claims", [])
    retrieved, failed = gather(ctx, query, response, claims)
    retrieved = _new(retrieved, state.get("gathered", []))
    evidence = [*state.get("gathered", []), *retrieved]
    if not evidence:
        return {
            "gathered": retrieved,
            "degraded": failed,
            "opinions": [Opinion(source=OpinionSource.SEEKER, explanation="no evidence found to judge with")],
        }
    read = evidence[:MAX_JUDGED_ITEMS]
    texts = [e.text for e in read]
    judge = ctx.services.judge
    scores = judge.score([(query, response, texts), *((query, c.text, texts) for c in claims)])
    whole, per_claim = scores[0], scores[1:]
    p = whole.p_supported
    label = Label.FACTUAL if p >= judge.threshold else Label.NON_FACTUAL
    band = " (inside the not-enough-evidence band)" if whole.decision is None else ""
    opinion = Opinion(
        source=OpinionSource.SEEKER,
        label=label,
        confidence=p if label == Label.FACTUAL else 1.0 - p,
        explanation=f"judge P(supported) = {p:.3f} over {len(read)} evidence items{band}",
    )
    found, unread = findings(ctx, query, claims, evidence, state.get("kb_results", []))
    support = [
        ClaimSupport(
            claim_id=c.id, p_supported=s.p_supported, evidence_ids=bearing(c.text, read), finding=found.get(c.id)
        )
        for c, s in zip(claims, per_claim, strict=True)
    ]
    supplied = any(e.source == EvidenceSource.SUPPLIED for e in evidence)
    unanswered = ctx.services.evidence_reader.unanswered(query, response) if supplied else None
    return {
        "gathered": retrieved,
        "degraded": [*failed, *unread],
        "opinions": [opinion],
        "support": support,
        "unanswered": unanswered,
    }
