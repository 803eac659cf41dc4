"""Content units of a claim (pure, over a spaCy parse): the names, values and content words it asserts.

A claim is supported by evidence when each of its units is found there; `agents.reading.evidence.support`
matches them. The units:

- *name*: a named entity (spaCy NER, person / place / organisation / work / event ...) or a run of
  proper nouns, as written;
- *number*: every number in a value entity (dates, years, counts, amounts), digits or words
  ("eleven", "3,784,539", "about 67 million" with its tolerance);
- *word*: a content lemma (noun, verb, adjective, adverb of manner) outside names and numbers, not a
  stop word, not a light verb.

A unit whose lemma the query already states is *given*: a short answer repeats its question's words,
and what the question presupposes is not the response's claim.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from agents.reading.mentions import (
    APPROX_WORDS,
    NUMBER_WORDS,
    SCALES,
    as_number,
    as_year,
    fold,
    tolerance,
    words_to_number,
    year_tolerance,
)

NAME_TYPES = frozenset(
    {"PERSON", "NORP", "FAC", "ORG", "GPE", "LOC", "PRODUCT", "EVENT", "WORK_OF_ART", "LAW", "LANGUAGE"}
)
VALUE_TYPES = frozenset({"DATE", "TIME", "PERCENT", "MONEY", "QUANTITY", "ORDINAL", "CARDINAL"})
CONTENT_POS = frozenset({"NOUN", "VERB", "ADJ", "ADV", "PROPN"})
WEAK = frozenset(
    {"be", "have", "do", "also", "then", "so", "just", "only", "even", "still", "very", "really", "well", "too"}
    | {"take", "make", "get", "give", "go", "come", "put", "set", "keep", "let", "become", "include", "use"}
    | {"one", "thing", "way", "time", "lot", "kind", "sort", "part", "number", "other", "many", "much", "several"}
    | {"such", "own", "same", "certain", "various", "new", "first", "last", "later", "early", "late", "currently"}
    | {"year", "day", "people", "person"}
)
"""Lemmas that carry little of a claim's content (light verbs, quantity words, hedges, frame words)."""
NEGATIONS = frozenset({"not", "no", "never", "n't", "neither", "nor", "none", "nobody", "nothing", "without"})


class UnitKind(StrEnum):
    """What a content unit is."""

    NAME = "name"
    NUMBER = "number"
    WORD = "word"


@dataclass(frozen=True, slots=True)
class Unit:
    """One thing a claim asserts, as written and as it is matched."""

    kind: UnitKind
    text: str
    key: str
    """The match key: a name's folded form, a number as the KB writes it, a word's lemma."""
    start: int
    end: int
    label: str = ""
    """The entity type for names and values (spaCy's: PERSON, GPE, DATE ...); the part of speech for words."""
    tolerance: float | None = None
    """A number's relative tolerance ("about 67 million": 0.05); None when exact."""
    given: bool = False
    """The query already says it (not the response's claim)."""


def _numbers(span: Any) -> list[tuple[str, float | None, int, int]]:
    """Numbers in a value span: (as the KB writes it, tolerance, token start, token end)."""
    out: list[tuple[str, float | None, int, int]] = []
    toks = list(span)
    approx = any(t.lower_ in APPROX_WORDS for t in toks)
    i = 0
    while i < len(toks):
        t = toks[i]
        year = as_year(t.text) if t.shape_ == "dddd" else None
        if year is not None:  # "around 1600" covers the years either side of it
            before = t.doc[t.i - 1].lower_ if t.i > 0 else ""
            out.append((str(year), year_tolerance(year, approx or before in APPROX_WORDS), t.i, t.i + 1))
            i += 1
            continue
        scale = toks[i + 1].lower_ if i + 1 < len(toks) and toks[i + 1].lower_ in SCALES else None
        number = as_number(t.text, scale) if any(c.isdigit() for c in t.text) else None
        if number is not None:
            end = i + (2 if scale else 1)
            out.append((number, tolerance(number, approx, rounded=scale is not None), t.i, toks[end - 1].i + 1))
            i = end
            continue
        j = i
        while j < len(toks) and (toks[j].lower_ in NUMBER_WORDS or toks[j].lower_ in SCALES or toks[j].text == "-"):
            j += 1
        value = words_to_number([x.lower_ for x in toks[i:j]]) if j > i else None
        if value is not None:
            out.append((str(value), tolerance(str(value), approx, rounded=True), t.i, toks[j - 1].i + 1))
            i = j
            continue
        i += 1
    return out


def _proper_runs(doc: Any, taken: set[int]) -> list[tuple[int, int]]:
    """Runs of proper nouns outside the spans already taken."""
    out: list[tuple[int, int]] = []
    run: list[int] = []
    for tok in [*doc, None]:
        if tok is not None and tok.pos_ == "PROPN" and tok.i not in taken:
            run.append(tok.i)
            continue
        if run:
            out.append((run[0], run[-1] + 1))
            run = []
    return out


def _name_bounds(span: Any) -> tuple[int, int]:
    """A name span without a leading article or a trailing possessive."""
    start, end = span.start, span.end
    doc = span.doc
    while start < end and (
        doc[start].lower_ in ("the", "a", "an") or (doc[start].is_lower and doc[start].pos_ == "DET")
    ):
        start += 1
    while end > start and doc[end - 1].tag_ == "POS":
        end -= 1
    return start, end


def _capitalised(span: Any) -> bool:
    """Whether a span has a capitalised word or a digit, as a name written as one does."""
    return any(t.text[:1].isupper() or any(c.isdigit() for c in t.text) for t in span)


PARTICLES = frozenset({"away", "up", "down", "off", "out", "over", "back", "on", "in"})
"""Adverbs that make a phrasal verb with the verb before them ("pass away", "take over")."""


