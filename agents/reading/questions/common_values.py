"""A value said as a common noun phrase ("belongs to the genre jazz fusion", "is a poem"), with no name of its own.

Supplied triples often give values that are common nouns (a genre, a form, an occupation, a
movement). A question about such a value that the triples do not hold ("Is X in the genre of death
metal?") names nothing the KB or the triples know, so the name finder, which takes lowercase nouns
for descriptions, finds one name and leaves the question unread.

`common_value` takes the one noun phrase that stands as an argument of the predicate (a copula's
complement, an object, a preposition's object) as that value, unlinked: it is kept as written and is
never forced onto a known name. The relational noun that heads such a phrase ("the genre jazz fusion")
stays a predicate word. `resembled_label` says which supplied label takes the value when the
predicate says none ("X is a poem"): the label whose values the value is most like (embedding
cosine), at least `MIN_SCORE` and ahead of the next by `MARGIN`, as any predicate link.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from agents.reading.candidates import LIGHT, LabelLink, LabelLinker, RelationLabel
from agents.reading.mentions import Mention
from agents.reading.questions.frames import FRAME_ADJ, VAGUE, frame_tokens, type_nouns, untyped
from drowzee_core.kb.model import ValueKind

ARGUMENT_DEPS = frozenset({"attr", "dobj", "pobj", "oprd", "appos"})
"""How a value phrase's head stands to the predicate: a copula's complement, an object, a preposition's object."""
NOT_VALUES = VAGUE | FRAME_ADJ | frozenset({"question", "answer", "kind", "type", "sort"})
"""Nouns that name no value: vague words, the words of a question's frame ("Is it the case ..."), kinds."""
SKIPPED_DEPS = frozenset({"det", "poss", "predet", "case", "punct", "nummod", "quantmod"})


def _worded(t: Any) -> bool:
    """A token that may be part of a value phrase: a lowercase noun or adjective, or a capitalised noun mid-sentence."""
    if not (t.is_alpha or "-" in t.text) or t.pos_ not in ("NOUN", "ADJ", "PROPN", "VERB"):
        return False
    return bool(t.text.islower() or (t.pos_ in ("NOUN", "PROPN") and not t.is_sent_start))


def _phrase(doc: Any, head: Any, relational: frozenset[str]) -> tuple[int, int] | None:
    """The value phrase headed by `head`: its modifiers before it, without articles or a leading relational noun."""
    start = head.left_edge.i
    while start < head.i and (doc[start].dep_ in SKIPPED_DEPS or doc[start].lemma_.lower() in relational):
        start += 1  # "the genre jazz fusion": "genre" says the relation, "jazz fusion" the value
    words = doc[start : head.i + 1]
    if not all(_worded(t) for t in words) or any(t.dep_ in ("prep", "acl", "relcl") for t in words):
        return None
    return start, head.i + 1


def common_value(
    doc: Any, found: Sequence[Mention], names: Sequence[Mention], relational: frozenset[str]
) -> Mention | None:
    """The one common noun phrase that is an argument of the predicate and no name covers, unlinked; else None.

    A lowercase phrase the KB knows (a mention in `found` that the question took for a description)
    is that mention, linked.

    `relational` holds the lemmas that say a relation (the lexicon's cue lemmas and the supplied labels'
    lemmas): a phrase of only those ("the genre", "a member") is no value. Two such phrases, a phrase
    in the question frame ("Is it the case that ..."), a quantified or vague one ("some genre",
    "something") give none.
    """
    frame = frame_tokens(doc)
    said = [m for m in found if m.kind != ValueKind.ENTITY]
    taken = {i for m in [*said, *names] for i in range(m.start, m.end)}
    out: list[tuple[int, int]] = []
    for t in doc:
        if t.dep_ not in ARGUMENT_DEPS or t.pos_ not in ("NOUN", "PROPN") or t.i in taken or t.i in frame:
            continue
        lemma = t.lemma_.lower()
        if lemma in relational or lemma in NOT_VALUES or lemma in LIGHT:
            continue
        if any(c.dep_ == "det" and c.lower_ in ("any", "some", "every", "each", "another", "no") for c in t.children):
            continue
        if any(c.dep_ == "prep" and c.lower_ == "of" for c in t.children):
            continue  # "part of surrealism": a relational noun, its complement is the value
        bounds = _phrase(doc, t, relational)
        if bounds is not None and not any(i in taken for i in range(*bounds)):
            out.append(bounds)
    if len(out) != 1:
        return None
    start, end = out[0]
    known = next((m for m in found if (m.start, m.end) == (start, end)), None)
    if known is not None:
        return known  # a lowercase name the KB or the triples know ("war"), kept linked
    return Mention(start, end, doc[start:end].text, ValueKind.ENTITY, linked=False)


def valued_by(labels: Sequence[RelationLabel], value: str) -> RelationLabel | None:
    """The one supplied label that gives `value` as a value to anything, or None ("is a drama film": genre).

    A bare copula names no relation; a value only one label takes says which (whatever subject it
    has there, so the relation does not depend on whether the claim is true).
    """
    hit = [x for x in labels if value.lower() in x.objects]
    return hit[0] if len(hit) == 1 else None


