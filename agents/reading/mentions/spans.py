"""Candidate spans of a parsed sentence: every place a name may stand, before any is looked up (pure).

spaCy's entities and noun chunks (without a leading article, and with a possessor too), a possessor inside
a chunk, proper-noun runs (also bridged over inner linking words: "Battle of the Bulge"), a subject the
tagger took for no noun, a noun numbered after it ("group 1"), words joined by a hyphen or slash, runs of
nominal words, and every occurrence of a supplied triple's name. `agents.reading.mentions.finder` keeps
those a KB or the triples know.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Sequence
from typing import Any

_NAME_DEPS_SKIP = frozenset({"det", "poss", "case", "punct"})


def candidate_spans(doc: Any, names: Sequence[str] = ()) -> dict[tuple[int, int], str | None]:
    """Token bounds of each candidate span; a supplied name found as written maps to that name, others to None."""
    spans: dict[tuple[int, int], str | None] = {}
    for span in [*doc.ents, *doc.noun_chunks]:
        spans[_trim(span)] = None
        if any(t.dep_ == "poss" for t in span):  # "Kalan's conjecture": a name may hold its possessor
            spans.setdefault(_trim(span, keep_owner=True), None)
    for tok in doc:  # a possessor inside a noun chunk ("gold's symbol"), which the chunk's trim drops
        if tok.dep_ == "poss" and tok.pos_ in ("NOUN", "PROPN"):
            start = next(i for i in range(tok.left_edge.i, tok.i + 1) if doc[i].dep_ not in ("det", "case", "punct"))
            spans.setdefault((start, tok.i + 1), None)
    for start, end in proper_runs(doc):
        spans[(start, end)] = None
    for tok in doc:  # a subject the tagger took for no noun ("Tin is soft.": an interjection), which no chunk holds
        if tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ in ("INTJ", "ADJ", "VERB", "X") and tok.is_alpha:
            spans.setdefault((tok.i, tok.i + 1), None)
    for start, end in [*_numbered_and_hyphened(doc), *_nominal_runs(doc)]:
        spans.setdefault((start, end), None)
    for start, end, supplied in _named(doc, names):
        spans[(start, end)] = supplied  # written as the triples write it ("Kalán Borr" for "Kalan Borr")
    return spans


def _trim(span: Any, keep_owner: bool = False) -> tuple[int, int]:
    """Token bounds of a span without a leading article or possessive, or a trailing possessive 's.

    `keep_owner`: only a leading article goes, so the possessor stays part of the name.
    """
    start, end = span.start, span.end
    skip = frozenset({"det"}) if keep_owner else _NAME_DEPS_SKIP
    while start < end and span.doc[start].dep_ in skip:
        start += 1
    while end > start and span.doc[end - 1].tag_ == "POS":
        end -= 1
    return start, end


NAME_LINKS = frozenset(
    {"of", "the", "de", "la", "le", "von", "van", "der", "del", "della", "da", "do", "dos", "das", "di", "du", "des"}
    | {"y", "e", "al", "el", "upon", "on", "am", "im", "an", "sur", "en", "'s", "-", "–", "("}
)
"""Words that may stand inside a proper name between two capitalised words ("Battle of the Bulge")."""


def proper_runs(doc: Any) -> list[tuple[int, int]]:
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


def _fold_char(c: str) -> str:
    """A character without its diacritics, when it decomposes into one letter and marks ("á" -> "a")."""
    parts = unicodedata.normalize("NFKD", c)
    return parts[0] if len(parts) > 1 and all(unicodedata.combining(x) for x in parts[1:]) else c


def fold_same_length(text: str) -> str:
    """`text` lowercased and without diacritics, one character for each of `text`'s (offsets stay valid)."""
    return "".join(_fold_char(c) for c in text.lower())


def _named(doc: Any, names: Sequence[str]) -> list[tuple[int, int, str]]:
    """Token bounds and name of each occurrence of a given name (supplied triples' names), on token edges.

    Any case and with or without diacritics ("Kalan" for "Kalán"); in a sentence that writes names as
    Wikipedia titles, an "_" stands for any one character ("Kal_n_Borr"), as `KBStore.resolve` reads it.
    """
    text = fold_same_length(doc.text)
    out: list[tuple[int, int, str]] = []
    for name in names:
        needle = fold_same_length(name)
        if not needle:
            continue
        if "_" in text:
            wild = "".join(f"[{re.escape(c)}_]" if c.isalnum() or c == " " else re.escape(c) for c in needle)
            spans = [(m.start(), m.end()) for m in re.finditer(wild, text)]
        else:
            spans, at = [], text.find(needle)
            while at >= 0:
                spans.append((at, at + len(needle)))
                at = text.find(needle, at + 1)
        for a, b in spans:
            span = doc.char_span(a, b, alignment_mode="strict")
            if span is not None:
                out.append((span.start, span.end, name))
    return out


JOINERS = frozenset({"-", "/"})
"""Marks that join words into one name with no space around them ("s-block", "Europe/Orvin")."""


NOMINAL = frozenset({"ADJ", "NOUN", "PROPN"})


def _nominal_runs(doc: Any) -> list[tuple[int, int]]:
    """Token bounds of each maximal run of two or more nouns, proper nouns and adjectives.

    A name is its words, whatever the parse makes of them: "the prime number theorem" may be parsed as
    the noun chunk "the prime number" and an adjective "theorem", which no chunk holds whole. Only whole
    runs are offered, never a part, so a known shorter name inside a longer unknown one is not found here.
    """
    out: list[tuple[int, int]] = []
    start = None
    for tok in [*doc, None]:
        if tok is not None and tok.pos_ in NOMINAL:
            start = tok.i if start is None else start
            continue
        end = len(doc) if tok is None else tok.i
        if start is not None and end - start >= 2:
            out.append((start, end))
        start = None
    return out


def _numbered_and_hyphened(doc: Any) -> list[tuple[int, int]]:
    """Spans a noun chunk leaves out: a noun numbered after it ("group 1"), and words joined by a hyphen or slash.

    A noun chunk ends at its head noun, so the number after it is left out; the parse may cut words joined
    by hyphens ("s-block") or slashes ("Europe/Orvin", a time zone's name) with no space into three nouns.
    """
    out = []
    for tok in doc:
        nxt = doc[tok.i + 1] if tok.i + 1 < len(doc) else None
        if tok.pos_ in ("NOUN", "PROPN") and nxt is not None and nxt.dep_ == "nummod" and nxt.head.i == tok.i:
            out.append((tok.i, tok.i + 2))
    i = 0
    while i < len(doc):
        j = i
        while j + 2 < len(doc) and doc[j + 1].text in JOINERS and not doc[j].whitespace_ and not doc[j + 1].whitespace_:
            j += 2
        if j > i:
            out.append((i, j + 1))
        i = j + 1
    return out


def singular(doc: Any, start: int, end: int) -> str | None:
    """The span with its last word, a plural common noun, in the singular ("prime numbers" -> "prime number").

    A KB labels a kind of thing in the singular ("Quasicrystal"); a sentence may speak of its instances in
    the plural. None where the last word is no plural noun or its lemma is the word itself.
    """
    last = doc[end - 1]
    if last.tag_ not in ("NNS", "NNPS") or last.is_upper or last.lemma_.lower() == last.lower_:
        return None
    lemma = str(last.lemma_) if last.text[:1].islower() else last.lemma_[:1].upper() + last.lemma_[1:]
    return str(doc[start : end - 1].text_with_ws) + lemma if end - 1 > start else lemma


__all__ = ["NAME_LINKS", "candidate_spans", "fold_same_length", "proper_runs", "singular"]
