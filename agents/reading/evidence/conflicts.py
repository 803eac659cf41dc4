"""Conflicts between a claim and evidence sentences (pure, over spaCy parses): rival values and polarity.

- a *value* conflict: an aligned sentence holds one of the claim's anchors and the predicate of a
  claim value's frame (`agents.reading.evidence.roles`) with another value of the same type in that role,
  while the claim's value is stated in its frame nowhere;
- a *polarity* conflict (`agents.reading.evidence.polarity`): what the claim negates is affirmed, or the reverse.

`stated` is also what support counts: a name or number stated in its frame, with an anchor.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agents.reading.evidence.matching import Related, found_in, name_in, overlaps, same_value
from agents.reading.evidence.roles import (
    MODIFIER,
    SUBJECT,
    Frame,
    copular_subject,
    fillers,
    frame,
    heads_like,
    modifiers,
)
from agents.reading.evidence.sentences import PRONOUNS, Sentence, definite_description
from agents.reading.evidence.units import Unit, UnitKind

PLACE = frozenset({"GPE", "LOC", "FAC"})


@dataclass(frozen=True, slots=True)
class Conflict:
    """A value of the evidence that contradicts the claim's."""

    claimed: str
    found: str
    sentence_id: str
    kind: str
    """"value" (another name or number in the predicate's place), "polarity" or "comparison"."""


AGENTS = frozenset({"PERSON", "ORG", "NORP"})
"""Names that may do things: in a subject role one rivals another ("designed by a firm", "by a person")."""


def _rivals(claimed: str, found: str, role: str) -> bool:
    """Whether a value of type `found` can stand where the claim has one of type `claimed`."""
    return claimed == found or (role == SUBJECT and claimed in AGENTS and found in AGENTS)


def _type_class(unit: Unit) -> str:
    if unit.kind == UnitKind.NUMBER:  # a month's label is MONTH: it rivals only another month
        return "YEAR" if unit.label == "DATE" and len(unit.key) == 4 else unit.label
    return "PLACE" if unit.label in PLACE else unit.label


def _predicate(doc: Any, unit: Unit) -> Any | None:
    """The verb or noun a unit of the claim is an argument of (the first content word up its head chain)."""
    tok = value_root(doc, unit)
    seen = 0
    while tok.head.i != tok.i and seen < 6:
        tok = tok.head
        seen += 1
        if tok.pos_ in ("VERB", "NOUN", "ADJ") and not tok.is_stop:
            return tok
    return None


def anchors_of(units: Sequence[Unit], but: Unit | None = None) -> list[Unit]:
    """What a claim is about: its names, numbers and nouns (given or not), other than `but`."""
    return [v for v in units if v is not but and (v.kind != UnitKind.WORD or v.label in ("NOUN", "PROPN"))]


def frame_of(claim: Any, u: Unit) -> Frame | None:
    """A claim unit's frame (`agents.reading.evidence.roles`): a name's verb, or the noun a number counts or measures.

    A name's frame under a noun ("Iron's atomic number") is not checked: evidence names the owner of a
    relational noun in too many ways.
    """
    root = value_root(claim, u)
    subject = copular_subject(root)
    if u.kind == UnitKind.NUMBER and subject is not None and subject.pos_ == "NOUN":  # "its atomic number is 26"
        return Frame(subject.lemma_.lower(), modifiers(subject), MODIFIER)
    pred = _predicate(claim, u)
    if pred is None or (u.kind == UnitKind.NAME and pred.pos_ != "VERB"):
        return None
    return frame(root, pred)


def value_root(doc: Any, u: Unit) -> Any:
    """The root of the phrase a unit stands in: a number with its unit of measure ("410 metres" -> metres)."""
    t = doc[u.start : u.end].root
    while t.head.i != t.i and t.ent_type_ and t.head.ent_type_ == t.ent_type_ and t.head.ent_iob_ == "I":
        t = t.head
    return t


NAMING_DEPS = frozenset({"pobj", "prep", "compound", "flat", "appos"})
"""Links from a name up to the noun it names ("the city of Paris", "the river Thames")."""


def _holds(root: Any, doc: Any, v: Unit) -> bool:
    """Whether an argument's root token is the unit, or the noun the unit names ("the city of Paris")."""
    if v.start <= root.i < v.end:
        return True
    t = value_root(doc, v)
    if t.i == root.i:
        return True
    for _ in range(3):
        in_date = t.ent_type_ == "DATE" and t.head.ent_type_ == "DATE"  # the year of "in March 1889" is the date's
        if t.head.i == t.i or (t.dep_ not in NAMING_DEPS and not in_date):  # "2 eggs": a count does not name it
            return False
        t = t.head
        if t.i == root.i:
            return True
    return False


