"""A definite description standing for a name said before: "the country", "the famous painter" (pure).

"Norland's capital is Orvin, and the country uses the orv": "the country" is Norland, the name the
previous claim is about, because Norland is a country. Whether the name is one of what the
description's noun says is WordNet's word (`WordNetRelated.describes`: an instance or a kind of it, by the
name's most frequent senses), so "the city" never stands for a country, and a name WordNet does not know
stays unread. Only a plain description counts: "the", adjectives and the noun, nothing after it ("the
country whose capital is ..." describes by a relation: `agents.reading.mentions.descriptions`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

PLACES = frozenset({"nsubj", "nsubjpass", "dobj", "pobj"})
"""Where the description stands: a subject, an object, or a preposition's object ("in the country")."""
MODIFIERS = frozenset({"det", "amod", "compound"})

Describes = Callable[[str, str], bool]
"""Whether a name is one of what a noun says ("Canada", "country" -> True)."""


def _description(t: Any) -> range | None:
    """The token span of a plain definite description headed by `t` ("the famous painter"), or None.

    A possessor counts too, without its "'s" ("the island's harbour": "the island").
    """
    if t.pos_ != "NOUN" or not t.text.islower() or t.dep_ not in (*PLACES, "poss"):
        return None
    words = [w for w in t.subtree if not (t.dep_ == "poss" and w.dep_ == "case" and w.head.i == t.i)]
    if any(w.i > t.i for w in words) or words[0].lower_ != "the":
        return None  # "the country whose ...", "the country of X": more than a noun describes it
    if any(w.i != t.i and (w.dep_ not in MODIFIERS or w.pos_ == "PROPN") for w in words[1:]):
        return None
    return range(words[0].i, t.i + 1)


def definite_as(doc: Any, names: Sequence[str], describes: Describes) -> str | None:
    """The sentence with its first plain definite description said as the first of `names` it describes.

    "The country uses the orv." with `names` [Orvin, Norland] -> "Norland uses the orv."; None when no
    description in the sentence describes any of the names.
    """
    for t in doc:
        span = _description(t)
        if span is None:
            continue
        name = next((n for n in names if describes(n, t.lemma_.lower())), None)
        if name is None:
            continue
        start, end = doc[span.start], doc[span.stop - 1]
        return f"{doc.text[: start.idx]}{name}{doc.text[end.idx + len(end.text) :]}"
    return None


def surname_as(doc: Any, names: Sequence[str]) -> str | None:
    """The sentence with a one-word name said as the full name said before that ends with it ("Brenn" -> "Tova Brenn").

    A person named in full is named again by the surname alone: "Tova Brenn founded the paper. Brenn
    edited it for years." Only a capitalised word standing alone as a name (no other proper noun
    beside it) counts, and only a name of two words or more said before that ends with that very word.
    """
    for t in doc:
        if t.pos_ != "PROPN" or not t.text[:1].isupper() or t.dep_ not in PLACES:
            continue
        if any(c.pos_ == "PROPN" for c in t.children) or t.head.pos_ == "PROPN":
            continue  # part of a longer name ("Ken Thompson", "Thompson Street")
        full = next((n for n in names if len(n.split()) > 1 and n.split()[-1] == t.text), None)
        if full is not None:
            return f"{doc.text[: t.idx]}{full}{doc.text[t.idx + len(t.text) :]}"
    return None


PLACE = "location"
"""WordNet's noun for what a place name is (cities, countries, regions are kinds of it)."""


def there_as(doc: Any, names: Sequence[str], describes: Describes) -> str | None:
    """The sentence with an adverb "there" said as "in" the one place of `names` ("live there" -> "live in X").

    "Orvin is Norland's capital. About 9,000 people live there.": "there" is the place said before. It must
    be an adverb of the verb, not the expletive of "there is", and the name one WordNet calls a location
    (`describes`), so "there" never stands for a person or a thing. Where two places were said, "there"
    could be either, and the sentence stays as it is.
    """
    for t in doc:
        if t.lower_ != "there" or t.dep_ != "advmod" or t.head.pos_ not in ("VERB", "AUX"):
            continue
        places = list(dict.fromkeys(n for n in names if describes(n, PLACE)))
        if len(places) != 1:
            return None  # none, or two ("The capital of X is Y. ... live there."): which one is not said
        return f"{doc.text[: t.idx]}in {places[0]}{doc.text[t.idx + len(t.text) :]}"
    return None


