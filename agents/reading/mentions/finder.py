"""Mentions in a parsed sentence: the names a KB or a pair's triples know, years, and numbers (digits or words).

Candidate spans come from `agents.reading.mentions.spans` (spaCy's entities and noun chunks, proper-noun
runs, every occurrence of a supplied triple's name, ...); a span is a name when `known` accepts it, longest
first where spans overlap. A span of cue words only ("a border", "the capital") is never a name. Years and
numbers come from `agents.reading.mentions.values`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agents.reading.mentions.spans import NAME_LINKS, candidate_spans, proper_runs, singular
from agents.reading.mentions.values import (
    APPROX_WORDS,
    NUMBER_WORDS,
    SCALES,
    UNITS,
    YEAR_ZERO,
    as_decade,
    as_number,
    as_year,
    tolerance,
    words_to_number,
    year_in_words,
)
from drowzee_core.kb.model import ValueKind

MAX_MENTIONS = 8


@dataclass(frozen=True, slots=True)
class Mention:
    """A span of the sentence standing for a name or a value."""

    start: int
    end: int
    text: str
    kind: ValueKind
    gap: bool = False
    """The question word a short answer fills ("What is the capital of Peru?" "Lima."): it may stand anywhere."""
    tolerance: float | None = None
    """A number's relative tolerance ("about 67 million": 0.05; `values.tolerance`); None when exact."""
    linked: bool = True
    """A name the KB or the supplied triples know; False for a proper name nothing knows (kept as written)."""


def head_word(doc: Any, m: Mention) -> Any:
    """The mention's syntactic head, the word of it whose own head lies outside it.

    "Theorem" in "Ansel's Last Theorem", not the possessor "Ansel"; "Krane" in "Ansel Krane".
    """
    return doc[m.start : m.end].root


INDEFINITE = frozenset({"a", "an", "another", "one", "some", "any", "each", "every", "no", "other"})
DEICTIC = frozenset({"this", "that", "these", "those"})
"""Determiners that point back ("in this case", "these deities"): the noun names nothing by itself."""


def _indefinite(doc: Any, start: int, end: int) -> bool:
    """A lowercase common noun said indefinitely or deictically, outside a copula's predicate ("in this case").

    "another event", "two events" and "this case" refer to no one thing of their own, so they are no names;
    "a metal" after "is" says what its subject is, and stays.
    """
    words = doc[start:end]
    if not all(t.pos_ in ("NOUN", "ADJ") and t.text.islower() for t in words):
        return False
    head = words.root
    marks = [c for c in head.children if c.dep_ in ("det", "nummod") and c.i < start]
    return head.dep_ != "attr" and any(c.lower_ in INDEFINITE | DEICTIC or c.dep_ == "nummod" for c in marks)


def _without_final_period(doc: Any, end: int, text: str, known: Callable[[str], bool]) -> str:
    """A name that ends the sentence without its period, where the tokenizer kept it ("... is S." -> "S")."""
    last = end == len(doc) or all(t.is_space for t in doc[end:])
    bare = text[:-1]
    return bare if last and text.endswith(".") and bare.count(".") == 0 and bare and known(bare) else text


def _pronoun(tok: Any) -> bool:
    """A pronoun, not a name the tagger took for one ("Sk_ne", a title with a lost letter)."""
    return bool(tok.pos_ == "PRON" and tok.is_alpha)


def _approx(doc: Any, i: int) -> bool:
    """Whether the number at token `i` is said to be approximate ("about 67 million", "close to 5,000")."""
    before = [t.lower_ for t in doc[max(0, i - 2) : i]]
    return bool(before) and (before[-1] in APPROX_WORDS or before == ["close", "to"])


