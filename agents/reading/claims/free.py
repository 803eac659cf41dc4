"""A response's free sentences read into claims: text claims the reader reads, and the query with its answer.

Sentences the catalog templates left unread are read with `SentenceReader` (`agents.reading.claims.sentence_reader`); a
subject pronoun takes the question's topic or the previous claim's subject, a subject "they" the two names
the question joins. A yes / no question (the query) read the same way, with the response's Yes or No, is
the claim the answer makes. Names are linked to the user's KB (on its thread) and to the names of the
pair's supplied triples.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

from agents.reading.candidates import WORDNET_SCORE, Comparative, Reading, decade_valued, reading_claim, verbalize
from agents.reading.claim_types import (
    Claim,
    ClaimOrigin,
    CommonClaim,
    ComparisonClaim,
    CountClaim,
    RelatedClaim,
    SetClaim,
    TextClaim,
    TripleClaim,
    replaced,
)
from agents.reading.claims.carried import Usage, carried, usage
from agents.reading.claims.sentence_reader import parsed
from agents.reading.mentions import (
    Hop,
    all_or_nothing,
    as_year,
    definite_as,
    fold,
    it_as,
    knower,
    subject_name,
    surname_as,
    then_as,
    there_as,
    they_as,
)
from agents.reading.questions import question_text, wh_question
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.naming import TypeCheck, stored_objects
from drowzee_core.kb.template_regex import fill
from drowzee_core.kb.wording import first_named

if TYPE_CHECKING:
    from agents.reading.claims.sentence_reader import SentenceReader
    from drowzee_core.kb.catalog import Catalog
    from drowzee_core.kb.gate import KBGate
    from drowzee_core.kb.store import KBStore


class ReadingServices(Protocol):
    """What the free reader needs of the verifier's services: the readers, the KB and its thread."""

    @property
    def sentence_reader(self) -> SentenceReader:
        """The semantic sentence reader."""
        ...

    @property
    def store(self) -> KBStore:
        """The user's KB (use it only through `gate`)."""
        ...

    @property
    def catalog(self) -> Catalog:
        """The KB's relation catalog."""
        ...

    @property
    def gate(self) -> KBGate:
        """The KB thread."""
        ...


def flip(reading: Reading, yes: bool) -> Reading:
    """The claim an answer makes to a question read as `reading`: itself for Yes, its negation for No."""
    return reading if yes else dataclasses.replace(reading, negated=not reading.negated)


def spoken_of(reading: Reading, triples: Sequence[Sequence[str]]) -> bool:
    """Whether a supplied triple gives the reading's subject a value of its relation (pure)."""
    subject = fold(reading.subject)
    return any(len(t) >= 3 and str(t[1]) == reading.relation and fold(str(t[0])) == subject for t in triples)


def _mistyped(r: Reading | TripleClaim, typed: TypeCheck) -> bool:
    """Whether the KB's stored facts rule out the subject of a triple reading or claim at its relation's subject end.

    Only where the KB can tell: a relation with no stored facts types nothing (`TypeCheck`, not strict). The
    object end is never asked: a wrong value ("Vell is the capital of Norland", Vell being no capital) is
    what the KB check refutes.
    """
    if (isinstance(r, Reading) and r.kind != "triple") or r.relation not in typed.catalog:
        return False
    return not typed.can(r.subject, r.relation, "s")


def _origin(r: Reading) -> ClaimOrigin:
    """How a reading of a free sentence was made: a pattern's cues, or the relation model."""
    return ClaimOrigin.MODEL if r.by_model else ClaimOrigin.READER


def _year_of(claims: Sequence[Claim], catalog: Catalog) -> int | None:
    """The year the last triple claim says: the year it is put at, or its object where its relation takes a year."""
    for c in reversed(claims):
        if isinstance(c, TripleClaim):
            if c.year is not None:
                return c.year
            takes_year = c.relation in catalog and catalog.get(c.relation).object_kind == ValueKind.YEAR
            return as_year(c.object) if takes_year else None
    return None


def _ends(claim: Claim) -> tuple[str, str | None] | None:
    """A claim's subject and object as a later pronoun may name them (a set claim: its variable)."""
    if isinstance(claim, TripleClaim | CommonClaim):
        return claim.subject, claim.object
    if isinstance(claim, CountClaim):
        return claim.subject, str(claim.at_least)
    if isinstance(claim, ComparisonClaim):
        return claim.subject, None
    if isinstance(claim, SetClaim):
        return claim.variable, None
    return None


