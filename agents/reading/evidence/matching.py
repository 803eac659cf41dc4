"""Where a claim's units stand in evidence sentences (pure, over spaCy parses): names, numbers and words.

A name is found whole, by its acronym (or expanded from one), by all its significant words (a
person's in their order), or a person by the family name standing alone; a number within the
claim's tolerance; a word by its lemma or a WordNet synonym or derivational form. Sentences and the
names they speak of by reference are `agents.reading.evidence.sentences`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from agents.reading.evidence.sentences import Sentence
from agents.reading.evidence.units import Unit, UnitKind
from agents.reading.mentions import fold, undot
from drowzee_core.nlp import stop_words

PARTICLES = frozenset({"of", "the", "de", "la", "le", "von", "van", "der", "and", "&", "s"})
"""Words of a name that do not identify it on their own."""


Related = Callable[[str], frozenset[str]]
"""A lemma's synonyms and derivational forms (WordNet); empty when none."""


def acronym(text: str) -> str:
    """The initials of a name's capitalised words ("United Nations" -> "UN")."""
    return "".join(w[0] for w in text.split() if w and w[0].isupper() and w.lower() not in PARTICLES)


ALIASED = frozenset({"GPE", "NORP", "LOC", "ORG", "LANGUAGE"})
"""Name types whose WordNet synonyms and derived forms count as the name ("United Kingdom" ~ "Britain",
"French" ~ "France"); a person's or a work's do not ("Swift" is also a bird)."""


def name_in(unit: Unit, s: Sentence, related: Related | None = None) -> bool:
    """Whether a name is in a sentence, whole or by an acronym, alias or its significant words.

    An acronym counts either way; a WordNet alias only for a place, group or organisation, and never
    one that is a common word ("US" is also "us").
    """
    key = unit.key
    if not key:
        return False
    if key in stop_words():  # "U.S." folds to "us", "Others" to "others": only the name as written counts
        return re.search(rf"(?<!\w){re.escape(undot(unit.text))}(?!\w)", undot(s.text)) is not None
    if f" {key} " in s.folded:
        return True
    if any(f" {a} " in s.folded for a in aliases(unit, related)):
        return True
    acro = acronym(unit.text)
    if len(acro) >= 2 and f" {acro.lower()} " in s.folded:
        return True
    if (
        unit.text.isupper()
        and len(unit.text) >= 2
        and any(v.kind == UnitKind.NAME and acronym(v.text).lower() == key for v in s.units)
    ):
        return True
    parts = [p for p in key.split() if p not in PARTICLES and len(p) > 1]
    person = unit.label == "PERSON"
    if parts and all(f" {p} " in s.folded for p in parts) and _same_order(parts, s, person):
        return True
    # a person named again by the family name alone ("Ada Lovelace" ... "Lovelace"), not inside another
    # person's name ("Kai Dalton" is not "Moss Dalton", nor "Dalton Moss")
    return person and len(parts) >= 2 and _alone(parts[-1], s.doc)


def _same_order(parts: Sequence[str], s: Sentence, person: bool) -> bool:
    """Whether a name's words found in a sentence stand in its order.

    A person's words in another order name another person ("Lee Morgan", "Morgan Lee"); any name the
    sentence writes with the same words reordered is another name, whatever the tagger calls it.
    """
    if _in_order(parts, s.folded):
        return True
    same = sorted(parts)
    names = [v.key for v in s.units if v.kind == UnitKind.NAME] + [fold(c) for c in s.context]
    return not person and not any(sorted(p for p in n.split() if p in parts) == same for n in names)


def _in_order(parts: Sequence[str], folded: str) -> bool:
    """Whether the words occur in this order in a folded text (" a b c ")."""
    at = -1
    for p in parts:
        at = folded.find(f" {p} ", at + 1)
        if at < 0:
            return False
    return True


def _alone(word: str, doc: Any) -> bool:
    """Whether a folded word stands in a sentence as a name of one word: no capitalised name word beside it."""

    def name_word(i: int) -> bool:
        return 0 <= i < len(doc) and doc[i].pos_ == "PROPN" and doc[i].text[:1].isupper()

    return any(fold(t.text) == word and not name_word(t.i - 1) and not name_word(t.i + 1) for t in doc)


def number_in(unit: Unit, s: Sentence) -> bool:
    """Whether a number is in a sentence, within the claim's tolerance."""
    try:
        want = float(unit.key)
    except ValueError:  # a month ("month 3"): the same key
        return any(v.kind == UnitKind.NUMBER and v.key == unit.key for v in s.units)
    tol = abs(want) * (unit.tolerance or 0.0)
    for v in s.units:
        if v.kind != UnitKind.NUMBER:
            continue
        try:
            got = float(v.key)
        except ValueError:
            continue
        if abs(got - want) <= tol or got == want:
            return True
    return False


def word_in(unit: Unit, s: Sentence, related: Related) -> bool:
    """Whether a content word, or one of its WordNet synonyms or derivational forms, is in a sentence."""
    if unit.key in s.words or unit.text.lower() in s.words:
        return True
    return bool(related(unit.key) & s.words)


def found_in(unit: Unit, s: Sentence, related: Related) -> bool:
    """Whether one unit of the claim is in one sentence."""
    if unit.kind == UnitKind.NAME:
        return name_in(unit, s, related)
    if unit.kind == UnitKind.NUMBER:
        return number_in(unit, s)
    return word_in(unit, s, related)


def overlaps(rival: Unit, claimed: Unit) -> bool:
    """Whether two names may be one: a shared significant word, or one the other's acronym ("PGA")."""
    if rival.kind != UnitKind.NAME or claimed.kind != UnitKind.NAME:
        return False
    a = {p for p in rival.key.split() if p not in PARTICLES and len(p) > 1}
    b = {p for p in claimed.key.split() if p not in PARTICLES and len(p) > 1}
    acro_a, acro_b = acronym(rival.text).lower(), acronym(claimed.text).lower()
    return bool(a & b) or rival.key in (acro_b, acro_b[:-1]) or claimed.key in (acro_a, acro_a[:-1])


def aliases(u: Unit, related: Related | None) -> set[str]:
    """A place's, group's or organisation's WordNet aliases, folded, without common words (`name_in`)."""
    if related is None or u.kind != UnitKind.NAME or u.label not in ALIASED:
        return set()
    return {a for a in (fold(x) for x in related(u.key)) if len(a) > 1 and a not in stop_words()}


def same_value(u: Unit, v: Unit, related: Related | None = None) -> bool:
    """Whether an evidence unit is the claim's unit (the same name or an alias, or the number within tolerance)."""
    if u.kind != v.kind:
        return False
    if u.kind == UnitKind.NAME:
        return u.key == v.key or overlaps(v, u) or v.key in aliases(u, related) or u.key in aliases(v, related)
    try:
        want, got = float(u.key), float(v.key)
    except ValueError:
        return u.key == v.key
    return abs(got - want) <= abs(want) * (u.tolerance or 0.0) or got == want


__all__ = [
    "PARTICLES",
    "Related",
    "acronym",
    "aliases",
    "found_in",
    "name_in",
    "number_in",
    "overlaps",
    "same_value",
    "word_in",
]
