"""What a response asserts, without its discourse: hedges, connectives and non-restrictive relative clauses.

A response says its facts inside a frame that carries no fact of its own: a first-person hedge ("To my
knowledge, ...", "..., I believe.", "I think that ..."), a connective ("therefore", "That means ..."),
or a second fact tucked into a relative clause ("Lena Moss, who was born in 1901, died in 1980.").
`plain` rewrites a response as the statements it makes: hedges and connectives dropped, and each
non-restrictive relative clause ("who / which / whose", set off by a comma) made a sentence of its own
about the name it follows ("Lena Moss was born in 1901."). The readers then see plain statements.

A hedge is not a denial: "I don't think ..." is negated and kept whole. Only first-person hedges and
cognition verbs are dropped; modal words that change the claim ("possibly", "was once") stay.

Every character of the plain text remembers where it came from (`Plain.origin`), so a claim read from
it is shown on the response's own words.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from agents.reading.clauses.appositions import appositions, predicate_participles
from agents.reading.clauses.conjoined import Conjoined, conjoined
from agents.reading.clauses.relatives import relative_clauses
from agents.reading.clauses.shared_values import shared_values
from agents.reading.clauses.splits import (
    Split,
    conjoined_objects,
    counted_lists,
    joined_clauses,
    verb_arguments,
    when_clauses,
)

FIRST_PERSON = frozenset({"i", "me", "my", "we", "us", "our"})
"""Words that make a phrase the writer's stance on a claim, not part of it."""
COGNITION = frozenset(
    {"believe", "think", "know", "guess", "suppose", "recall", "remember", "reckon", "assume", "understand"}
)
"""Verbs whose first-person complement is the claim ("I think <claim>")."""
STANCE = frozenset({"sure", "certain", "confident", "positive", "convinced"})
"""Adjectives whose first-person complement is the claim ("I'm fairly sure <claim>")."""
FRAME_VERBS = frozenset({"mean", "seem", "appear", "follow", "imply"})
"""Verbs of "That means <claim>", "It seems that <claim>": the complement is the claim."""
FRAME_SUBJECTS = frozenset({"that", "this", "it", "which"})
CONNECTIVES = frozenset({"therefore", "thus", "hence", "consequently", "accordingly"})
"""Adverbs that link a claim to the previous one and say nothing of it."""
MAX_HEDGE_TOKENS = 8
YEAR = re.compile(r"\d{3,4}")


@dataclass(frozen=True, slots=True)
class Plain:
    """A response's plain statements and, per character, the response offset it came from."""

    text: str
    origin: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The response span the plain text's `[start, end)` came from."""
        picked = self.origin[start:end]
        if not picked:
            at = self.origin[start] if start < len(self.origin) else (self.origin[-1] + 1 if self.origin else 0)
            return at, at
        return min(picked), max(picked) + 1

    @property
    def changed(self) -> bool:
        """Whether anything was dropped or moved."""
        return self.origin != tuple(range(len(self.text)))


class _Builder:
    """Plain text assembled from pieces of the response, each character with its offset."""

    def __init__(self, source: str) -> None:
        self.source = source
        self.chars: list[str] = []
        self.origin: list[int] = []

    def add(self, start: int, end: int, capital: bool = False) -> None:
        """Append `source[start:end]` (its first letter capitalised with `capital`)."""
        piece = self.source[start:end]
        if capital and piece[:1].islower():
            piece = piece[0].upper() + piece[1:]
        self.chars += piece
        self.origin += range(start, end)

    def add_text(self, text: str, at: int) -> None:
        """Append text that is not in the response ("'s", a period), placed at offset `at`."""
        self.chars += text
        self.origin += [at] * len(text)

    def build(self) -> Plain:
        return Plain("".join(self.chars), tuple(self.origin))


def _is_first_person(tokens: Any, negation: bool = False) -> bool:
    """A phrase in the first person with no name or number (and, unless `negation`, no "not")."""
    return any(t.lower_ in FIRST_PERSON for t in tokens) and not any(
        t.pos_ in ("PROPN", "NUM") or (t.dep_ == "neg" and not negation) for t in tokens
    )