def comparison_claim(claim: Claim, cmp: Comparative) -> ComparisonClaim:
    """The comparison a sentence makes of two names' values, as the KB check decides it."""
    return ComparisonClaim(
        id="",
        text=claim.text,
        span=claim.span,
        origin=ClaimOrigin.READER,
        subject=cmp.subject,
        relation=cmp.relation,
        direction=cmp.direction,
        candidates=(cmp.subject, cmp.other),
    )


def hop_claim(claim: Claim, hop: Hop, catalog: Catalog) -> TripleClaim:
    """The fact a resolved description rests on ("the employer of X" is Y: X works for Y), as a claim of its own."""
    text = fill(catalog.get(hop.relation).positive, hop.subject, hop.value)
    return TripleClaim(
        id="",
        text=text,
        span=claim.span,
        origin=ClaimOrigin.READER,
        subject=hop.subject,
        relation=hop.relation,
        object=hop.value,
    )


STANCE_ONLY = re.compile(
    r"(?i)(yes|no|yeah|nope|correct|right|true|false|indeed)[\s,.!]*"
    r"((it|he|she|they|we|i|you|that|this)\s+(is|are|was|were|does|do|did|has|have|had|can|could|will|would)"
    r"(\s+not|n't)?)?[\s.!]*"
)
"""A sentence that only answers yes or no ("Yes.", "No, it does not."): it says the question's claim."""


def said_already(reading: Reading, claims: Sequence[Claim]) -> TripleClaim | None:
    """The claim read from the response that means what `reading` (the question with its answer) means, or None.

    The same relation and polarity between the same names, the one or the other written in full
    ("Is Quill Works a partner of X?" "Yes, Quill Works is a partner of X." is one claim, even where the
    question's parse cut a name short). Only the same relation counts: an inverse written the other way
    round is left to the KB check, which proves both.
    """

    def same(a: str, b: str) -> bool:
        x, y = fold(a), fold(b)
        return bool(x and y) and (x in y or y in x)

    for c in claims:
        if not isinstance(c, TripleClaim) or c.negated != reading.negated:
            continue
        if c.relation == reading.relation and same(c.subject, reading.subject) and same(c.object, reading.object):
            return c
    return None


