"""A response read into its claims: the reading floor's stages, in order, over one response.

The response is read as the plain statements it makes (`agents.reading.clauses`), quotations of the query
blanked out; the catalog's own templates read every statement they can (`QueryReader.with_query`, which
also turns a short answer into a claim with the query); the answers to the question (a complete list, an
MTL formula, the answers supplied triples give) are added; a sentence no reader reads stays a `text`
claim; then the free reader (`read_free`) reads what the templates left, and the pair's own labels are
put on the claims (`relabel`). The verifier's claims node is a call of `read_response`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Protocol

from agents.reading.candidates import asserts_nothing, nlp, relabel
from agents.reading.claim_types import (
    MAX_CLAIMS,
    Claim,
    ClaimOrigin,
    ComparisonClaim,
    TextClaim,
    TripleClaim,
    replaced,
)
from agents.reading.claims.answer_claims import answers_claim, set_claim, stances, temporal_claims
from agents.reading.claims.free import ReadingServices, read_free
from agents.reading.claims.referents import doer_and_done
from agents.reading.claims.referents import pair as pair_of_query
from agents.reading.claims.referents import topic as topic_of
from agents.reading.claims.whole_lists import whole_lists
from agents.reading.clauses import Plain, plain
from agents.reading.mentions import knower, names_known, narrowed, number_phrase, typed_readings, without_article
from agents.reading.questions import without_echoes
from agents.reading.templates import ComparisonStatement, QueryReader, Statement
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.naming import TypeCheck, stored_objects


class ResponseServices(ReadingServices, Protocol):
    """What reading a response needs of the verifier's services: the free reader's, and the template reader."""

    @property
    def reader(self) -> QueryReader:
        """The catalog-template reader (statements, and a query with its short answer)."""
        ...


MAX_PARSE_CHARS = 20_000
"""The part of a response parsed for its discourse (the rest is read as it is)."""
HEADING = re.compile(r"[^\W\d][\w' -]{0,39}:")
"""A sentence that is only a label and a colon ("Answer:", "Reasoning process:"): it heads what follows and
asserts nothing."""


def _overlaps(span: tuple[int, int], spans: list[tuple[int, int]]) -> bool:
    return any(a < span[1] and span[0] < b for a, b in spans)


def _from_statement(st: Statement | ComparisonStatement) -> TripleClaim | ComparisonClaim:
    """A claim from a statement the catalog templates read."""
    origin = ClaimOrigin.TEMPLATE if st.span is not None else ClaimOrigin.QUERY
    if isinstance(st, ComparisonStatement):
        return ComparisonClaim(
            id="",
            text=st.text,
            span=st.span,
            origin=origin,
            subject=st.subject,
            relation=st.relation,
            direction=st.direction,
            candidates=tuple(st.candidates),
            year=st.year,
        )
    return TripleClaim(
        id="",
        text=st.text,
        span=st.span,
        origin=origin,
        subject=st.subject,
        relation=st.relation,
        object=st.object,
        negated=st.negated,
        disjunctive=st.disjunctive,
        past=st.past,
    )


def _with_tolerance(claim: TripleClaim | ComparisonClaim, catalog: Catalog) -> TripleClaim | ComparisonClaim:
    """A number object with a scale word, in words or said to be approximate gets its tolerance ("about 83 million")."""
    if not isinstance(claim, TripleClaim) or claim.relation not in catalog:
        return claim
    if catalog.get(claim.relation).object_kind != ValueKind.QUANTITY:
        return claim
    read = number_phrase(claim.object)
    if read is None or read[1] is None:
        return claim
    return replaced(claim, object=read[0], tolerance=read[1])


def read_response(
    services: ResponseServices,
    query: str,
    response: str,
    triples: Sequence[Sequence[str]] = (),
    extract: Callable[[list[Claim]], list[Claim]] | None = None,
) -> list[Claim]:
    """Claims of a response (without ids' gaps: `C1`, `C2`, ... in reading order); `triples` are the supplied ones.

    `extract`, when given, replaces what it can of the claims before they are numbered (the verifier's
    LLM extractor turns text claims into linked triples).

    The response is read as the plain statements it makes (`agents.reading.clauses.discourse`: hedges and
    connectives dropped, relative clauses made sentences), quotations of the query blanked out
    (`agents.reading.questions.asking.without_echoes`); each claim's span is on the response's own words.
    """
    bare = without_echoes(query, response)  # 'You asked "<the query>"': the echo asserts nothing
    response = dashes_as_commas(bare if bare.strip() else response)
    said = plain(nlp()(response[:MAX_PARSE_CHARS])) if response.strip() else None
    if said is None or not said.changed:
        return _read_claims(services, query, response, triples, extract)
    claims = _read_claims(services, query, said.text + response[MAX_PARSE_CHARS:], triples, extract)
    return [c if c.span is None else c.model_copy(update={"span": _mapped(said, c.span)}) for c in claims]


DASH = re.compile(r"(?<=[\w)]\s)[\u2014\u2013-](?=\s[^\W\d])|(?<=\w)\u2014(?=\w)")
"""A dash that sets off an aside ("X is in Y, the same Z as W" written with a dash): spaced before a word, or an
unspaced em dash between words; never a hyphen or an en dash inside a word, a range or a sum ("s-block", a span
of years, "5 - 3")."""


def dashes_as_commas(text: str) -> str:
    """The text with each aside's dash a comma, the mark the clause readers know (same length: spans stay)."""
    return DASH.sub(",", text)


def without_repeats(claims: Sequence[Claim]) -> list[Claim]:
    """The claims without a repeat: one claim per kind, wording and span.

    "X created Y." may be read from a sentence and again from the statement a clause split cut from it.
    """
    seen: set[tuple[str, str, tuple[int, int] | None]] = set()
    out: list[Claim] = []
    for c in claims:
        key = (type(c).__name__, c.text, c.span)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out


def _mapped(said: Plain, span: tuple[int, int]) -> tuple[int, int]:
    """A span of the plain text on the response (text past the parsed part keeps its offset shift)."""
    n = len(said.text)
    shift = (said.origin[-1] + 1 - n) if said.origin else 0
    if span[0] >= n:
        return span[0] + shift, span[1] + shift
    start, end = said.span(span[0], min(span[1], n))
    return start, end if span[1] <= n else span[1] + shift


def _read_claims(
    services: ResponseServices,
    query: str,
    response: str,
    triples: Sequence[Sequence[str]],
    extract: Callable[[list[Claim]], list[Claim]] | None,
) -> list[Claim]:
    found: list[Claim] = []
    misread: list[tuple[int, int]] = []
    known = knower(services.store, triples)  # the store's thread: call it through `services.gate`
    topic = services.gate.run(lambda: topic_of(query, known, response))
    both = services.gate.run(lambda: pair_of_query(query, known))
    roles = services.gate.run(lambda: doer_and_done(query, known))
    for st in services.reader.with_query(query, response, topic):
        claim = _with_tolerance(_from_statement(st), services.catalog)
        named = services.gate.run(lambda c=claim: names_known(c, known, services.catalog))
        if not named:
            if claim.span is not None:
                misread.append(claim.span)
            continue  # a template took words for names ("Is it false that ...?", "Go, designed at X, ..."): read freely
        found.append(services.gate.run(lambda c=claim: without_article(c, services.store)))
    typed = TypeCheck(services.store, services.catalog)  # "in group 2 of the periodic table": the group, not the period
    found = services.gate.run(lambda: typed_readings(found, lambda r, s, o: typed(r, s, o, strict=True)))
    found += temporal_claims(query, response)
    if complete := set_claim(services.reader, services.catalog, query, response):
        found.append(complete)
    sentences = [(span, text) for span, text in services.reader.sentences(response) if text.strip()]
    if len(sentences) == 1:
        # a one-sentence response is the short answer the query-composed claims come from
        found = [c if c.span is not None else c.model_copy(update={"span": sentences[0][0]}) for c in found]
    read_spans = [c.span for c in found if c.span is not None]
    for span, sentence in sentences:
        repeat = not _overlaps(span, misread) and services.reader.read(sentence)
        if _overlaps(span, read_spans) or HEADING.fullmatch(sentence.strip()) or repeat:
            continue  # read already, a heading, or a repeat of a claim read already ("Therefore, <the same claim>.")
        if asserts_nothing(nlp()(sentence[:MAX_PARSE_CHARS])):
            continue  # "The question asks if ...": it asks, asserts nothing
        if sentence.strip():
            found.append(TextClaim(id="", text=sentence.strip(), span=span, origin=ClaimOrigin.SENTENCE))
    if not complete and (supplied := answers_claim(query, response, triples)):
        found.append(supplied)  # no span: the sentences it reads stay for the Seeker
    answered = any(c.origin == ClaimOrigin.QUERY for c in found)
    said = [] if answered else stances(response)
    found = read_free(services, "" if answered else query, response, said, found, triples, topic, both, roles)
    found = relabel(found, triples, services.catalog, lambda: services.sentence_reader.linker, nlp())
    found = services.gate.run(lambda: narrowed(found, services.catalog, lambda r, s, o: typed(r, s, o, strict=True)))
    if extract is not None:
        found = extract(found)
    found = without_repeats(found)

    def values_of(name: str, relation: str) -> list[str]:
        return stored_objects(services.store, name, relation)

    found += services.gate.run(lambda: whole_lists(found, query, sentences, services.catalog, values_of, response))
    found.sort(key=lambda c: (c.span or (10**9, 0))[0])
    return [c.model_copy(update={"id": f"C{i}"}) for i, c in enumerate(found[:MAX_CLAIMS], 1)]


__all__ = [
    "DASH",
    "HEADING",
    "MAX_PARSE_CHARS",
    "ResponseServices",
    "dashes_as_commas",
    "read_response",
    "without_repeats",
]
