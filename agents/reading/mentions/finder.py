"""Mentions in a parsed sentence: the names a KB or a pair's triples know, years, and numbers (digits or words).

Candidate spans are spaCy's entities and noun chunks, proper-noun runs (also bridged over inner
linking words: "Battle of the Bulge") and every occurrence of a supplied triple's name; a span is a
name when `known` accepts it, longest first where spans overlap. A span of cue words only ("a
border", "the capital") is never a name. Years and numbers come from `agents.reading.mentions.values`.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

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


def head_word(doc: Any, m: Mention) -> Any:
    """The mention's syntactic head, the word of it whose own head lies outside it.

    "Theorem" in "Ansel's Last Theorem", not the possessor "Ansel"; "Krane" in "Ansel Krane".
    """
    return doc[m.start : m.end].root


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


def _singular(doc: Any, start: int, end: int) -> str | None:
    """The span with its last word, a plural common noun, in the singular ("prime numbers" -> "prime number").

    A KB labels a kind of thing in the singular ("Quasicrystal"); a sentence may speak of its instances in
    the plural. None where the last word is no plural noun or its lemma is the word itself.
    """
    last = doc[end - 1]
    if last.tag_ not in ("NNS", "NNPS") or last.is_upper or last.lemma_.lower() == last.lower_:
        return None
    lemma = str(last.lemma_) if last.text[:1].islower() else last.lemma_[:1].upper() + last.lemma_[1:]
    return str(doc[start : end - 1].text_with_ws) + lemma if end - 1 > start else lemma


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


def mentions(
    doc: Any, known: Callable[[str], bool], cue_lemmas: frozenset[str] = frozenset(), unlinked: bool = False
) -> list[Mention]:
    """Names `known` accepts and the sentence's years and numbers, longest first where they overlap.

    A span of cue words only ("a border", "the capital") is never a name, whatever a KB calls so.
    With `unlinked`, a proper-noun run nothing knows is a name too (`Mention.linked` False), where it
    overlaps no known name: it stays as written, never linked to a neighbour.
    """
    spans: dict[tuple[int, int], str | None] = {}
    for span in [*doc.ents, *doc.noun_chunks]:
        spans[_trim(span)] = None
        if any(t.dep_ == "poss" for t in span):  # "Kalan's conjecture": a name may hold its possessor
            spans.setdefault(_trim(span, keep_owner=True), None)
    for tok in doc:  # a possessor inside a noun chunk ("gold's symbol"), which the chunk's trim drops
        if tok.dep_ == "poss" and tok.pos_ in ("NOUN", "PROPN"):
            start = next(i for i in range(tok.left_edge.i, tok.i + 1) if doc[i].dep_ not in ("det", "case", "punct"))
            spans.setdefault((start, tok.i + 1), None)
    for start, end in _proper_runs(doc):
        spans[(start, end)] = None
    for tok in doc:  # a subject the tagger took for no noun ("Tin is soft.": an interjection), which no chunk holds
        if tok.dep_ in ("nsubj", "nsubjpass") and tok.pos_ in ("INTJ", "ADJ", "VERB", "X") and tok.is_alpha:
            spans.setdefault((tok.i, tok.i + 1), None)
    for start, end in [*_numbered_and_hyphened(doc), *_nominal_runs(doc)]:
        spans.setdefault((start, end), None)
    subjects = {n.lower() for n in getattr(known, "subjects", ())}
    for start, end, supplied in _named(doc, getattr(known, "names", ())):
        spans[(start, end)] = supplied  # written as the triples write it ("Kalán Borr" for "Kalan Borr")
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
            text = _singular(doc, start, end) or text  # "studied quasicrystals": the KB's "Quasicrystal"
        if known(text):
            found.append(Mention(start, end, text, ValueKind.ENTITY))
    if unlinked:
        found = _whole_entities(doc, found)
        for start, end in sorted(_proper_runs(doc), key=lambda s: (s[0] - s[1], s[0])):
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