PERSONAL = frozenset({"he", "she"})


def it_as(doc: Any, thing: str, person: str) -> str | None:
    """The sentence with a subject "he" / "she" said as `person` and an object "it" as `thing` ("He painted it").

    "Did Tova Brenn paint Grey Harbour?" "Yes. She painted it in 1886.": the personal pronoun stands for
    the person the question asked about, and "it", which no person is, for the question's other name
    (`claims.referents.doer_and_done`). None where the sentence has not both.
    """
    he = next((t for t in doc if t.lower_ in PERSONAL and t.dep_ in ("nsubj", "nsubjpass")), None)
    it = next((t for t in doc if t.lower_ == "it" and t.dep_ in ("dobj", "pobj")), None)
    if he is None or it is None:
        return None
    text = doc.text
    said_person = person[:1].upper() + person[1:] if he.i == 0 or he.text[:1].isupper() else person
    return f"{text[: he.idx]}{said_person}{text[he.idx + len(he.text) : it.idx]}{thing}{text[it.idx + len(it.text) :]}"


THEN: tuple[tuple[str, str], ...] = (
    ("before that", "before"),
    ("before then", "before"),
    ("after that", "after"),
    ("until then", "until"),
    ("till then", "until"),
    ("since then", "since"),
    ("by then", "by"),
    ("back then", "in"),
    ("at that time", "in"),
    ("at the time", "in"),
    ("in that year", "in"),
    ("that same year", "in"),
    ("that year", "in"),
)
"""Phrases that put a claim in time by the year said before, and the time word each says it with."""
_THEN = re.compile(r"\b(" + "|".join(re.escape(p) for p, _ in THEN) + r")\b", re.IGNORECASE)


def then_as(sentence: str, year: int | None) -> str | None:
    """The sentence with a phrase that points back to a time said as that year ("before that" -> "before 1999").

    "Norland has used the orv since 1999; before that it used the vell." puts the second claim before the
    year the first one said. `year` is the year of the claim read last; None, or no such phrase, gives None.
    """
    if year is None:
        return None
    m = _THEN.search(sentence)
    if m is None:
        return None
    word = dict(THEN)[m.group(1).lower()]
    said = f"{word} {year}"
    if m.group(1)[0].isupper():
        said = said[:1].upper() + said[1:]
    return f"{sentence[: m.start()]}{said}{sentence[m.end() :]}"


def subject_name(doc: Any, known: Callable[[str], bool]) -> str | None:
    """The name a sentence is about, as its subject or the subject's owner ("Canada's seat ..."), if the KB knows it.

    A sentence no reader reads is still about its subject, which a description in the next one may stand for.
    A name is a proper noun, or a common noun with no article, which names a thing as a name does
    ("Graph theory is old", "Radium glows"; "The answer is ..." describes).
    """
    subject = next((t for t in doc if t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"), None)
    if subject is None:
        return None
    owner = next((c for c in subject.children if c.dep_ == "poss"), None)
    for head in (owner, subject):
        bare = head is not None and head.pos_ == "NOUN" and not any(c.dep_ in ("det", "poss") for c in head.children)
        if head is None or (head.pos_ != "PROPN" and not bare):
            continue
        words = [w for w in head.subtree if w.dep_ not in ("case", "det") and (head is owner or w.i <= head.i)]
        text = doc[words[0].i : words[-1].i + 1].text
        if known(text):
            return str(text)
    return None


__all__ = [
    "PERSONAL",
    "PLACE",
    "THEN",
    "Describes",
    "definite_as",
    "it_as",
    "subject_name",
    "surname_as",
    "then_as",
    "there_as",
]
