"""A number in a relation's declared unit, read as that relation of the name it is said of (pure, over a parse).

A quantity relation may declare the words its numbers are counted or measured in (`units` in the
catalog: "people" for a population, "square kilometres" for an area). A sentence that gives a number
in such a unit says that relation, whatever its verb: "X has 2.5 million people", "X is home to 4
million people", "X, a city of 800,000 people", "X covers 40,000 square kilometres". The
number's own unit chooses the relation; no verb or sentence shape is coded for one.

The name it is said of is the clause's subject (or its possessor) when that name fits the relation by
the KB's stored facts (`TypeCheck`, strict), else the one name in the sentence that fits it. A sentence
with two such numbers, or a unit two relations declare, stays unread; so does a number inside a name
("the Group of 15").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from agents.reading.mentions import APPROX_WORDS, Mention, in_a_name, words_to_number
from drowzee_core.kb.model import ValueKind

Can = Callable[[str, str, Literal["s", "o"]], bool]
"""Whether a name can stand at one end of a relation, by stored facts (`TypeCheck.can`, strict)."""

SUBJECTS = frozenset({"nsubj", "nsubjpass"})
MAX_COUNT = 1000
"""Counts of values at most this (a larger number is a quantity, not a count of names)."""


@dataclass(frozen=True, slots=True)
class Measure:
    """A number said in a relation's unit, and the name it is said of."""

    subject: Mention
    value: Mention
    relation: str


def unit_table(
    declared: Iterable[tuple[str, Sequence[str]]], lemmas: Callable[[str], tuple[str, ...]]
) -> dict[tuple[str, ...], str]:
    """Each declared unit's lemmas -> its relation; a unit two relations declare is left out (it chooses neither).

    `declared` is (relation, units) per relation; `lemmas` gives a phrase's lower-case lemmas.
    """
    owners: dict[tuple[str, ...], set[str]] = {}
    for relation, units in declared:
        for unit in units:
            for key in {lemmas(unit), tuple(unit.lower().split())}:
                if key:
                    owners.setdefault(key, set()).add(relation)
    return {k: next(iter(v)) for k, v in owners.items() if len(v) == 1}


def _unit_after(doc: Any, m: Mention, units: Mapping[tuple[str, ...], str]) -> str | None:
    """The relation whose unit follows the number right after it ("15 million people"), or None."""
    for key, relation in sorted(units.items(), key=lambda kv: -len(kv[0])):
        words = doc[m.end : m.end + len(key)]
        if len(words) == len(key) and all(
            t.lemma_.lower() == k or t.lower_ == k for t, k in zip(words, key, strict=True)
        ):
            return relation
    return None


def _subject(doc: Any, m: Mention) -> bool:
    """Whether a name is its clause's subject, or the subject's possessor ("X's population")."""
    return any(t.dep_ in SUBJECTS or (t.dep_ == "poss" and t.head.dep_ in SUBJECTS) for t in doc[m.start : m.end])


def bare_nouns(doc: Any, found: Sequence[Mention]) -> list[Mention]:
    """The mentions that are a lower-case noun with no article ("home" of "is home to"): no class is claimed."""
    out = []
    for m in found:
        tokens = doc[m.start : m.end]
        if m.kind != ValueKind.ENTITY or not all(t.pos_ == "NOUN" and t.is_lower for t in tokens):
            continue
        if not any(c.dep_ in ("det", "poss") for t in tokens for c in t.children):
            out.append(m)
    return out


def measured(
    doc: Any,
    found: Sequence[Mention],
    units: Mapping[tuple[str, ...], str],
    can: Can,
) -> Measure | None:
    """The one number of the sentence said in a declared unit, with the name it is said of (module docstring)."""
    if not units:
        return None
    numbers = [m for m in found if m.kind == ValueKind.QUANTITY and not m.gap]
    numbers = [m for m in numbers if not any(o is not m and o.start <= m.start and m.end <= o.end for o in numbers)]
    said = [(m, r) for m in numbers if (r := _unit_after(doc, m, units)) is not None and not in_a_name(doc, m)]
    if len(said) != 1:
        return None
    value, relation = said[0]
    names = [
        m
        for m in found
        if m.kind == ValueKind.ENTITY and m.linked and not (m.start < value.end and value.start < m.end)
    ]
    fitting = [m for m in names if can(m.text, relation, "s")]
    subjects = [m for m in fitting if _subject(doc, m)]
    chosen = subjects if subjects else fitting
    if len(chosen) != 1:
        return None
    return Measure(chosen[0], value, relation)


def _count(tok: Any) -> int | None:
    """The exact count a number token says ("three", "3"), or None (a year, a share, an approximate number)."""
    if any(c.lower_ in APPROX_WORDS or c.dep_ in ("advmod", "quantmod") for c in tok.children):
        return None  # "about three", "at least two": no exact count
    if tok.text.isdigit():
        return int(tok.text) if int(tok.text) < MAX_COUNT else None
    n = words_to_number([tok.lower_])
    return n if n is not None and n < MAX_COUNT else None


def counted(
    doc: Any, found: Sequence[Mention], nouns: Mapping[tuple[str, ...], str], can: Can
) -> tuple[Mention, int, str] | None:
    """The name, count and relation of "X has N <values>" ("X has two official tongues"), or None.

    The counted noun with its modifiers, lemmatised, is a relation's declared label (`nouns`: label
    lemmas -> relation); the number is exact (no "about", no "at least"); the name is the subject of
    "have" and fits the relation by the KB's stored facts.
    """
    for noun in doc:
        if noun.pos_ != "NOUN" or noun.dep_ != "dobj" or noun.head.lemma_ != "have":
            continue
        numbers = [c for c in noun.children if c.dep_ == "nummod"]
        n = _count(numbers[0]) if len(numbers) == 1 else None
        words = (*(c.lemma_.lower() for c in noun.lefts if c.dep_ in ("amod", "compound")), noun.lemma_.lower())
        relation = nouns.get(words)
        subject = next((c for c in noun.head.children if c.dep_ in SUBJECTS), None)
        if n is None or relation is None or subject is None:
            continue
        names = [m for m in found if m.kind == ValueKind.ENTITY and m.start <= subject.i < m.end]
        if len(names) == 1 and can(names[0].text, relation, "s"):
            return names[0], n, relation
    return None


__all__ = ["Measure", "bare_nouns", "counted", "measured", "unit_table"]
