"""What a claim names that the evidence never mentions (pure, over spaCy parses).

A claim the evidence reader cannot support or refute is *unsupported* by the evidence only when it
names what no sentence mentions at all: a name (whole, or by one of its own words: `mentioned`), a
number or date, or a copular claim's attribute noun ("X is a sailor"). Anything else it cannot align
may be a paraphrase, and stays open (`agents.reading.evidence.support.decide`). A predicate verb the evidence
never says keeps a claim from being supported by the share of its other units found, but does not
make it unsupported (`predicate`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.reading.evidence.matching import PARTICLES, Related, found_in
from agents.reading.evidence.sentences import Sentence
from agents.reading.evidence.units import Unit, UnitKind
from agents.reading.mentions import fold
from drowzee_core.nlp import stop_words

ATTRIBUTE_ABSENT = True
"""Whether a copular claim's attribute noun the evidence never mentions makes it unsupported (`absent_units`;
chosen on FEVER rows of `train/`)."""


def predicate(claim: Any, units: Sequence[Unit]) -> Unit | None:
    """The unit of the claim's predicate verb (its root verb, when a content unit), or None.

    A copula or a light verb is no unit ("X is a city", "X has a port"): such a claim's predicate is
    its complement, which a paraphrase may well name otherwise.
    """
    roots = [t.i for t in claim if t.dep_ == "ROOT" and t.pos_ == "VERB"]
    return next((u for u in units if u.kind == UnitKind.WORD and u.start in roots), None)


def mentioned(u: Unit, s: Sentence, related: Related) -> bool:
    """Whether a sentence mentions a unit: found there (`found_in`), or, for a name, one of its own words.

    A name's significant word written capitalised in the sentence mentions it ("Tezuka" for "Osamu
    Tezuka", "the Knicks" for "the New York Knicks"): the evidence may speak of it under a short name, so
    it is not what the evidence never mentions, even where it does not state the name whole. A word
    inside another name the sentence states is no short name of this one: "Sea" in "the Mediterranean
    Sea" does not mention "Red Sea" (`_other_name`). On 1,000 FEVER rows of `train/` this turned 4 open
    calls into unsupported ones, 2 of them right (decided accuracy 0.727 before, 0.726 after): its gain
    is a true explanation, not a figure.
    """
    if found_in(u, s, related):
        return True
    if u.kind != UnitKind.NAME:
        return False
    parts = {p for p in u.key.split() if len(p) > 2 and p not in stop_words() and p not in PARTICLES}
    return any(t.text[:1].isupper() and fold(t.text) in parts and not _other_name(t, parts) for t in s.doc)


def _other_name(token: Any, parts: set[str]) -> bool:
    """Whether a token lies in a named entity (spaCy's) that holds a capitalised word not among `parts`.

    A person's name is the exception: "Matthew Staton Bomer" is who "Matt Bomer" may be, under his full
    name; a place or a body that shares only its class word ("Sea", "University") is another one.
    """
    if not token.ent_type_ or token.ent_type_ == "PERSON":
        return False
    ent = next((e for e in token.doc.ents if e.start <= token.i < e.end), None)
    return ent is not None and any(
        w.text[:1].isupper() and w.i != token.i and not _among(fold(w.text), parts) and fold(w.text) not in PARTICLES
        for w in ent
    )


def _among(word: str, parts: set[str]) -> bool:
    """Whether a word is one of a name's parts, or a form of one ("Asia" of "Asian")."""
    return any(word == p or (min(len(word), len(p)) >= 4 and (p.startswith(word) or word.startswith(p))) for p in parts)


def attribute(claim: Any, units: Sequence[Unit]) -> Unit | None:
    """The unit of a copular claim's attribute noun ("X is a sailor": "sailor"), or None."""
    heads = [c.i for t in claim if t.dep_ == "ROOT" and t.lemma_ == "be" for c in t.children if c.dep_ == "attr"]
    return next((u for u in units if u.kind == UnitKind.WORD and u.label == "NOUN" and u.start in heads), None)


def absent_units(claim: Any, missing: Sequence[Unit], sentences: Sequence[Sentence], related: Related) -> list[Unit]:
    """The claim's missing names, numbers and attribute noun that no sentence of the evidence mentions.

    Other words are never absent in this sense, the predicate verb included: evidence says the same
    thing in other words too often. On 1,000 FEVER rows of `train/`, counting an unmentioned predicate
    verb as absent made the calls "unsupported" right 0.62 of the time, against 0.65 without it; an
    attribute noun ("a sailor") kept them at 0.66 (253 of 386) and raised the decided accuracy from
    0.718 to 0.725.
    """

    def unmentioned(u: Unit) -> bool:
        return not any(mentioned(u, s, related) for s in sentences)

    hard = [u for u in missing if u.kind != UnitKind.WORD and unmentioned(u)]
    noun = attribute(claim, missing) if ATTRIBUTE_ABSENT else None
    return [*hard, noun] if noun is not None and unmentioned(noun) else hard


__all__ = ["ATTRIBUTE_ABSENT", "absent_units", "attribute", "mentioned", "predicate"]