def _particle(t: Any) -> bool:
    """Whether a verb's child is its particle: so parsed, or one of `PARTICLES` right after the verb."""
    return t.dep_ == "prt" or (t.dep_ == "advmod" and t.lower_ in PARTICLES and t.i == t.head.i + 1)


MONTH = "MONTH"
"""The label of a month unit (its key is "month N", N in 1-12)."""
_MONTHS = {
    name.lower(): i
    for i in range(1, 13)
    for name in (calendar.month_name[i], calendar.month_abbr[i], f"{calendar.month_abbr[i]}.")
} | {"sept": 9, "sept.": 9}


def month_of(word: str) -> int | None:
    """The month a word names ("March", "Mar.", "Sept" -> 3, 3, 9), else None (English names)."""
    return _MONTHS.get(word.lower())


def iso_months(span: Any) -> list[Unit]:
    """The month of each ISO date in a span ("1994-10-28": October), as a month unit on its token."""
    toks = list(span)
    out = []
    for i in range(len(toks) - 4):
        y, d1, m, d2, d = toks[i : i + 5]
        if y.shape_ == "dddd" and d1.text == d2.text == "-" and m.is_digit and d.is_digit and 1 <= int(m.text) <= 12:
            out.append(Unit(UnitKind.NUMBER, m.text, f"month {int(m.text)}", m.i, m.i + 1, MONTH))
    return out


def content_units(doc: Any, given: Iterable[str] = ()) -> list[Unit]:
    """The claim's units in reading order; `given` are lemmas (or folded names) the query states."""
    given_set = {g.lower() for g in given}
    units: list[Unit] = []
    taken: set[int] = set()
    for ent in doc.ents:
        if ent.label_ in NAME_TYPES:
            start, end = _name_bounds(ent)
            if start >= end or not _capitalised(doc[start:end]):
                continue
            text = doc[start:end].text
            key = fold(text)
            units.append(Unit(UnitKind.NAME, text, key, start, end, ent.label_, given=key in given_set))
            taken.update(range(ent.start, ent.end))
        elif ent.label_ in VALUE_TYPES:
            for number, tol, a, b in _numbers(ent):
                units.append(Unit(UnitKind.NUMBER, doc[a:b].text, number, a, b, ent.label_, tol))
            taken.update(range(ent.start, ent.end))
            dated = ent.label_ == "DATE" and any(c.isdigit() for c in ent.text)  # "May 1889", not "Theresa May"
            if dated:
                units += iso_months(ent)
            for t in ent:  # a month is a value ("May 1889" is no "March 1889"); other words of a date stay words
                if dated and (month := month_of(t.text)) is not None:
                    units.append(Unit(UnitKind.NUMBER, t.text, f"month {month}", t.i, t.i + 1, MONTH))
                elif (
                    t.is_alpha
                    and t.pos_ in ("PROPN", "NOUN")
                    and t.lower_ not in NUMBER_WORDS
                    and t.lower_ not in SCALES
                ):
                    units.append(
                        Unit(UnitKind.WORD, t.text, t.lower_, t.i, t.i + 1, t.pos_, given=t.lower_ in given_set)
                    )
    for start, end in _proper_runs(doc, taken):
        if not _capitalised(doc[start:end]):
            continue  # a tagger's PROPN in lower case ("coin series") is no name
        text = doc[start:end].text
        key = fold(text)
        units.append(Unit(UnitKind.NAME, text, key, start, end, "PROPN", given=key in given_set))
        taken.update(range(start, end))
    for tok in doc:
        if tok.i in taken:
            continue
        if tok.like_num and any(c.isdigit() for c in tok.text):
            plain = as_number(tok.text)
            year = as_year(tok.text) if tok.shape_ == "dddd" else None
            near = tok.i > 0 and doc[tok.i - 1].lower_ in APPROX_WORDS
            tol = year_tolerance(year, near) if year is not None else None  # "around 1600"
            if plain is not None:
                units.append(Unit(UnitKind.NUMBER, tok.text, plain, tok.i, tok.i + 1, "CARDINAL", tol))
            continue
        lemma = tok.lemma_.lower()
        if tok.pos_ not in CONTENT_POS or tok.is_stop or not tok.is_alpha or len(lemma) < 3 or lemma in WEAK:
            continue
        if tok.pos_ == "ADV" and not lemma.endswith("ly"):
            continue
        said = lemma in given_set
        particle = next((c for c in tok.children if _particle(c)), None) if tok.pos_ == "VERB" else None
        if particle is not None:  # a phrasal verb is one word ("passed away": "pass away", a synonym of "die")
            lemma = f"{lemma} {particle.lower_}"
        units.append(Unit(UnitKind.WORD, tok.text, lemma, tok.i, tok.i + 1, tok.pos_, given=said))
    return sorted(units, key=lambda u: (u.start, u.end))


def query_keys(doc: Any) -> set[str]:
    """What a query states, as unit keys: its content lemmas, lower-cased words and folded names."""
    keys = {t.lemma_.lower() for t in doc if t.is_alpha} | {t.lower_ for t in doc if t.is_alpha}
    keys |= {fold(e.text) for e in doc.ents}
    return keys


def negated(doc: Any, start: int = 0, end: int | None = None) -> bool:
    """Whether a negation word stands in the token range (the whole sentence by default)."""
    return any(t.lower_ in NEGATIONS or t.dep_ == "neg" for t in doc[start:end])


__all__ = [
    "NAME_TYPES",
    "NEGATIONS",
    "VALUE_TYPES",
    "WEAK",
    "Unit",
    "UnitKind",
    "content_units",
    "negated",
    "query_keys",
]
