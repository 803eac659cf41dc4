"""Evidence sentences and what they speak of (pure, over spaCy parses): a `Sentence` and its references.

A `Sentence` is parsed and indexed once per evidence. It also holds the names it speaks of without
naming them: by a pronoun or a definite description, the previous sentence's topics
(`resolved_context`); at an item's start, with nothing before, the claim's subject (`bound`). A
passage's sentences are each other's neighbours (`neighbours`).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from agents.reading.evidence.units import Unit, UnitKind, content_units
from agents.reading.mentions import fold


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
    moved to ...", "The group toured ...").
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

    "He was ...", "It was raised in ..." with no earlier sentence or item topic to resolve it: a passage cut
    from a page without its title. A definite description ("The lake ...") is not taken so: it names
    a kind of thing, and the claim's subject may be of another kind.
    """
    return (
        s.refers
        and not s.context
        and not s.subjects()
        and any(t.dep_ in SUBJECTS and t.lower_ in PRONOUNS for t in s.doc)
    )


def bound(sentences: Sequence[Sentence], about: Sentence, given: Collection[str] | None = None) -> list[Sentence]:
    """The sentences, with those that open unresolved (`opens_unresolved`) speaking of what `about` is about.

    Evidence supplied for a claim is about the claim's topic: "He was Chief of the Office from 1963"
    speaks of the person the claim names as its subject, "It was founded in 1852" of the thing
    (`_subject_names`). Only sentences before the first name of their item are bound: after a name,
    the pronoun may speak of it even where the tagger missed its type. A sentence the evidence
    resolves, or one that names its own subject, is left as it is. When the query asks with a
    question word (`given`: its words and names, folded), only a name the query says may be bound:
    "Who was chief?" + "Tomas Keller was chief" against "He was chief" would otherwise take the
    answer for its own evidence.
    """
    named: set[str] = set()
    rebound: dict[str, Sentence] = {}
    kinds = kind_words(about)
    for s in sorted(sentences, key=lambda x: x.position):
        item = s.id.split(".", 1)[0]
        described = item not in named and opens_described(s, kinds)
        if item not in named and (opens_unresolved(s) or described):
            names = _subject_names(about, any(t.lower_ in PERSONAL for t in s.doc))
            names = names or (_named_subjects(about) if described else [])
            if given is not None:
                names = [n for n in names if all(w in given for w in fold(n).split())]
            if names:
                rebound[s.id] = Sentence.of(s.id, s.doc, names[:MAX_CONTEXT], s.position)
        if s.names():
            named.add(item)
    return [rebound.get(s.id, s) for s in sentences]


def kind_words(about: Sentence) -> frozenset[str]:
    """What a claim calls its subject: its subject name's words and a copular attribute noun.

    "The Korvel Bridge ..." gives "bridge"; "Blue Orchard is a 2004 film" gives "film".
    """
    out: set[str] = set()
    for u in _named_subject_units(about):
        out |= {t.lemma_.lower() for t in about.doc[u.start : u.end] if t.is_alpha}
    out |= {t.lemma_.lower() for t in about.doc if t.dep_ == "attr" and t.head.lemma_ == "be" and t.pos_ == "NOUN"}
    return frozenset(out)


def opens_described(s: Sentence, kinds: Collection[str]) -> bool:
    """Whether a sentence opens with a definite description of the claim's own kind, unresolved.

    "The film was released in 2004", with no earlier sentence or item topic, against "Blue Orchard is a
    2004 film": the description names the kind the claim gives its subject (`kind_words`), so it may
    speak of it. A description of another kind ("The lake ...") is never taken so.
    """
    return (
        not s.context
        and not s.subjects()
        and any(t.dep_ in SUBJECTS and definite_description(t) and t.lemma_.lower() in kinds for t in s.doc)
    )


def _named_subject_units(about: Sentence) -> list[Unit]:
    subjects = [t.i for t in about.doc if t.dep_ in SUBJECTS]
    return [u for u in about.units if u.kind == UnitKind.NAME and any(u.start <= i < u.end for i in subjects)]


def _named_subjects(about: Sentence) -> list[str]:
    return list(dict.fromkeys(u.text for u in _named_subject_units(about)))


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


__all__ = [
    "MAX_CONTEXT",
    "PERSONAL",
    "PRONOUNS",
    "SUBJECTS",
    "Sentence",
    "bound",
    "definite_description",
    "kind_words",
    "neighbours",
    "opens_described",
    "opens_unresolved",
    "refers_back",
    "resolved_context",
]