def _worded_numbers(doc: Any, taken: Sequence[Mention]) -> list[Mention]:
    """Numbers written in words ("sixty-seven million"): runs of number words, of value two or more."""
    out: list[Mention] = []
    run: list[Any] = []
    for tok in [*doc, None]:
        words = tok.lower_.split("-") if tok is not None else []
        if tok is not None and words and all(w in NUMBER_WORDS for w in words if w):
            run.append(tok)
            continue
        unit_next = tok is not None and tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ in UNITS
        if run and unit_next and tok is not None and tok.lower_ in YEAR_ZERO:
            run.append(tok)  # "nineteen oh five"
            continue
        while run and run[-1].lower_ == "and":
            run.pop()
        if run and not any(m.start <= t.i < m.end for m in taken for t in run):
            texts = [t.text for t in run]
            spoken = None if any(t.isdigit() for t in texts) else year_in_words(texts)
            if spoken is not None:  # "nineteen eighty-nine": a year; "fifteen hundred": a year or a count
                out.append(Mention(run[0].i, run[-1].i + 1, str(spoken[0]), ValueKind.YEAR))
            value = None if spoken is not None and not spoken[1] else words_to_number(texts)
            if value is not None and value >= 2 and not all(t.isdigit() for t in texts):
                year = as_year(str(value))
                if spoken is None and year is not None:  # "two thousand and five": a year, as "2005" is
                    out.append(Mention(run[0].i, run[-1].i + 1, str(year), ValueKind.YEAR))
                tol = tolerance(str(value), _approx(doc, run[0].i), rounded=True)
                out.append(Mention(run[0].i, run[-1].i + 1, str(value), ValueKind.QUANTITY, tolerance=tol))
        run = []
    return out


def _whole_entities(doc: Any, found: list[Mention]) -> list[Mention]:
    """Known names inside a longer proper name nothing knows give way to it, unlinked.

    The longer name is an entity spaCy's NER found, of proper nouns and linking words only ("Y's
    Republic of X", where a KB knows "Republic of X"): the known name inside it is a neighbour, not
    what the sentence names.
    """
    for ent in doc.ents:
        start, end = ent.start + (doc[ent.start].dep_ == "det"), ent.end
        while end > start and doc[end - 1].tag_ == "POS":  # "X's": the possessor, not a longer name
            end -= 1
        inside = [m for m in found if start <= m.start and m.end <= end and (m.start, m.end) != (start, end)]
        words = [t.text for t in doc[start:end]]
        if len(inside) != 1 or inside[0].kind != ValueKind.ENTITY or words.count("(") != words.count(")"):
            continue  # two known names side by side are two names; "X (Y" without its ")" is `_qualified`'s
        if all(doc[i].pos_ == "PROPN" or doc[i].lower_ in NAME_LINKS for i in range(start, end)):
            text = doc[start:end].text
            found = [m for m in found if m not in inside] + [Mention(start, end, text, ValueKind.ENTITY, linked=False)]
    return found


def _qualified(doc: Any, found: list[Mention]) -> list[Mention]:
    """A name and the parenthesis that qualifies it are one name ("X (Y)"), unlinked unless known as a whole."""
    by_end = {m.end: m for m in found if m.kind == ValueKind.ENTITY}
    for m in sorted(found, key=lambda x: x.start):
        before = by_end.get(m.start - 1)
        if before is None or doc[m.start - 1].text != "(" or m.end >= len(doc) or doc[m.end].text != ")":
            continue
        if m.kind != ValueKind.ENTITY or before not in found or m not in found:
            continue
        whole = Mention(before.start, m.end + 1, doc[before.start : m.end + 1].text, ValueKind.ENTITY, linked=False)
        found = [x for x in found if x not in (before, m)] + [whole]
    return found


