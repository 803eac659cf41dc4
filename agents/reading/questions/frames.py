"""What a question asks, from its parse (pure over spaCy docs): the asked clause, its predicate words, its shape.

A yes / no query is read as logic, never matched against sentence templates:

- *the asked statement*: `agents.reading.questions.asked`;
- *the frame*: "Is it true / possible / right that S?", "Is it possible for X to VP?", "Is there ...":
  a copula whose subject is an expletive "it" / "there" and the adjective it carries are the frame,
  not the claim, and never count as predicate words;
- *the shape*: two names in one coordination ("X and Y", "between X and Y") with a sameness word
  ("same", "common", "shared", "overlap", "both") or a difference word ("different", "distinct",
  "separate") ask whether they stand in one relation to the same thing; a quantifier ("more than
  one", "at least three", "several", "many") over a noun with one name asks for a count; anything
  else is a plain triple;
- *the predicate words*: the content words (nouns, verbs, adjectives, and the prepositions that
  carry a direction) outside the names, the frame and the shape words, in sentence order: what a
  relation label is linked from (`agents.reading.candidates.labels`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from agents.reading.candidates import LIGHT

SAME = frozenset({"same", "common", "share", "shared", "overlap", "both", "mutual", "joint"})
DIFFERENT = frozenset({"different", "distinct", "separate", "differ", "disjoint", "unrelated"})
QUANTIFIERS = {"several": 2, "many": 2, "multiple": 2, "numerous": 2}
"""Quantifier words and the least count each asserts."""
FRAME_ADJ = frozenset({"true", "possible", "right", "correct", "false", "accurate", "fact", "case", "likely"})
"""Adjectives (and nouns) of a frame ("Is it true that ..."): what is asked about the clause, not in it."""
REPORTING = frozenset(
    {"say", "think", "believe", "tell", "hear", "read", "claim", "report", "suppose", "know", "guess", "assume"}
)
"""Verbs whose clausal complement is what is said or thought ("Some say X ...", "I heard that X ...")."""
VAGUE = frozenset({"someone", "something", "anyone", "anything", "somebody", "one", "thing", "person", "people"})
FUNCTION_POS = frozenset({"DET", "AUX", "PART", "PUNCT", "CCONJ", "SCONJ", "PRON", "SPACE", "INTJ", "NUM", "X"})
DIRECTION_PREPS = frozenset({"of", "by", "in", "at", "for", "from", "to", "with", "on"})
WORD_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9}

Shape = Literal["triple", "common", "count"]


@dataclass(frozen=True, slots=True)
class Span:
    """Token bounds [start, end) of a name in the doc."""

    start: int
    end: int


def frame_tokens(doc: Any) -> set[int]:
    """Token indexes of the question frame ("Is it true that", "Is it possible for ... to", "Is there")."""
    out: set[int] = set()
    for root in (t for t in doc if t.dep_ == "ROOT"):
        kids = list(root.children)
        expletive = [c for c in kids if c.dep_ in ("expl", "nsubj") and c.lower_ in ("it", "there")]
        if root.lemma_ != "be" or not expletive:
            continue
        clausal = [c for c in kids if c.dep_ in ("ccomp", "advcl", "xcomp", "csubj")]
        if not clausal and expletive[0].lower_ != "there":
            continue
        out |= {root.i, expletive[0].i}
        for c in kids:
            if c.dep_ in ("acomp", "attr") and c.lemma_.lower() in FRAME_ADJ:
                out |= {x.i for x in c.subtree}
        for c in clausal:
            out |= {x.i for x in c.children if x.dep_ == "mark" or (x.dep_ == "aux" and x.lower_ == "to")}
    return out


def sameness(doc: Any, names: Sequence[Span]) -> bool | None:
    """True / False when the sentence asks about a shared / a different value of two coordinated names, else None."""
    if len(names) != 2 or not _coordinated(doc, names[0], names[1]):
        return None
    inside = {i for n in names for i in range(n.start, n.end)}
    lemmas = {t.lemma_.lower() for t in doc if t.i not in inside} | {t.lower_ for t in doc if t.i not in inside}
    if lemmas & DIFFERENT:
        return False
    if lemmas & SAME:
        return True
    return None


def _coordinated(doc: Any, a: Span, b: Span) -> bool:
    """Whether two names are joined by "and" ("X and Y", "between X and Y", "X and Y to be ...")."""
    between = doc[a.end : b.start]
    return len(between) == 1 and between[0].lower_ in ("and", "&")


def quantity(doc: Any) -> tuple[int, int] | None:
    """(token index of the counted noun, least count) of a quantifier phrase, or None.

    "more than one N" -> 2; "at least three N" -> 3; "several / many / multiple N" -> 2.
    """
    words = [t.lower_ for t in doc]
    for t in doc:
        n: int | None = None
        if t.lower_ in QUANTIFIERS and t.dep_ in ("amod", "det", "nummod", "quantmod"):
            n = QUANTIFIERS[t.lower_]
        elif t.lower_ in WORD_NUMBERS or t.like_num:
            value = WORD_NUMBERS.get(t.lower_) or (int(t.text) if t.text.isdigit() and len(t.text) < 3 else None)
            if value is not None and t.i >= 2 and words[t.i - 2 : t.i] == ["more", "than"]:
                n = value + 1
            elif value is not None and t.i >= 2 and words[t.i - 2 : t.i] == ["at", "least"]:
                n = value
        if n is None or n < 2:
            continue
        noun = t.head if t.head.pos_ in ("NOUN", "PROPN") else None
        if noun is None and t.head.head.pos_ in ("NOUN", "PROPN"):
            noun = t.head.head
        if noun is not None:
            return noun.i, n
    return None


def described(doc: Any, names: Sequence[Span]) -> set[int]:
    """Tokens of a description a name stands in apposition to ("the sailing event X"): what it is, no relation."""
    out: set[int] = set()
    for n in names:
        root = next((t for t in doc[n.start : n.end] if not n.start <= t.head.i < n.end), None)
        if root is None or root.dep_ != "appos" or root.head.i >= n.start or root.head.pos_ != "NOUN":
            continue
        head = root.head
        out |= {head.i} | {c.i for c in head.children if c.i < head.i and c.dep_ in ("det", "amod", "compound")}
    return out


def reported(doc: Any, names: Sequence[Span]) -> set[int] | None:
    """The tokens of a clause a verb of saying or thinking reports, when it holds every name, else None.

    "Some say X was held in Y", "I heard that X ...": the report's own words say no relation.
    """
    for t in doc:
        if t.dep_ == "ccomp" and t.head.pos_ == "VERB" and t.head.lemma_.lower() in REPORTING:
            clause = {x.i for x in t.subtree}
            if names and all(n.start in clause for n in names):
                return clause
    return None


def predicate_words(doc: Any, names: Sequence[Span], skip: frozenset[str] = frozenset()) -> list[Any]:
    """The content tokens that say the relation: outside the names, the frame, the shape words and `skip`.

    Within a reported clause, when one holds every name (`reported`).
    """
    inside = {i for n in names for i in range(n.start, n.end)} | described(doc, names)
    frame = frame_tokens(doc)
    clause = reported(doc, names)
    out = []
    for t in doc:
        if clause is not None and t.i not in clause:
            continue
        if t.i in inside or t.i in frame or t.dep_ in ("neg", "aux", "auxpass", "mark", "expl", "punct"):
            continue
        lemma = t.lemma_.lower()
        if lemma in skip or t.lower_ in skip or lemma in VAGUE or lemma in FRAME_ADJ or lemma == "be":
            continue
        if t.pos_ == "ADP" and t.lower_ not in DIRECTION_PREPS:
            continue
        if t.pos_ in FUNCTION_POS and t.pos_ != "ADP":
            continue
        out.append(t)
    while out and out[0].pos_ == "ADP":
        out.pop(0)
    return out


TYPE_MARKS = (SAME | DIFFERENT) - {"both"}
"""Words that modify the shared thing ("the same club"), unlike "both", which modifies the two names."""


def type_nouns(words: list[Any]) -> list[Any]:
    """The nouns a sameness or difference word modifies ("the same club": "club"), the shared thing's type."""
    return [t for t in words if t.pos_ == "NOUN" and any(c.lower_ in TYPE_MARKS for c in t.children)]