def resembled_label(linker: LabelLinker, labels: Sequence[RelationLabel], value: str) -> RelationLabel | None:
    """The supplied label whose values `value` is most like (module docstring), or None."""
    if any(value.lower() in x.objects for x in labels):  # a value the triples give: its label, if only one's
        return valued_by(labels, value)
    scored = []
    for label in labels:
        values = list(label.spelled or label.objects)
        if not values:
            continue
        vectors = linker.vectors([value, *values])
        scored.append((float(np.max(vectors[1:] @ vectors[0])), label))
    scored.sort(key=lambda x: -x[0])
    if not scored or scored[0][0] < linker.min_score:
        return None
    if len(scored) > 1 and scored[0][0] - scored[1][0] < linker.margin:
        return None
    return scored[0][1]


GENERIC = LIGHT | frozenset({"be", "part", "member", "belong"})
"""Predicate words that say no particular relation ("is part of", "belongs to", "is set in")."""


def says_no_relation(words: Sequence[Any], generic: frozenset[str] = GENERIC) -> bool:
    """Whether the predicate words are only prepositions and words of no particular relation (`generic`)."""
    return all(t.pos_ == "ADP" or t.lemma_.lower() in generic for t in words)


TAXONOMIC = frozenset({"subclass", "class", "kind", "type", "sort", "category", "instance", "example"})
"""Nouns of belonging to some group, which no more say a relation than "part of" does ("a kind of the same art")."""


ANY_KIND = TAXONOMIC | frozenset({"thing", "one", "entity", "item", "group", "object"})
"""Types of a shared thing that say nothing of what it is ("the same thing", "the same group")."""


def says_belonging(words: Sequence[Any]) -> bool:
    """Whether the words say belonging and nothing more: a preposition or `TAXONOMIC` / `GENERIC` word, no other.

    "a subclass of", "part of", "set in", "from"; not a light verb alone ("have the same birthday":
    there the shared thing's noun is the relation).
    """
    generic = GENERIC | TAXONOMIC
    said = any(t.pos_ == "ADP" or t.lemma_.lower() in generic - LIGHT for t in words)
    return said and says_no_relation(words, generic)


def shared_label(
    linker: LabelLinker, labels: Sequence[RelationLabel], names: tuple[Mention, Mention], said_of: Any, kind: str | None
) -> RelationLabel | None:
    """The one supplied label the triples say of both names, or None.

    A sameness question whose predicate says no particular relation ("Are X and Y part of the same
    group?", "Are X and Y set in the same city?") asks about the relation the facts give both names.
    Where they give both more than one, the shared thing's type (`kind`, "city") picks the label whose
    values it is like (`resembled_label`); where one, a type that says something ("the same person")
    must be like the label or its values; else the question stays unread. `said_of` gives a name's
    labels (`agents.reading.mentions.known.Known.said_of`); without it nothing is shared.
    """
    if said_of is None:
        return None
    both = said_of(names[0].text) & said_of(names[1].text)
    hit = [x for x in labels if x.relation in both]
    if len(hit) > 1 and kind is not None:
        return resembled_label(linker, hit, kind)
    if len(hit) != 1 or kind is None or kind.lower() in ANY_KIND:
        return hit[0] if len(hit) == 1 else None
    vectors = linker.vectors([kind, hit[0].text, *(hit[0].spelled or hit[0].objects)])
    return hit[0] if float(np.max(vectors[1:] @ vectors[0])) >= linker.min_score else None  # "same person": no platform


def belonging_link(
    doc: Any,
    linker: LabelLinker,
    labels: Sequence[RelationLabel],
    names: tuple[Mention, Mention],
    said: list[Any],
    said_of: Any,
) -> LabelLink | None:
    """The `shared_label` of a sameness question whose predicate words `said` say only belonging, or None."""
    if not says_belonging(untyped(said)):
        return None
    outside = [t for t in doc if not any(m.start <= t.i < m.end for m in names)]
    kind = next((t.lemma_ for t in type_nouns(outside)), None)  # "person" too, which `said` leaves out
    label = shared_label(linker, labels, names, said_of, kind)
    if label is None:
        return None
    return LabelLink(label.relation, linker.min_score, "embedding", text=label.text, verbal=label.verbal)


def valued_like(
    linker: LabelLinker, labels: Sequence[RelationLabel], names: tuple[Mention, Mention], subjects: Iterable[str]
) -> tuple[LabelLink | None, tuple[Mention, Mention] | None]:
    """The label of the value one name gives the other, by what the value is like, and (subject, value); else Nones.

    The subject is the one name the supplied triples speak of; the value is the other, and its label
    is the one whose values it resembles (`resembled_label`).
    """
    spoken = {x.lower() for x in subjects}
    a, b = names
    pairs = [(s, o) for s, o in ((a, b), (b, a)) if s.text.lower() in spoken and o.text.lower() not in spoken]
    if len(pairs) != 1:
        return None, None
    s, o = pairs[0]
    label = resembled_label(linker, labels, o.text)
    if label is None:
        return None, None
    return LabelLink(label.relation, linker.min_score, "embedding", text=label.text, verbal=label.verbal), (s, o)


__all__ = [
    "TAXONOMIC",
    "belonging_link",
    "common_value",
    "resembled_label",
    "says_belonging",
    "says_no_relation",
    "shared_label",
    "valued_by",
    "valued_like",
]
