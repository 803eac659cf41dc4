"""The year relation that dates another relation's events, read from the two declarations (pure).

Some facts are events the KB stores undated, with their year as a fact of another relation: "{s} was
proved by {o}" and "{s} was proved in {o}" (a year); "{s} was born in {o}" (a place) and "{s} was born in
{o}" (a year). A claim that puts such an event at a year ("X proved Y in 1994") says two facts: the event,
and its year by the year relation. Which relation dates which is read from the templates, never written
per relation: the two positive templates say the subject first and the same words up to the object's
preposition ("was proved" / "was proved"), the year relation's object is a year, and the other's is not.
A relation with no such partner, or with two, has none.
"""

from __future__ import annotations

from functools import cache

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import RelationSpec, ValueKind

_SUBJECT = "{s} "
_OBJECT = " {o}"


def verb_words(spec: RelationSpec) -> tuple[str, ...] | None:
    """The words a positive template says between its subject and its object's preposition, or None.

    "{s} was proved by {o}." -> ("was", "proved"); "{s} died in {o}." -> ("died",). None where the
    template does not open with the subject, has no object right after a preposition, or says the object
    first ("The capital of {s} is {o}").
    """
    text = spec.positive.strip().rstrip(".").strip()
    if not text.startswith(_SUBJECT) or not text.endswith(_OBJECT):
        return None
    words = text[len(_SUBJECT) : -len(_OBJECT)].lower().split()
    if len(words) < 2 or "{o}" in words:
        return None
    return tuple(words[:-1])  # the last word is the object's preposition ("by", "in", "at")


@cache  # a catalog is immutable and hashed by identity
def _dating(catalog: Catalog) -> dict[str, str]:
    years: dict[tuple[str, ...], list[str]] = {}
    for spec in catalog:
        words = verb_words(spec)
        if words is not None and spec.object_kind == ValueKind.YEAR:
            years.setdefault(words, []).append(spec.name)
    out: dict[str, str] = {}
    for spec in catalog:
        words = verb_words(spec)
        if words is None or spec.object_kind != ValueKind.ENTITY:
            continue
        partners = years.get(words, [])
        if len(partners) == 1:
            out[spec.name] = partners[0]
    return out


def year_relation_of(catalog: Catalog, relation: str) -> str | None:
    """The year relation that dates `relation`'s facts (module doc), or None."""
    return _dating(catalog).get(relation)


__all__ = ["verb_words", "year_relation_of"]
