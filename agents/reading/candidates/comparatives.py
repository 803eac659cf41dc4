"""Two names compared by a year or a number: "A was founded before B", "A has a larger fleet than B" (pure).

A sentence with exactly two names and a comparative between them compares their values of a relation
whose `object_kind` is a year (time words: before, after, earlier, older ...) or a quantity (a
comparative adjective or adverb with "than": more, larger, fewer ...). The relation is chosen by its
declared wording: the content words of the sentence (outside the names and the comparative) that
are cues of the relation's lexicon patterns or words of its label. Where no word says which, and the
catalog holds a single relation of that kind, it is that one; otherwise nothing is read. Negated
sentences are left to the other readers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

from agents.reading.candidates.lexicon import Lexicon
from agents.reading.mentions import Mention, mentions
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind

EARLIER = frozenset({"before", "earlier", "older", "sooner", "prior"})
LATER = frozenset({"after", "later", "younger", "newer", "recent"})
LESS = frozenset({"few", "little", "less", "small", "low", "short", "light", "narrow", "cheap", "slow", "thin"})
"""Lemmas of comparatives that say the smaller value ("fewer", "smaller", "lower" ...)."""
STOP = frozenset({"be", "have", "do", "than", "a", "an", "the", "its", "their", "yes", "no", "much", "more", "many"})


@dataclass(frozen=True, slots=True)
class Comparative:
    """`subject` has the larger ("most") or smaller ("least") value of `relation` than `other`."""

    subject: str
    other: str
    relation: str
    direction: Literal["most", "least"]


def read_comparative(doc: Any, known: Callable[[str], bool], catalog: Catalog, lexicon: Lexicon) -> Comparative | None:
    """The comparison one parsed sentence makes between two names, or None (see the module docstring)."""
    if any(t.dep_ == "neg" for t in doc):
        return None
    names = [m for m in mentions(doc, known) if m.kind == ValueKind.ENTITY]
    if len(names) != 2:
        return None
    a, b = sorted(names, key=lambda m: m.start)
    between = doc[a.end : b.start]
    found = _comparative(between)
    if found is None:
        return None
    kind, direction, word = found
    relation = _relation(doc, (a, b), word, kind, catalog, lexicon)
    if relation is None:
        return None
    return Comparative(a.text, b.text, relation, direction)


def _comparative(span: Any) -> tuple[ValueKind, Literal["most", "least"], Any] | None:
    """The kind of value, the direction for the first name, and the comparative token, or None."""
    for t in span:
        word = t.lower_
        if word in EARLIER or word in LATER:
            return ValueKind.YEAR, ("least" if word in EARLIER else "most"), t
    if not any(t.lower_ == "than" for t in span):
        return None
    for t in span:
        if t.tag_ in ("JJR", "RBR"):
            return ValueKind.QUANTITY, ("least" if t.lemma_.lower() in LESS or t.lower_ in LESS else "most"), t
    return None


def _relation(
    doc: Any, names: tuple[Mention, Mention], word: Any, kind: ValueKind, catalog: Catalog, lexicon: Lexicon
) -> str | None:
    taken = {i for m in names for i in range(m.start, m.end)} | {word.i}
    words = {t.lemma_.lower() for t in doc if t.i not in taken and t.is_alpha} - STOP
    candidates = [r for r in catalog if r.object_kind == kind]
    scores: dict[str, int] = {}
    for rel in candidates:
        cues = {c for p in lexicon.patterns if p.relation == rel.name for c in p.cues}
        cues |= {w.lower() for w in rel.label.split()}
        scores[rel.name] = len(words & cues)
    best = max(scores.values(), default=0)
    top = [n for n, s in scores.items() if s == best]
    if best > 0 and len(top) == 1:
        return top[0]
    if len(candidates) == 1:
        return candidates[0].name
    return None


__all__ = ["EARLIER", "LATER", "LESS", "Comparative", "read_comparative"]