def mentions(
    doc: Any, known: Callable[[str], bool], cue_lemmas: frozenset[str] = frozenset(), unlinked: bool = False
) -> list[Mention]:
    """Names `known` accepts and the sentence's years and numbers, longest first where they overlap.

    A span of cue words only ("a border", "the capital") is never a name, whatever a KB calls so.
    With `unlinked`, a proper-noun run nothing knows is a name too (`Mention.linked` False), where it
    overlaps no known name: it stays as written, never linked to a neighbour.
    """
    spans = candidate_spans(doc, getattr(known, "names", ()))
    subjects = {n.lower() for n in getattr(known, "subjects", ())}
    found: list[Mention] = []
    numeric = {t.i for t in doc if t.pos_ == "NUM" or t.like_num}
    for start, end in sorted(spans, key=lambda s: (s[0] - s[1], s[0])):
        name = spans[(start, end)]
        numbered = name is not None and name.lower() in subjects  # "1804" that a triple says something about
        if start >= end or any(m.start < end and start < m.end for m in found):
            continue
        if set(range(start, end)) <= numeric and not numbered:
            continue
        titled = name is not None and start > 0 and doc[start:end].text == name  # "Frozen and It": a title as written
        if not titled and all(doc[i].lemma_.lower() in cue_lemmas or _pronoun(doc[i]) for i in range(start, end)):
            continue  # "a border", "the capital", "She": cue words and pronouns are never names
        if name is None and _indefinite(doc, start, end):
            continue  # "another event", "one event": a common noun that names no one thing
        if name is None and end - start == 1 and doc[start].pos_ == "ADJ" and doc[start].dep_ == "amod":
            continue  # "the African continent": an adjective says what its noun is, it names nothing
        text = name or _without_final_period(doc, end, doc[start:end].text, known)
        if not any(ch.isalnum() for ch in text):
            continue  # "-" of "s-block": no name, whatever a KB labels so
        if not known(text) and name is None:
            text = singular(doc, start, end) or text  # "studied quasicrystals": the KB's "Quasicrystal"
        if known(text):
            found.append(Mention(start, end, text, ValueKind.ENTITY))
    if unlinked:
        found = _whole_entities(doc, found)
        for start, end in sorted(proper_runs(doc), key=lambda s: (s[0] - s[1], s[0])):
            if any(m.start < end and start < m.end for m in found) or set(range(start, end)) <= numeric:
                continue
            found.append(Mention(start, end, doc[start:end].text, ValueKind.ENTITY, linked=False))
        found = _qualified(doc, found)
    found += _worded_numbers(doc, found)
    for tok in doc:  # "in the 1730s": the decade's first year, a time (`candidates.scope.time_word`), never a value
        decade = as_decade(tok.text)
        timed = tok.i >= 2 and doc[tok.i - 1].lower_ == "the" and doc[tok.i - 2].lower_ in DECADE_WORDS
        if decade is not None and timed and not any(m.start <= tok.i < m.end for m in found):
            found.append(Mention(tok.i, tok.i + 1, str(decade), ValueKind.YEAR))
    for tok in doc:
        if any(m.start <= tok.i < m.end for m in found) or tok.i not in numeric:
            continue
        year = as_year(tok.text)
        if year is not None:
            found.append(Mention(tok.i, tok.i + 1, str(year), ValueKind.YEAR))
        nxt = doc[tok.i + 1].text if tok.i + 1 < len(doc) and doc[tok.i + 1].lower_ in SCALES else None
        number = as_number(tok.text, nxt)
        if number is not None:
            tol = tolerance(number, _approx(doc, tok.i), rounded=nxt is not None)
            found.append(Mention(tok.i, tok.i + (2 if nxt else 1), number, ValueKind.QUANTITY, tolerance=tol))
    return sorted(found, key=lambda m: m.start)[:MAX_MENTIONS]


DECADE_WORDS = frozenset({"in", "during", "throughout"})
"""The words that put a claim in a decade ("in the 1730s"); a decade said otherwise is no mention."""
VALUE_ENTITIES = frozenset({"DATE", "CARDINAL", "QUANTITY", "MONEY", "PERCENT", "ORDINAL", "TIME"})
"""spaCy's entity types of values; a number inside any other entity is part of a name."""


def in_a_name(doc: Any, m: Mention) -> bool:
    """Whether a value stands inside a name ("the Group of 15"): then it is no value of the sentence's own.

    Inside a named entity that is no value, or the object of "of" after a proper noun.
    """
    if m.kind == ValueKind.ENTITY:
        return False
    tokens = doc[m.start : m.end]
    if any(t.ent_type_ and t.ent_type_ not in VALUE_ENTITIES for t in tokens):
        return True
    last = tokens[-1]
    return bool(last.head.dep_ == "prep" and last.head.lower_ == "of" and last.head.head.pos_ == "PROPN")


__all__ = ["MAX_MENTIONS", "NAME_LINKS", "VALUE_ENTITIES", "Mention", "head_word", "in_a_name", "mentions"]
