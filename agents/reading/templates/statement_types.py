"""The records the statement reader gives (statements, comparisons, readings) and how it chooses among readings."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from agents.reading.templates.sentence_split import Span
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.wording import listed_names, stated_year

Direction = Literal["most", "least"]


@dataclass(frozen=True, slots=True)
class Statement:
    """One atomic claim: `subject` `relation` `object` (surface strings as written), maybe negated."""

    text: str
    """The claim as a self-contained sentence."""
    span: Span | None
    """(start, end) of the claim in the response; None when it is composed from the query."""
    subject: str
    relation: str
    object: str
    negated: bool = False
    disjunctive: bool = False
    """One alternative of an either-or claim (a union's conditions): at least one of the statements
    with this subject and the same query condition holds, not necessarily this one."""
    past: bool = False
    """Read through a template put in the past tense ("Bonn was the capital of ..."): a unique value
    the KB holds now does not refute it."""


@dataclass(frozen=True, slots=True)
class ComparisonStatement:
    """A claim that `subject` has the most / least value of `relation` among `candidates`."""

    text: str
    span: Span | None
    subject: str
    relation: str
    direction: Direction
    candidates: tuple[str, ...] = ()
    """The compared entities: from the query ("Among A, B and C, which one ...?"), or the two of "A has a
    larger N than B"; () when neither names them."""
    year: int | None = None
    """The year the compared values are taken at ("in 1967"), when the sentence or the query names one."""

    def in_context(self, query: str) -> ComparisonStatement:
        """The comparison with the candidates and year the question names, where the sentence named none."""
        candidates = self.candidates or tuple(listed_names(query))
        return replace(self, candidates=candidates, year=self.year if self.year is not None else stated_year(query))


@dataclass(frozen=True, slots=True)
class ComparisonReading:
    """One way a sentence reads as a comparison: `subject` has the most / least (than `other`, if named)."""

    relation: str
    direction: Direction
    subject: str
    other: str | None = None


AnyStatement = Statement | ComparisonStatement
"""What the template reader gives: a statement or a comparison (the claims node makes `Claim`s of them)."""


@dataclass(frozen=True, slots=True)
class TemplateReading:
    """One way a sentence or clause reads through one template."""

    relation: str
    subject: str
    object: str
    negated: bool
    kind: str
    """positive, negative, antonym or question."""
    template: str


def claim_key(c: AnyStatement) -> tuple[object, ...]:
    """What makes two claims the same (case-insensitive surface strings)."""
    if isinstance(c, Statement):
        return ("s", c.relation, c.subject.casefold(), c.object.casefold(), c.negated)
    return ("c", c.relation, c.subject.casefold(), c.direction)


def unique(claims: Iterable[AnyStatement]) -> list[AnyStatement]:
    """Claims in order, without repeats; a repeated comparison that names the candidates lends them to the first."""
    out: dict[tuple[object, ...], AnyStatement] = {}
    for c in claims:
        key = claim_key(c)
        first = out.get(key)
        if first is None:
            out[key] = c
        elif isinstance(c, ComparisonStatement) and isinstance(first, ComparisonStatement) and not first.candidates:
            out[key] = replace(first, candidates=c.candidates)
    return list(out.values())


_NUMBER = re.compile(r"^[-+]?\d[\d,]*(?:\.\d+)?(?:\s*(?:thousand|million|billion))?$")
_YEAR = re.compile(r"^-?\d{1,4}(?:\s*(?:BC|BCE|AD|CE))?$")


def _kind_fits(kind: ValueKind, obj: str) -> bool:
    if kind == ValueKind.YEAR:
        return bool(_YEAR.match(obj))
    if kind == ValueKind.QUANTITY:
        return bool(_NUMBER.match(obj))
    return True


def disambiguate(found: list[tuple[int, TemplateReading]], catalog: Catalog) -> list[TemplateReading]:
    """The readings to keep of (template literal length, reading) pairs (`kb.statements`' ambiguity rules)."""
    kinds = {r.relation: catalog.get(r.relation).object_kind for _, r in found}
    fits = [(n, r) for n, r in found if _kind_fits(kinds[r.relation], r.object)]
    if any(kinds[r.relation] != ValueKind.ENTITY for _, r in fits):
        fits = [(n, r) for n, r in fits if kinds[r.relation] != ValueKind.ENTITY]
    if not fits:
        return []
    best = max(n for n, _ in fits)
    out: list[TemplateReading] = []
    seen: set[tuple[str, str, str, bool]] = set()
    for n, r in fits:
        key = (r.relation, r.subject, r.object, r.negated)
        if n == best and key not in seen:
            seen.add(key)
            out.append(r)
    return out


def merged(stated: Sequence[AnyStatement], composed: Sequence[AnyStatement]) -> list[AnyStatement]:
    """A response's stated claims with those its answer makes of the query (`kb.questions.compose`).

    The composed reading of a sentence replaces what the templates read there, in its place; an
    answer sentence that repeats a stated fact ("The answer is therefore 60,431,283.") stays a claim.
    """
    by_span = {c.span: c for c in composed if c.span is not None}
    found = unique([by_span.get(c.span, c) if c.span is not None else c for c in stated] + list(composed))
    spans = {c.span for c in found}
    return found + [c for c in composed if c.span is not None and c.span not in spans]


__all__ = [
    "AnyStatement",
    "ComparisonReading",
    "ComparisonStatement",
    "Direction",
    "Statement",
    "TemplateReading",
    "claim_key",
    "disambiguate",
    "merged",
    "unique",
]