def read_free(
    services: ReadingServices,
    query: str,
    response: str,
    said: Sequence[bool],
    found: Sequence[Claim],
    triples: Sequence[Sequence[str]],
    topic: str | None = None,
    both: str | None = None,
    roles: tuple[str, str] | None = None,
) -> list[Claim]:
    """Text claims the reader reads become triple claims; the query with a Yes / No or a short answer too.

    `said` holds the response's Yes / No stance(s); the query is read only when no other reader made
    the answer's claim from it (templates, Drowzee's question shapes, MTL questions), which the caller
    says by passing `said` empty and `query` "". A reader claim keeps its sentence's span; its text is
    the claim as the catalog words it; an opening pronoun is `topic` (`referents.topic`), a subject
    "they" the two names `both` of the question (`referents.pair`), a subject "he" / "she" and an
    object "it" together the question's subject and object `roles` (`referents.doer_and_done`). A
    *partial* reading (the sentence holds more than the claim) keeps the sentence as a text claim
    beside it, so it can refute the sentence but never prove all of it.
    """
    yes_no = question_text(query) if said else None
    wh = wh_question(query) if query and not said else None
    if not any(isinstance(c, TextClaim) or c.origin == ClaimOrigin.TEMPLATE for c in found) and not yes_no and not wh:
        return list(found)
    reader, store, catalog = services.sentence_reader, services.store, services.catalog

    def run() -> list[Claim]:
        known = knower(store, triples)
        typed = TypeCheck(store, catalog)
        lexicon = reader.with_labels([str(t[1]) for t in triples if len(t) >= 3])
        out: list[Claim] = []
        previous = topic  # "When was X born?" "She was born in ..."
        before: list[str] = []  # the names of the last claim read, for a description to stand for

        def statement(text: str, previous: str | None) -> list[Reading]:
            readings = reader.read_one(text, known, previous, lexicon=lexicon)
            if not readings:
                # no catalog pattern: link the predicate to one of the catalog's relations, or to a supplied label
                # whose triples speak of the claim's subject, by a word or WordNet (a long answer's reasoning over
                # the triples read as claims no triple decides: Drowzee's history answers, dev seed 0: 0.777 ->
                # 0.743 with any label; with a lone label, any phrase is "nearest")
                least = WORDNET_SCORE if triples else 0.0  # a word or WordNet says the label, not nearness alone
                asked = reader.ask(text, known, lexicon, triples, typed, previous, least)
                readings = [r for r in asked if spoken_of(r, triples)] if triples else asked
            measures = reader.measured(text, known, typed, previous) + reader.counted(text, known, typed, previous)
            if not readings and not measures:  # no pattern, no label, no unit: the relation model, for two
                readings = reader.learned(text, known, typed, previous)  # mentions that fit one relation
            elif readings and not measures and all(_mistyped(r, typed) for r in readings):
                # "Orvin is located in Great Ket": a pattern read a relation whose ends the names cannot fill
                # (Orvin is a star, Great Ket a constellation); the relation model reads the relation they fit
                readings = reader.learned(text, known, typed, previous) or readings
            # a name related to itself is a pronoun misread ("X has the orv as its currency": X's currency X)
            readings = [r for r in readings if r.kind != "triple" or r.subject.casefold() != r.object.casefold()]
            readings = [decade_valued(r, text, catalog) for r in readings]  # "first appeared in the 1730s"
            said = {reader.lexicon.canonical(r)[:3] for r in readings}
            # a number in a relation's declared unit ("home to 4 million people") is a fact of its own
            return readings + [r for r in measures if reader.lexicon.canonical(r)[:3] not in said]

        def named(c: RelatedClaim) -> bool:
            """Whether a template claim's names are names ("Harnby and Kelso Point" is two)."""
            if not known(c.subject):
                return False
            if isinstance(c, TripleClaim) and c.relation in catalog:
                return catalog.get(c.relation).object_kind != ValueKind.ENTITY or known(c.object)
            return True

        def described(c: Claim, said_before: list[str]) -> bool:
            """Whether a template's subject describes a name said before ("the island's harbour").

            The KB may hold the common noun ("country") as an entity, but the sentence speaks of that name.
            """
            subject = c.subject if isinstance(c, RelatedClaim) else ""
            written = subject.islower() and f"the {subject}" in c.text.lower()
            return written and any(reader.describes(n, subject) for n in said_before)

        def objects(name: str, relation: str) -> list[str]:
            return stored_objects(store, name, relation)

        usages: list[Usage] = []  # verbs read statements use for their relation (`carried`)
        unread_at: list[tuple[int, Claim, str, str | None]] = []
        for c in found:
            templated = isinstance(c, RelatedClaim) and c.origin == ClaimOrigin.TEMPLATE
            description = templated and described(c, [n for n in (previous, *before) if n])
            # a template claim whose names the KB's types rule out ("Orvin is located in Great Ket", a star in
            # a constellation) is read again, as a free sentence is
            mistyped = isinstance(c, TripleClaim) and templated and _mistyped(c, typed)
            misnamed = isinstance(c, RelatedClaim) and templated and (not named(c) or description or mistyped)
            plain = (they_as(parsed(c.text), both) if both else None) or c.text  # "They do not ...": the two names
            if isinstance(c, TextClaim) or misnamed:  # "The country uses ...", "Brenn wrote ...": a name said before
                said_before = [n for n in (previous, *before) if n]
                plain = definite_as(parsed(plain), said_before, reader.describes) or plain
                plain = surname_as(parsed(plain), said_before) or plain
                plain = there_as(parsed(plain), said_before, reader.describes) or plain
                plain = then_as(plain, _year_of(out, catalog)) or plain  # "...; before that it used the vell"
                if roles is not None and previous in (None, *roles):  # "Did X paint Y?" "He painted it in 1886."
                    plain = it_as(parsed(plain), roles[1], roles[0]) or plain
            hops: list[Hop] = []
            if isinstance(c, TextClaim) and (cmp := reader.compared(plain, known, lexicon)):
                out.append(comparison_claim(c, cmp))  # "A was founded before B"
                continue
            if isinstance(c, TextClaim) or misnamed:
                plain, hops = reader.described(plain, known, objects)  # "the employer of X" is the KB's one value
            readings = statement(plain, previous) if isinstance(c, TextClaim) or misnamed else []
            if not readings and (isinstance(c, TextClaim) or misnamed):  # "X borders A, B and C": one per name
                each = reader.each_named(plain, known)
                readings = all_or_nothing(each, functools.partial(statement, previous=previous))
            out += [hop_claim(c, h, catalog) for h in hops] if readings else []
            if misnamed:  # "In 1980 Spain's currency ...": a template took "In 1980 Spain" for a name
                kept = TextClaim(id="", text=c.text, span=c.span, origin=ClaimOrigin.SENTENCE) if description else c
                out += [reading_claim(c, r, _origin(r), verbalize(catalog, r)) for r in readings] or [kept]
                continue
            if not readings and isinstance(c, TextClaim):
                unread_at.append((len(out), c, plain, previous))
            elif readings and readings[0].kind == "triple":
                forms = reader.declared_forms(readings[0].relation)
                u = usage(parsed(plain), forms, [n for r in readings for n in (r.subject, r.object)])
                usages += [u] if u is not None else []
            out += [reading_claim(c, r, _origin(r), verbalize(catalog, r)) for r in readings]
            if not readings or any(r.partial for r in readings):
                out.append(c)
            last = next((x for x in reversed(out) if (e := _ends(x)) and e[0]), None)
            # "It" next is the end the sentence names first, as written (a claim read in the inverse relation,
            # "Y has X as a member" of "X joined Y", is worded the other way round)
            said_as = response[last.span[0] : last.span[1]] if last is not None and last.span else ""
            ends = [n for n in (_ends(last) or ()) if n] if last is not None else []
            said_as = said_as if ends and all(n in said_as for n in ends) else ""  # else a pronoun stood for one
            previous = first_named(said_as or last.text, *(_ends(last) or ("", None))) if last is not None else previous
            before = [n for n in (_ends(last) or ()) if n] if last is not None else before
            unread = (isinstance(c, TextClaim) or misnamed) and not readings
            if unread and (owner := subject_name(parsed(plain), known)):
                previous, before = owner, [owner]  # "X's old harbour is ...": unread, but about X
        for at, c, plain, topic_then in reversed(unread_at) if usages else ():
            again = carried(parsed(plain), usages, topic_then)
            readings = [r for r in statement(again, topic_then) if not r.partial] if again else []
            if readings:  # the verb the response uses for a read relation, said as the relation's own
                out[at : at + 1] = [reading_claim(c, r, _origin(r), verbalize(catalog, r)) for r in readings]
        asked: list[tuple[Reading, str, bool]] = []
        if yes_no and reader.compared(yes_no, known, lexicon) is None:  # a comparison is no relation of its names
            read_q = reader.ask(yes_no, known, lexicon, triples, typed)[:1]
            asked = [(flip(r, yes), yes_no, yes) for r in read_q for yes in said]
        elif wh and (answers := reader.answers_of(response, known, wh)):
            asked = [(r, wh, True) for a in answers for r in reader.read_one(wh, known, answer=a, lexicon=lexicon)[:1]]
        for r, question, yes in asked:
            if (same := said_already(r, out)) is not None:  # one claim per meaning: the response says what
                if not r.partial:  # the answer claims, so its own claim is the answer's, which free
                    out[out.index(same)] = replaced(same, origin=ClaimOrigin.QUERY)  # sentences do not block
                continue
            if r.partial and not yes:  # "No" to a question that asks more than the claim: the claim's denial
                # proves the answer, and its failure leaves the rest of the question open
                out.append(replaced(reading_claim(None, r, ClaimOrigin.QUERY, verbalize(catalog, r)), sufficient=True))
                continue
            origin = ClaimOrigin.READER if r.partial else ClaimOrigin.QUERY
            out.append(reading_claim(None, r, origin, verbalize(catalog, r)))
            if r.partial:  # the question asks more than the claim: the rest stays for the other sources
                out.append(TextClaim(id="", text=question, origin=ClaimOrigin.SENTENCE))
        if asked:  # "Yes." says the question's claim, read above: no second, unread claim of it
            out = [c for c in out if not (isinstance(c, TextClaim) and STANCE_ONLY.fullmatch(c.text.strip()))]
        return out

    return services.gate.run(run)


__all__ = ["flip", "read_free", "spoken_of"]