def untyped(words: list[Any]) -> list[Any]:
    """The predicate words less any noun a sameness or difference word modifies, and its own modifiers."""
    typed = type_nouns(words)
    return [t for t in words if t not in typed and t.head not in typed]


def without_type(words: list[Any]) -> list[Any]:
    """Predicate words without the shared thing's type ("members of the same club": "club" is no relation).

    The noun a sameness or difference word modifies names the type of the shared object when a
    relational word comes before it ("both R of the same T"); alone ("the same coach") it is the relation.
    """
    typed = type_nouns(words)
    if not typed:
        return words
    rest = untyped(words)
    relational = [t for t in rest if t.pos_ in ("NOUN", "VERB") and t.lemma_.lower() not in LIGHT and t.i < typed[0].i]
    return rest if relational else words


def head_words(words: list[Any], names: Sequence[Any]) -> list[Any]:
    """The predicate words without the modifiers of its nouns and without a name's descriptor noun.

    "the memorial site for the historical event X": "site for" ("event", right before the name, describes X).
    """
    described = {t.i for t in words if t.pos_ == "NOUN" and any(m.start == t.i + 1 for m in names)}
    kept = {t.i for t in words} - described
    return [
        t
        for t in words
        if t.i in kept
        and not (t.dep_ in ("amod", "compound") and t.head.pos_ == "NOUN" and t.head.i in kept | described)
    ]


__all__ = [
    "DIFFERENT",
    "QUANTIFIERS",
    "SAME",
    "Shape",
    "Span",
    "frame_tokens",
    "head_words",
    "predicate_words",
    "quantity",
    "reported",
    "sameness",
]
