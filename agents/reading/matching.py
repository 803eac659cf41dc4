"""Where a claim's units stand in evidence sentences (pure, over spaCy parses): names, numbers and words.

A name is found whole, by its acronym (or expanded from one), by all its significant words, or a
person by the family name alone; a number within the claim's tolerance; a word by its lemma or a
WordNet synonym or derivational form. A `Sentence` also holds the names it speaks of by a pronoun.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from spacy.lang.en.stop_words import STOP_WORDS

from agents.reading.units import Unit, UnitKind, content_units, fold, undot

_PARTICLES = frozenset({"of", "the", "de", "la", "le", "von", "van", "der", "and", "&", "s"})


@dataclass(frozen=True, slots=True)
class Sentence:
    """One evidence sentence, parsed, with its citation id and what it holds."""

    id: str
    doc: Any
    units: tuple[Unit, ...]
    words: frozenset[str]
    """Lemmas and lower-cased words."""
    folded: str
    """The folded text, padded with spaces (names are matched on word edges)."""
    context: tuple[str, ...] = ()
    """Names the sentence speaks of without naming them (`resolved_context`)."""
    position: int = 0
    """Its place in the evidence, in the order supplied (neighbours share a topic: `support.NEAR`)."""
    refers: bool = False
    """It speaks of something said before (`refers_back`), parsed once."""

    @classmethod
    def of(cls, sid: str, doc: Any, context: Sequence[str] = (), position: int = 0) -> Sentence:
        """Index a parsed sentence; `context` are names it speaks of without naming them (`resolved_context`)."""
        words = frozenset({t.lemma_.lower() for t in doc} | {t.lower_ for t in doc})
        folded = " ".join([fold(doc.text), *(fold(c) for c in context)])
        units = tuple(content_units(doc))
        return cls(sid, doc, units, words, f" {folded} ", tuple(context), position, refers_back(doc))

    def names(self) -> list[str]:
        """The names the sentence states."""
        return [u.text for u in self.units if u.kind == UnitKind.NAME]

    def subjects(self) -> list[Unit]:
        """The names in a subject role (the sentence's own topic)."""
        return [
            u
            for u in self.units
            if u.kind == UnitKind.NAME
            and any(
                t.dep_ in SUBJECTS or (t.dep_ in NAME_PARTS and t.head.dep_ in SUBJECTS)
                for t in self.doc[u.start : u.end]
            )
        ]

    def topics(self, person: bool = False) -> list[str]:
        """What a following sentence's pronoun or "the firm" most likely speaks of.

        The names in its subject (the most salient), else all its names; for "she" or "his" (`person`)
        its people, subjects first.
        """
        if person:
            people = [u for u in self.units if u.kind == UnitKind.NAME and u.label == "PERSON"]
            subjects = [u.text for u in self.subjects() if u in people]
            return subjects + [u.text for u in people if u.text not in subjects]
        return [u.text for u in self.subjects()] or self.names()

    @property
    def text(self) -> str:
        """The sentence as written."""
        return str(self.doc.text)


Related = Callable[[str], frozenset[str]]
"""A lemma's synonyms and derivational forms (WordNet); empty when none."""


PRONOUNS = frozenset({"he", "she", "it", "they", "his", "her", "its", "their", "him", "them", "this", "these"})
"""Words that speak of a name said before: a sentence with one also holds the previous sentence's names."""


PERSONAL = frozenset({"he", "she", "him", "her", "his", "hers"})
"""Pronouns that speak of a person: they refer to the previous sentence's people."""
NAME_PARTS = frozenset({"compound", "appos", "flat", "poss"})
"""Dependencies by which a name belongs to the noun it stands with ("the planet Ket")."""
MAX_CONTEXT = 12
"""Names a sentence carries from before (the nearest first)."""
DEFINITE = frozenset({"the", "this", "that", "these", "those"})
SUBJECTS = frozenset({"nsubj", "nsubjpass"})


def refers_back(doc: Any) -> bool:
    """Whether a sentence speaks of something said before.

    A pronoun, or a definite description as its subject with no name of its own ("The firm
    moved to ...", "The band toured ...").
    """
    return any(t.lower_ in PRONOUNS or (t.dep_ in SUBJECTS and definite_description(t)) for t in doc)


def definite_description(t: Any) -> bool:
    """Whether a noun is a definite description with no name of its own ("the firm", "this band")."""
    return (
        t.pos_ == "NOUN"
        and any(c.dep_ == "det" and c.lower_ in DEFINITE for c in t.children)
        and not any(x.pos_ == "PROPN" for x in t.subtree)
    )


def resolved_context(doc: Any, previous: Sentence | None, topic: str | None) -> list[str]:
    """Names a sentence speaks of without naming them (a coarse coreference).

    The item's topic entity, and the previous sentence's topics (`Sentence.topics`) and context when
    this one refers back (`refers_back`: "Ada Lovelace met Babbage. She wrote the first program.").
    """
    out = [topic] if topic else []
    if previous is not None and refers_back(doc):
        person = any(t.lower_ in PERSONAL for t in doc)
        out += [n for n in (*previous.topics(person), *previous.context) if n not in out]
    return out[:MAX_CONTEXT]


def opens_unresolved(s: Sentence) -> bool:
    """Whether a sentence's subject is a pronoun that refers back to nothing the evidence said before it.

    "He was ...", "It opened in ..." with no earlier sentence or item topic to resolve it: a passage cut
    from a page without its title. A definite description ("The lake ...") is not taken so: it names
    a kind of thing, and the claim's subject may be of another kind.
    """
    return (
        s.refers
        and not s.context
        and not s.subjects()
        and any(t.dep_ in SUBJECTS and t.lower_ in PRONOUNS for t in s.doc)
    )


def bound(sentences: Sequence[Sentence], about: Sentence) -> list[Sentence]:
    """The sentences, with those that open unresolved (`opens_unresolved`) speaking of what `about` is about.

    Evidence supplied for a claim is about the claim's topic: "He was Chief of the Office from 1963"
    speaks of the person the claim names as its subject, "It was founded in 1852" of the thing
    (`_subject_names`). Only sentences before the first name of their item are bound: after a name,
    the pronoun may speak of it even where the tagger missed its type. A sentence the evidence
    resolves, or one that names its own subject, is left as it is.
    """
    named: set[str] = set()
    rebound: dict[str, Sentence] = {}
    for s in sorted(sentences, key=lambda x: x.position):
        item = s.id.split(".", 1)[0]
        if item not in named and opens_unresolved(s):
            names = _subject_names(about, any(t.lower_ in PERSONAL for t in s.doc))
            if names:
                rebound[s.id] = Sentence.of(s.id, s.doc, names[:MAX_CONTEXT], s.position)
        if s.names():
            named.add(item)
    return [rebound.get(s.id, s) for s in sentences]


def _subject_names(about: Sentence, person: bool) -> list[str]:
    """The names of a claim's subject that a pronoun may stand for.

    For "he" or "she": a person's name that is the subject itself ("Marta Keller was ..."). For "it" or
    "they": a name in the subject that is not a person's, or one that modifies a common noun ("The
    Orvin shipyard": a tagger's PERSON there is noise).
    """
    out = []
    for t in about.doc:
        if t.dep_ not in SUBJECTS:
            continue
        for u in about.units:
            inside = u.kind == UnitKind.NAME and u.start <= t.i < u.end
            modifies = u.kind == UnitKind.NAME and any(x.head.i == t.i for x in about.doc[u.start : u.end])
            thing = (inside and u.label != "PERSON") or (modifies and t.pos_ == "NOUN")
            if (person and inside and t.pos_ == "PROPN" and u.label == "PERSON") or (not person and thing):
                out.append(u.text)
    return list(dict.fromkeys(out))


def neighbours(sentences: Sequence[Sentence], near: int) -> dict[str, list[Sentence]]:
    """Each sentence's neighbours: the sentences of its evidence item within `near` places of it.

    An item is one passage; separate items may be unrelated facts, so no neighbourhood crosses them.
    """
    by_place = sorted(sentences, key=lambda s: s.position)
    return {
        s.id: [
            t
            for t in by_place[max(0, k - near) : k + near + 1]
            if t is not s and t.id.split(".", 1)[0] == s.id.split(".", 1)[0]
        ]
        for k, s in enumerate(by_place)
    }


def acronym(text: str) -> str:
    """The initials of a name's capitalised words ("United Nations" -> "UN")."""
    return "".join(w[0] for w in text.split() if w and w[0].isupper() and w.lower() not in _PARTICLES)


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
    if key in STOP_WORDS:  # "U.S." folds to "us", "Others" to "others": only the name as written counts
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
    parts = [p for p in key.split() if p not in _PARTICLES and len(p) > 1]
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
    except ValueError:
        return False
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
    a = {p for p in rival.key.split() if p not in _PARTICLES and len(p) > 1}
    b = {p for p in claimed.key.split() if p not in _PARTICLES and len(p) > 1}
    acro_a, acro_b = acronym(rival.text).lower(), acronym(claimed.text).lower()
    return bool(a & b) or rival.key in (acro_b, acro_b[:-1]) or claimed.key in (acro_a, acro_a[:-1])


def aliases(u: Unit, related: Related | None) -> set[str]:
    """A place's, group's or organisation's WordNet aliases, folded, without common words (`name_in`)."""
    if related is None or u.kind != UnitKind.NAME or u.label not in ALIASED:
        return set()
    return {a for a in (fold(x) for x in related(u.key)) if len(a) > 1 and a not in STOP_WORDS}


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
    "PRONOUNS",
    "Related",
    "Sentence",
    "acronym",
    "aliases",
    "bound",
    "definite_description",
    "found_in",
    "name_in",
    "neighbours",
    "number_in",
    "opens_unresolved",
    "overlaps",
    "refers_back",
    "resolved_context",
    "same_value",
    "word_in",
]
