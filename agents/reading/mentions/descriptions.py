"""Descriptions of a KB entity through a relation ("the employer of X", "X's employer") resolved before reading.

A relation's declared noun phrase (`phrase = "the employer of {s}"`) names the object of the relation
for a subject. Where a sentence uses such a description of a name the KB knows as an argument (inside
another description or a preposition, as an object, or as the subject of a verb other than "be"; never
an apposition), and the KB stores exactly one
object of that relation for the name, the description is replaced by that object's label, so "The home
port of the employer of X is Y" is read as "The home port of Z is Y". Each replacement is a hop: the
fact it rests on is kept as a claim of its own, so the verdict shows the chain. A description that is
the sentence's predicate ("The employer of X is Y") is the claim itself and is left to the reader.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from agents.reading.mentions.finder import mentions
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind

MAX_HOPS = 3
"""Most descriptions resolved in one sentence (nested ones one after another)."""


@dataclass(frozen=True, slots=True)
class Hop:
    """A description resolved through the KB: `relation(subject) = value`."""

    subject: str
    relation: str
    value: str


def _forms(catalog: Catalog) -> list[tuple[str, re.Pattern[str], re.Pattern[str] | None]]:
    """(relation, "the X of " before a name, "'s X" after it) for each relation with a "... {s}" phrase."""
    out = []
    for rel in catalog:
        if not rel.phrase or not rel.phrase.endswith("{s}") or rel.object_kind != ValueKind.ENTITY:
            continue
        prefix = rel.phrase[: -len("{s}")]
        before = re.compile(rf"\b{re.escape(prefix.strip())}\s+(?:the\s+)?$", re.IGNORECASE)  # "of The Salt Lantern"
        noun = re.fullmatch(r"the (\w[\w ]*) of ", prefix)
        after = re.compile(rf"^['’]s\s+{re.escape(noun.group(1))}\b", re.IGNORECASE) if noun else None
        out.append((rel.name, before, after))
    return out


def resolve_descriptions(
    text: str,
    parse: Callable[[str], Any],
    known: Callable[[str], bool],
    catalog: Catalog,
    objects: Callable[[str, str], list[str]],
) -> tuple[str, list[Hop]]:
    """`text` with each argument description of a known name replaced by its one stored value, and the hops."""
    forms = _forms(catalog)
    hops: list[Hop] = []
    if not forms:
        return text, hops
    for _ in range(MAX_HOPS):
        doc = parse(text)
        found = _one(doc, text, known, forms, objects)
        if found is None:
            break
        (start, end), hop = found
        text = text[:start] + hop.value + text[end:]
        hops.append(hop)
    return text, hops


def _one(
    doc: Any,
    text: str,
    known: Callable[[str], bool],
    forms: list[tuple[str, re.Pattern[str], re.Pattern[str] | None]],
    objects: Callable[[str, str], list[str]],
) -> tuple[tuple[int, int], Hop] | None:
    for m in mentions(doc, known):
        if m.kind != ValueKind.ENTITY or not m.linked:
            continue
        first, last = doc[m.start], doc[m.end - 1]
        lo, hi = first.idx, last.idx + len(last.text)
        for relation, before, after in forms:
            span: tuple[int, int] | None = None
            if (b := before.search(text[:lo])) is not None:
                span = (b.start(), hi)
            elif after is not None and (a := after.match(text[hi:])) is not None:
                span = (lo, hi + a.end())
            if span is None or not _argument(doc, span):
                continue
            values = objects(m.text, relation)
            if len(values) == 1:
                return span, Hop(m.text, relation, values[0])
    return None


def _argument(doc: Any, span: tuple[int, int]) -> bool:
    """Whether the description at `span` is an argument, not the predicate of a sentence with "be"."""
    inside = [t for t in doc if span[0] <= t.idx < span[1]]
    if not inside:
        return False
    head = next((t for t in inside if t.head.idx < span[0] or t.head.idx >= span[1] or t.head == t), inside[0])
    if head.dep_ in ("pobj", "nsubjpass", "dobj"):
        return True
    return bool(head.dep_ == "nsubj" and head.head.lemma_ != "be")


__all__ = ["MAX_HOPS", "Hop", "resolve_descriptions"]
