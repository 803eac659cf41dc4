"""Mentions in a parsed sentence: the names a KB or a pair's triples know, years, and numbers (digits or words).

Candidate spans are spaCy's entities and noun chunks, proper-noun runs (also bridged over inner
linking words: "Battle of the Bulge") and every occurrence of a supplied triple's name; a span is a
name when `known` accepts it, longest first where spans overlap. A span of cue words only ("a
border", "the capital") is never a name. Years and numbers come from `agents.reading.values`.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agents.reading.values import APPROX_WORDS, NUMBER_WORDS, SCALES, as_number, as_year, tolerance, words_to_number
from drowzee_core.kb.model import ValueKind

_NAME_DEPS_SKIP = frozenset({"det", "poss", "case", "punct"})
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


def _trim(span: Any) -> tuple[int, int]:
    """Token bounds of a span without a leading article or possessive, or a trailing possessive 's."""
    start, end = span.start, span.end
    while start < end and span.doc[start].dep_ in _NAME_DEPS_SKIP:
        start += 1
    while end > start and span.doc[end - 1].tag_ == "POS":
        end -= 1
    return start, end


NAME_LINKS = frozenset(
    {"of", "the", "de", "la", "le", "von", "van", "der", "del", "della", "da", "do", "dos", "das", "di", "du", "des"}
    | {"y", "e", "al", "el", "upon", "on", "am", "im", "an", "sur", "en", "'s", "-", "–", "("}
)
"""Words that may stand inside a proper name between two capitalised words ("Battle of the Bulge")."""


def _proper_runs(doc: Any) -> list[tuple[int, int]]:
    """Token bounds of proper-noun runs, each also bridged over inner linking words ("Siege of Kobe")."""
    out: list[tuple[int, int]] = []
    run: list[int] = []
    for tok in [*doc, None]:
        if tok is not None and tok.pos_ == "PROPN":
            run.append(tok.i)
            continue
        if run:
            out.append((run[0], run[-1] + 1))
            run = []
    bridged = [
        (a0, b1)
        for (a0, a1), (b0, b1) in itertools.pairwise(out)
        if b0 - a1 <= 2 and all(doc[i].lower_ in NAME_LINKS for i in range(a1, b0))
    ]
    return out + bridged


def _named(doc: Any, names: Sequence[str]) -> list[tuple[int, int]]:
    """Token bounds of each occurrence of a given name (supplied triples' names), any case, on token edges."""
    text = doc.text.lower()
    out: list[tuple[int, int]] = []
    for name in names:
        needle = name.lower()
        at = text.find(needle) if needle else -1
        while at >= 0:
            span = doc.char_span(at, at + len(needle), alignment_mode="strict")
            if span is not None:
                out.append((span.start, span.end))
            at = text.find(needle, at + 1)
    return out


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
        while run and run[-1].lower_ == "and":
            run.pop()
        if run and not any(m.start <= t.i < m.end for m in taken for t in run):
            value = words_to_number([t.text for t in run])
            if value is not None and value >= 2 and not all(t.text.isdigit() for t in run):
                tol = tolerance(str(value), _approx(doc, run[0].i), rounded=True)
                out.append(Mention(run[0].i, run[-1].i + 1, str(value), ValueKind.QUANTITY, tolerance=tol))
        run = []
    return out


def mentions(
    doc: Any, known: Callable[[str], bool], cue_lemmas: frozenset[str] = frozenset(), unlinked: bool = False
) -> list[Mention]:
    """Names `known` accepts and the sentence's years and numbers, longest first where they overlap.

    A span of cue words only ("a border", "the capital") is never a name, whatever a KB calls so.
    With `unlinked`, a proper-noun run nothing knows is a name too (`Mention.linked` False), where it
    overlaps no known name: it stays as written, never linked to a neighbour.
    """
    spans: dict[tuple[int, int], None] = {}
    for span in [*doc.ents, *doc.noun_chunks]:
        spans[_trim(span)] = None
    for start, end in [*_proper_runs(doc), *_named(doc, getattr(known, "names", ()))]:
        spans[(start, end)] = None
    found: list[Mention] = []
    numeric = {t.i for t in doc if t.pos_ == "NUM" or t.like_num}
    for start, end in sorted(spans, key=lambda s: (s[0] - s[1], s[0])):
        if start >= end or any(m.start < end and start < m.end for m in found) or set(range(start, end)) <= numeric:
            continue
        if all(doc[i].lemma_.lower() in cue_lemmas or doc[i].pos_ == "PRON" for i in range(start, end)):
            continue  # "a border", "the capital", "She": cue words and pronouns are never names
        text = doc[start:end].text
        if known(text):
            found.append(Mention(start, end, text, ValueKind.ENTITY))
    if unlinked:
        for start, end in sorted(_proper_runs(doc), key=lambda s: (s[0] - s[1], s[0])):
            if any(m.start < end and start < m.end for m in found) or set(range(start, end)) <= numeric:
                continue
            found.append(Mention(start, end, doc[start:end].text, ValueKind.ENTITY, linked=False))
    found += _worded_numbers(doc, found)
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


__all__ = ["MAX_MENTIONS", "NAME_LINKS", "Mention", "mentions"]