def _lead_hedge(sent: Any) -> range:
    """Tokens near the sentence's start that frame it: "To my knowledge,", "I think (that)", "That means".

    A leading "Yes," stays: only the frame goes.
    """
    comma = next((t for t in sent[: MAX_HEDGE_TOKENS + 1] if t.text == ","), None)
    if comma is not None and comma.i > sent.start:
        phrase = sent.doc[sent.start : comma.i]
        if _is_first_person(phrase, negation=True) and not any(t.pos_ == "INTJ" for t in phrase):
            return range(sent.start, comma.i + 1)
    root = sent.root
    stance = next((c for c in root.children if c.dep_ == "acomp" and c.lemma_ in STANCE), None)
    holder = stance if root.lemma_ == "be" and stance is not None else root  # "I'm sure <claim>"
    comp = next((c for c in holder.children if c.dep_ == "ccomp"), None)
    subject = next((c for c in root.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if comp is None or subject is None or any(c.dep_ == "neg" for c in root.children):
        return range(0)
    frame = ((root.lemma_ in COGNITION or holder is stance) and subject.lower_ in FIRST_PERSON) or (
        root.lemma_ in FRAME_VERBS and subject.lower_ in FRAME_SUBJECTS
    )
    start = subject.left_edge.i
    lead = sent.doc[start : comp.left_edge.i]
    if not frame or not 0 < len(lead) <= MAX_HEDGE_TOKENS or any(t.pos_ in ("PROPN", "NUM") for t in lead):
        return range(0)
    cut = comp.left_edge.i
    while cut < sent.end and sent.doc[cut].dep_ == "mark" and sent.doc[cut].lower_ == "that":
        cut += 1
    return range(start, cut)


ANSWER_PRONOUNS = frozenset({"it", "they", "he", "she", "that", "this", "there"})
LEAD_MARKS = frozenset({",", ":", ";"})


def _short_answer(sent: Any) -> range:
    """A short answer that opens the sentence before a clause of its own: "They did: X is ...", "Yes to both: ...".

    The clause after the mark says the fact in full; the short answer ("it is", "they do not", "yes") only
    echoes the question, so it goes with its mark. A lead of a pronoun and its auxiliary (and "not",
    "indeed"), or one that opens with "yes" / "no" and names nothing, before a comma, colon or semicolon.
    """
    mark = next((t for t in sent[:7] if t.text in LEAD_MARKS), None)
    if mark is None or mark.i == sent.start or mark.i + 2 >= sent.end:
        return range(0)
    lead = sent.doc[sent.start : mark.i]
    rest = sent.doc[mark.i + 1 : sent.end]
    echo = lead[0].lower_ in ANSWER_PRONOUNS and all(
        t.pos_ == "AUX" or t.lemma_ in ("be", "do", "have") or t.dep_ == "neg" or t.lower_ in ("indeed", "so", "still")
        for t in lead[1:]
    )
    yes_no = (
        lead[0].lower_ in ("yes", "no")
        and mark.text != ","
        and not any(t.pos_ in ("PROPN", "NUM", "VERB", "AUX") for t in lead)
    )
    if not (len(lead) > 1 and echo) and not yes_no:
        return range(0)
    own_clause = any(t.dep_ in ("nsubj", "nsubjpass") and t.head.i >= mark.i + 1 for t in rest)
    return range(sent.start, mark.i + 1) if own_clause else range(0)


def _tail_hedge(sent: Any) -> int:
    """Tokens at the sentence's end that hedge it (", I believe.", ", if I remember correctly."): their start."""
    end: int = sent.end - 1 if sent[-1].is_punct else sent.end
    for i in range(end - 1, sent.start - 1, -1):
        if sent.doc[i].text == ",":
            tail = sent.doc[i + 1 : end]
            if 0 < len(tail) <= MAX_HEDGE_TOKENS and _is_first_person(tail):
                return i
            break
    return end


def _the_one_that(sent: Any) -> range:
    """The words from the copula to the pronoun of "X is the one that has ...", so that "X has ..." remains."""
    root = sent.root
    if root.lemma_ != "be":  # "I think X is the one that ...": the hedged clause
        root = next((c for c in root.children if c.dep_ == "ccomp" and c.lemma_ == "be"), root)
    if root.lemma_ != "be":
        return range(0)
    attr = next((c for c in root.children if c.dep_ == "attr"), None)
    if attr is None or not any(c.dep_ == "det" and c.lower_ == "the" for c in attr.children):
        return range(0)
    clause = next((c for c in attr.children if c.dep_ == "relcl"), None)
    if clause is None or attr.i > clause.i:
        return range(0)
    pronoun = next((c for c in clause.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if pronoun is None or pronoun.lower_ not in ("that", "who", "which") or pronoun.i != attr.i + 1:
        return range(0)
    if any(c.dep_ in ("nsubj", "nsubjpass") and c.i < root.i for c in root.children):
        return range(root.i, pronoun.i + 1)
    return range(0)


def _makes(sent: Any) -> tuple[Any, Any] | None:
    """(value, description) of "That makes 25,655 the population of Norland": said "<description> is <value>"."""
    first = sent[0]
    if len(sent) < 5 or first.lower_ not in FRAME_SUBJECTS or sent[1].lemma_ != "make":
        return None
    end = sent.end - 1 if sent[-1].is_punct else sent.end
    det = next((t for t in sent.doc[sent.start + 3 : end] if t.lower_ == "the"), None)
    if det is None or det.i - (sent.start + 2) > MAX_HEDGE_TOKENS:
        return None
    return sent.doc[sent.start + 2 : det.i], sent.doc[det.i : end]


AS_ITS = frozenset({"its", "their", "his", "her"})
AS_ITS_PARTS = frozenset({"nsubj", "dobj", "prep", "punct", "aux", "intj"})
"""What "X has V as its N" may hold besides: a negation, a date or a manner would be lost in "X's N is V"."""


def _as_its(sent: Any) -> tuple[Any, Any, Any] | None:
    """(owner, noun, value) of "Norland has the orv as its currency": said "Norland's currency is the orv"."""
    root = sent.root
    if root.pos_ != "VERB" or any(c.dep_ not in AS_ITS_PARTS for c in root.children):
        return None
    subject = next((c for c in root.children if c.dep_ == "nsubj" and c.i < root.i), None)
    value = next((c for c in root.children if c.dep_ == "dobj" and c.i > root.i), None)
    # the parse hangs "as its N" on the verb or on the value ("has [the orv as its currency]")
    preps = [c for c in root.children if c.dep_ == "prep"] + ([] if value is None else [*value.rights])
    as_ = next((c for c in preps if c.dep_ == "prep" and c.lower_ == "as"), None)
    noun = next((c for c in as_.children if c.dep_ == "pobj"), None) if as_ is not None else None
    if subject is None or value is None or noun is None or as_ is None or as_.i < value.i:
        return None
    poss = next((c for c in noun.children if c.dep_ == "poss" and c.lower_ in AS_ITS), None)
    if poss is None or poss.i != noun.left_edge.i or [c for c in preps if c.dep_ == "prep"] != [as_]:
        return None
    if any(c.dep_ in ("appos", "acl") for c in subject.children) or as_.right_edge.i + 1 < sent.end - 1:
        return None  # what the subject's modifier says would be lost
    doc = sent.doc
    return (
        doc[subject.left_edge.i : subject.i + 1],  # a relative clause after it is said apart (`plain`)
        doc[poss.i + 1 : noun.right_edge.i + 1],
        doc[value.left_edge.i : as_.i],
    )


def _add_tokens(out: _Builder, tokens: Any, capital: bool = False) -> None:
    """Tokens as written, with the spaces between them."""
    for k, t in enumerate(tokens):
        end = t.idx + (len(t.text_with_ws) if k + 1 < len(tokens) else len(t.text))
        out.add(t.idx, end, capital=capital and k == 0)


def _drop_connectives(sent: Any, start: int, end: int) -> list[int]:
    """Token indexes inside `[start, end)` that say nothing of the fact.

    Linking adverbs ("therefore"), and the words "the year" before a year ("in the year 1861" -> "in 1861").
    """
    doc = sent.doc
    out = [t.i for t in doc[start:end] if t.dep_ == "advmod" and t.lower_ in CONNECTIVES and t.i > start]
    for i in range(max(start + 1, sent.start + 1), end - 2):
        the, word, year = doc[i], doc[i + 1], doc[i + 2]
        if the.lower_ == "the" and word.lower_ == "year" and doc[i - 1].pos_ == "ADP" and YEAR.fullmatch(year.text):
            out += [i, i + 1]
    return out


def plain(doc: Any) -> Plain:
    """The statements of a parsed response (spaCy `Doc`), without hedges, connectives and relative clauses."""
    out = _Builder(doc.text)
    at = 0
    for sent in doc.sents:
        if made := _makes(sent):
            value, description = made
            out.add(at, doc[sent.start].idx)
            _add_tokens(out, description, capital=True)
            out.add_text(" is ", value.start_char)
            _add_tokens(out, value)
            if sent[-1].is_punct:
                out.add(sent[-1].idx, sent.end_char)
            at = sent.end_char
            continue
        if owned := _as_its(sent):
            owner, noun, value = owned
            out.add(at, owner.start_char)  # what stands before it as written ("Yes, ")
            _add_tokens(out, owner, capital=owner.start == sent.start)
            out.add_text("'s ", owner.end_char)
            _add_tokens(out, noun)
            out.add_text(" is ", value.start_char)
            _add_tokens(out, value)
            if sent[-1].is_punct:
                out.add(sent[-1].idx, sent.end_char)
            for head, pronoun, clause in relative_clauses(sent):  # "X, whose capital is Y, has ..."
                _add_relative(out, head, pronoun, clause)
            at = sent.end_char
            continue
        lead = _lead_hedge(sent) or _short_answer(sent)
        first = lead.stop if lead and lead.start == sent.start else sent.start
        last = _tail_hedge(sent)
        relatives = [r for r in relative_clauses(sent) if r[2].start >= first and r[2].end <= last]
        second = [c for c in conjoined(sent) if c.cut.start >= first and c.cut.stop <= last]
        cut = {i for _, _, clause in relatives for i in range(clause.start, clause.end)} | set(lead)
        cut |= {i for c in second for i in c.cut}
        cut |= set(_drop_connectives(sent, first, last)) | set(_the_one_that(sent))
        whens = [x for x in when_clauses(sent, first, last) if not x.cut & cut]
        inner = {i for x in whens for i in x.cut}
        joined = [x for x in joined_clauses(sent, first, last) if not x.cut & cut]
        splits = [Split(x.cut, tuple(i for i in x.tokens if i not in inner)) for x in joined] + whens
        taken = cut | {i for x in splits for i in x.cut}
        splits += [x for x in appositions(sent, first, last) if not x.cut & taken]
        taken |= {i for x in splits for i in x.cut}
        splits += [x for x in predicate_participles(sent, first, last) if not x.cut & taken]
        taken |= {i for x in splits for i in x.cut}
        splits += [x for x in counted_lists(sent, first, last) if not x.cut & taken]
        taken |= {i for x in splits for i in x.cut}
        splits += [x for x in shared_values(sent, first, last) if not x.cut & taken]
        taken |= {i for x in splits for i in x.cut}
        splits += [x for x in conjoined_objects(sent, first, last) if not x.cut & taken]
        cut |= {i for x in splits for i in x.cut}
        more = verb_arguments(sent, cut)
        cut |= {i for x in more for i in x.cut}
        out.add(at, doc[sent.start].idx)  # whatever lies between sentences
        kept = [i for i in range(sent.start, last) if i not in cut]
        if last < sent.end and doc[sent.end - 1].is_punct:
            kept.append(sent.end - 1)
        for k, i in enumerate(kept):
            tok = doc[i]
            out.add(tok.idx, tok.idx + len(tok.text), capital=k == 0 and i > sent.start)
            if k + 1 < len(kept):
                nxt = doc[kept[k + 1]]
                if kept[k + 1] == i + 1:
                    out.add(tok.idx + len(tok.text), nxt.idx)
                elif not nxt.is_punct:
                    out.add_text(" ", tok.idx + len(tok.text))
        for head, pronoun, clause in relatives:
            _add_relative(out, head, pronoun, clause)
        for c in second:
            _add_conjoined(out, c)
        for x in [*splits, *more]:
            _add_split(out, doc, x)
        at = sent.end_char
    out.add(at, len(doc.text))
    return out.build()


def _add_conjoined(out: _Builder, c: Conjoined) -> None:
    """A second predicate as a sentence of its own: "and died in 1642" -> "Galileo died in 1642."."""
    at = c.predicate.start_char
    out.add_text(" ", at)
    out.add(c.subject.start_char, c.subject.end_char, capital=True)
    for aux in c.auxiliaries:
        out.add_text(" ", at)
        out.add(aux.idx, aux.idx + len(aux.text))
    out.add_text(" ", at)
    out.add(c.predicate.start_char, c.predicate.end_char)
    out.add_text(".", c.predicate.end_char - 1)


def _add_split(out: _Builder, doc: Any, split: Split) -> None:
    """A split's words as a sentence of its own (`agents.reading.clauses.splits`), with the spaces between them."""
    tokens = [doc[i] for i in split.tokens]
    while tokens and tokens[-1].is_punct:
        tokens.pop()
    if not tokens:
        return
    out.add_text(" ", tokens[0].idx)
    for k, t in enumerate(tokens):
        for at, word in split.inserts:
            if at == t.i:
                out.add_text(f"{word} ", t.idx)
        out.add(t.idx, t.idx + len(t.text), capital=k == 0)
        if k + 1 < len(tokens) and not tokens[k + 1].is_punct and tokens[k + 1].text != "'s":
            out.add_text(" " if t.i + 1 != tokens[k + 1].i or t.whitespace_ else "", t.idx + len(t.text))
    out.add_text(".", tokens[-1].idx + len(tokens[-1].text) - 1)


def _add_relative(out: _Builder, head: Any, pronoun: Any, clause: Any) -> None:
    """The relative clause as a sentence about its name: "who was born in 1901" -> "Lena Moss was born in 1901."."""
    body = [t for t in clause if t.text != "," or (t.i != clause.start and t.i != clause.end - 1)]
    body = [t for t in body if t.i != pronoun.i]
    if not body:
        return
    out.add_text(" ", pronoun.idx)
    out.add(head.start_char, head.end_char, capital=True)
    out.add_text("'s " if pronoun.lower_ == "whose" else " ", pronoun.idx)
    for k, t in enumerate(body):
        end = t.idx + len(t.text_with_ws) if k + 1 < len(body) else t.idx + len(t.text)
        out.add(t.idx, end)
    out.add_text(".", body[-1].idx + len(body[-1].text) - 1)


__all__ = ["Plain", "plain"]