def in_frame(u: Unit, f: Frame, s: Sentence, related: Related) -> bool | None:
    """Whether the sentence states the unit in its frame (None: it lacks the frame's predicate).

    False when the sentence has the predicate with the unit elsewhere or not at all; with no predicate,
    only co-location can tell.
    """
    heads = heads_like(s.doc, f, related)
    if not heads:
        return None
    occurrences = [v for v in s.units if same_value(u, v, related)]
    # named only before (in the sentence's context), it may speak of it as "she" or "the firm"
    named_before = u.kind == UnitKind.NAME and not occurrences and name_in(u, s)

    def fills(r: Any) -> bool:
        return any(_holds(r, s.doc, v) for v in occurrences) or (
            named_before and (r.lower_ in PRONOUNS or definite_description(r))
        )

    return any(role == f.role and fills(r) for h in heads for role, r in fillers(h))


def stated(
    u: Unit,
    s: Sentence,
    anchors: Sequence[Unit],
    related: Related,
    f: Frame | None = None,
    near: Sequence[Sentence] = (),
) -> bool:
    """Whether a sentence states a unit, with something else the claim is about (if it has more).

    The other thing may stand in the sentence or in a sentence `near` it (its neighbours in the
    evidence: the same passage). When the sentence has the frame's predicate, the unit must fill the frame's role there.
    """
    if not found_in(u, s, related):
        return False
    if f is not None and in_frame(u, f, s, related) is False:
        return False
    return not anchors or about(s, anchors, related, near)


def about(s: Sentence, anchors: Sequence[Unit], related: Related, near: Sequence[Sentence]) -> bool:
    """Whether a sentence is about one of the anchors.

    It holds one, or a neighbour in its passage does and one of the two continues the other (comes
    right after it and speaks of it: "It was raised in 1911", "The group toured ..."). In "X has 3
    moons. Y has 2 moons." the second is about Y only.
    """
    if any(found_in(v, s, related) for v in anchors):
        return True

    def continued(a: Sentence, b: Sentence) -> bool:
        return b.position == a.position + 1 and b.refers

    return any(any(found_in(v, t, related) for v in anchors) and (continued(t, s) or continued(s, t)) for t in near)


def conflicts(
    claim: Any,
    units: Sequence[Unit],
    aligned: Sequence[Sentence],
    sentences: Sequence[Sentence],
    context: Sequence[Unit],
    related: Related,
    near: dict[str, list[Sentence]] | None = None,
    heads: Related | None = None,
) -> Conflict | None:
    """Another value in the claim's value's frame: same predicate, same role, same type, about the same anchor.

    `context` are the query's names (anchors of a short answer). A value the evidence states in its
    frame elsewhere, with one of the claim's anchors, is not contradicted. `heads` relates the
    predicates that count as the same (default `related`): a refutation needs the predicate's own
    sense, where support may take any of its senses ("write" can mean "publish", but a book written
    in one year and published in another is no conflict).
    """
    claimed = {v.key for v in units} | {v.key for v in context}
    hood = near or {}
    for u in units:
        if u.kind == UnitKind.WORD or u.given:
            continue
        f = frame_of(claim, u)
        if f is None:
            continue
        anchors = [
            v
            for v in (*anchors_of(units, u), *context)
            if v.key != u.key and (v.kind != UnitKind.WORD or v.key != f.lemma)
        ]
        if not anchors or any(stated(u, t, anchors, related, f, hood.get(t.id, ())) for t in sentences):
            continue
        cls = _type_class(u)
        for s in aligned:
            if not about(s, anchors, related, hood.get(s.id, ())):
                continue
            for h in heads_like(s.doc, f, heads or related):
                for role, r in fillers(h):
                    if role != f.role:
                        continue
                    for rival in s.units:
                        if (
                            rival.kind == UnitKind.WORD
                            or not _rivals(cls, _type_class(rival), role)
                            or rival.key in claimed
                        ):
                            continue
                        if (
                            overlaps(rival, u)
                            or any(rival.key in v.key or v.key in rival.key for v in context)
                            or same_value(u, rival, related)
                        ):
                            continue
                        if _holds(r, s.doc, rival):
                            return Conflict(u.text, rival.text, s.id, "value")
    return None


def denial(doc: Any) -> Any | None:
    """The negation of a sentence's main clause ("X was not from Y": "not"), or None.

    "not only ... but" and negations inside a relative or adverbial clause do not deny the sentence.
    """
    for t in doc:
        if not (t.dep_ == "neg" or t.lower_ in ("never", "neither", "nor")):
            continue
        nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
        if nxt is not None and nxt.lower_ in ("only", "just", "merely", "simply"):
            continue
        head = t.head
        if head.dep_ in ("ROOT", "conj", "ccomp") or head.head.dep_ == "ROOT":
            return t
    return None


__all__ = [
    "NAMING_DEPS",
    "Conflict",
    "about",
    "anchors_of",
    "conflicts",
    "denial",
    "frame_of",
    "in_frame",
    "stated",
    "value_root",
]
