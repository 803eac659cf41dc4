"""Catalog-phrased claims read back into triples: the exact first extractor of the verifier (pure).

Every relation of a catalog says how it is phrased (`positive`, `negative`, `antonyms`, `question`,
`phrase`; comparisons with `most` / `least`), and the generators write with exactly those templates,
so a `StatementReader` compiles each template once into a regex and reads sentences back through it.
Any KB's catalog works: nothing here names a relation.

Matching rules:
- `{s}` / `{o}` become named lazy groups of at most `MAX_ENTITY_CHARS` characters (bounded, so a long
  text without sentence ends stays linear: no catastrophic backtracking); the literal text is
  escaped, its spaces match any whitespace, its first letter matches either case ("the capital of"
  inside "Is it true that the capital of ..."); a final period and whitespace are optional.
- A sentence is matched whole. A leading connective ("So", "Therefore,", "Yes, because", a list
  bullet) is dropped before matching (the sentence as written is read only when the rest reads as
  nothing); a claim's span still points at its words in the response. A sentence ending in "?" is no
  statement.
- Ambiguity: a reading whose object is not a number is dropped for a year / quantity relation, and
  when a year / quantity reading remains, entity readings are dropped ("X was discovered in 1898":
  the year of discovery, not the country). Of the rest, only the readings of the template(s) with
  the longest literal text are kept ("X was a national of Y" is nationality, not the occupation
  "national of Y"; "X is not located in Y" is the negative template, not a positive one). All
  distinct readings are returned only when templates of different relations tie: identical
  templates (`in_period` / `in_group`) or inverse antonyms ("A lies outside B": located_in and
  contains).

Free text that matches no template gives no statement (spaCy and the extractor role handle it).
Query + answer composition ("Yes.", "Lyon", "The only X ... is Y") is in `kb.questions`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.sentence_split import Span, ends_in_abbreviation, fragments, is_question, titles_only
from drowzee_core.kb.template_regex import (
    ENTITY,
    MAX_ENTITY_CHARS,
    PLACEHOLDER,
    fix_object,
    literal_pattern,
    strip_lead,
    template_pattern,
)

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


@dataclass(frozen=True, slots=True)
class ComparisonStatement:
    """A claim that `subject` has the most / least value of `relation` among `candidates`."""

    text: str
    span: Span | None
    subject: str
    relation: str
    direction: Direction
    candidates: tuple[str, ...] = ()
    """The compared entities, from the query ("Among A, B and C, which one ...?"); () without one."""


Claim = Statement | ComparisonStatement


@dataclass(frozen=True, slots=True)
class Reading:
    """One way a sentence or clause reads through one template."""

    relation: str
    subject: str
    object: str
    negated: bool
    kind: str
    """positive, negative, antonym or question."""
    template: str


@dataclass(frozen=True, slots=True)
class _Template:
    relation: str
    kind: str
    negated: bool
    template: str
    regex: re.Pattern[str]
    literal: int
    probe: str


_STATEMENT_END = r"\s*[.!]?\s*"
_QUESTION_END = r"\s*\??\s*"
_AUX_TO = {"is": ("to be",), "are": ("to be",), "was": ("to have been", "to be"), "were": ("to have been", "to be")}
_AUX_TO |= {"does": ("to",), "do": ("to",), "did": ("to have", "to")}
_NUMBER = re.compile(r"^[-+]?\d[\d,]*(?:\.\d+)?(?:\s*(?:thousand|million|billion))?$")
_YEAR = re.compile(r"^-?\d{1,4}(?:\s*(?:BC|BCE|AD|CE))?$")


class StatementReader:
    """Reads sentences back into triples through a catalog's own templates."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self._statements: list[_Template] = []
        self._questions: list[_Template] = []
        for spec in catalog:
            kinds = [("positive", spec.positive, False), ("negative", spec.negative, True)]
            kinds += [("antonym", t, True) for t in spec.antonyms]
            numeric = spec.object_kind != ValueKind.ENTITY
            for kind, text, negated in kinds:
                self._statements.append(self._compile(spec.name, kind, negated, text, _STATEMENT_END, numeric))
            self._questions.append(self._compile(spec.name, "question", False, spec.question, _QUESTION_END, numeric))
        self.phrases: list[tuple[str, re.Pattern[str]]] = []
        """(relation, regex of its `phrase` with group s) for wh-questions and nested multi-hop phrases."""
        self.possible: list[tuple[str, re.Pattern[str]]] = []
        """(relation, regex of "Is it possible for {s} to be ...?") from `question` templates led by an auxiliary."""
        for spec in catalog:
            if spec.phrase is not None:
                self.phrases.append((spec.name, re.compile(template_pattern(spec.phrase, "")[0])))
            aux, _, rest = spec.question.strip().partition(" ")
            head = PLACEHOLDER.match(rest)
            for to in _AUX_TO.get(aux.lower(), ()) if head else ():
                text = f"Is it possible for {rest[: head.end()]} {to}{rest[head.end() :]}"  # type: ignore[union-attr]
                self.possible.append((spec.name, re.compile(template_pattern(text, _QUESTION_END)[0])))
        self._comparisons: list[tuple[str, Direction, re.Pattern[str]]] = []
        for cmp in catalog.comparisons:
            for direction, pred in (("most", cmp.most), ("least", cmp.least)):
                entity = ENTITY.format(name="s", n=MAX_ENTITY_CHARS)
                rx = re.compile(entity + r"\s+" + literal_pattern(pred.strip()) + _STATEMENT_END)
                self._comparisons.append((cmp.relation, "most" if direction == "most" else "least", rx))

    @staticmethod
    def _compile(relation: str, kind: str, negated: bool, text: str, end: str, numeric: bool) -> _Template:
        pattern, literal, probe = template_pattern(text, end, numeric)
        return _Template(relation, kind, negated, text, re.compile(pattern), literal, probe)

    # ------------------------------------------------------------------ readings
    def readings(self, clause: str, questions: bool = False) -> list[Reading]:
        """Every reading of one whole sentence or clause (the ambiguity rules of the module docstring).

        Args:
            clause: One sentence or clause, matched whole.
            questions: Read it through the `question` templates instead of the statement templates.

        """
        text = clause.strip()
        low = " ".join(text.lower().split())
        found: list[tuple[int, Reading]] = []
        for t in self._questions if questions else self._statements:
            if t.probe not in low:
                continue
            m = t.regex.fullmatch(text)
            if m is None:
                continue
            subject, obj = m.group("s").strip(), fix_object(m.group("o").strip())
            found.append((t.literal, Reading(t.relation, subject, obj, t.negated, t.kind, t.template)))
        return _disambiguate(found, self.catalog)

    def _lead_readings(self, sentence: str) -> tuple[int, list[Reading]]:
        """Readings of a sentence without its leading connective (and how much was cut), else as written."""
        cut = strip_lead(sentence)
        found = self.readings(sentence[cut:])
        if found or not cut:
            return cut, found
        found = self.readings(sentence)
        return (0, found) if found else (cut, [])

    def comparison_readings(self, sentence: str) -> list[tuple[str, Direction, str]]:
        """(relation, direction, subject) for a sentence "S <most / least predicate>." of the catalog."""
        out: list[tuple[str, Direction, str]] = []
        for relation, direction, rx in self._comparisons:
            m = rx.fullmatch(sentence.strip())
            if m is not None:
                out.append((relation, direction, m.group("s").strip()))
        return out

    # ------------------------------------------------------------------ sentences
    def sentences(self, text: str) -> list[tuple[Span, str]]:
        """Sentence spans of `text`.

        Splits after . ! ? and at line breaks, but joins abbreviations as `kb.sentence_split` says ("St.
        Louis", "Budapest XVIII. kerület", "Washington, D.C."); "3.5" never splits.
        """
        pieces = fragments(text)
        out: list[tuple[Span, str]] = []
        i = 0
        while i < len(pieces):
            start, end = pieces[i]
            while i + 1 < len(pieces) and self._joins(text[start:end], text[pieces[i + 1][0] : pieces[i + 1][1]]):
                i += 1
                end = pieces[i][1]
            out.append(((start, end), text[start:end]))
            i += 1
        return out

    def _joins(self, piece: str, following: str) -> bool:
        """Whether `piece` ends in an abbreviation that the `following` piece continues."""
        if titles_only(piece[strip_lead(piece) :]):
            return True
        return ends_in_abbreviation(piece) and not self._lead_readings(following)[1]

    def read(self, text: str) -> list[Claim]:
        """Every catalog-phrased statement of a response, with its span, in order and without repeats."""
        out: list[Claim] = []
        for (start, _end), sentence in self.sentences(text):
            if is_question(sentence):
                continue
            cut, found = self._lead_readings(sentence)
            body = sentence[cut:].strip()
            span = (start + cut, start + cut + len(body))
            out.extend(Statement(body, span, r.subject, r.relation, r.object, r.negated) for r in found)
            for relation, direction, subject in self.comparison_readings(body):
                out.append(ComparisonStatement(body, span, subject, relation, direction))
        return unique(out)

    def with_query(self, query: str, response: str) -> list[Claim]:
        """`read(response)` plus the statements that the response's answer makes of the query.

        See `kb.questions` for every query form (yes/no, wh, multi-hop, comparison, set operation).
        """
        # imported here: kb.questions builds on this module's reader
        from drowzee_core.kb.questions import compose

        stated = self.read(response)
        return unique([*stated, *compose(self, query, response, stated)])


def _kind_fits(kind: ValueKind, obj: str) -> bool:
    if kind == ValueKind.YEAR:
        return bool(_YEAR.match(obj))
    if kind == ValueKind.QUANTITY:
        return bool(_NUMBER.match(obj))
    return True


def _disambiguate(found: list[tuple[int, Reading]], catalog: Catalog) -> list[Reading]:
    kinds = {r.relation: catalog.get(r.relation).object_kind for _, r in found}
    fits = [(n, r) for n, r in found if _kind_fits(kinds[r.relation], r.object)]
    if any(kinds[r.relation] != ValueKind.ENTITY for _, r in fits):
        fits = [(n, r) for n, r in fits if kinds[r.relation] != ValueKind.ENTITY]
    if not fits:
        return []
    best = max(n for n, _ in fits)
    out: list[Reading] = []
    seen: set[tuple[str, str, str, bool]] = set()
    for n, r in fits:
        key = (r.relation, r.subject, r.object, r.negated)
        if n == best and key not in seen:
            seen.add(key)
            out.append(r)
    return out


def claim_key(c: Claim) -> tuple[object, ...]:
    """What makes two claims the same (case-insensitive surface strings)."""
    if isinstance(c, Statement):
        return ("s", c.relation, c.subject.casefold(), c.object.casefold(), c.negated)
    return ("c", c.relation, c.subject.casefold(), c.direction)


def unique(claims: Iterable[Claim]) -> list[Claim]:
    """Claims in order, without repeats; a repeated comparison that names the candidates lends them to the first."""
    out: dict[tuple[object, ...], Claim] = {}
    for c in claims:
        key = claim_key(c)
        first = out.get(key)
        if first is None:
            out[key] = c
        elif isinstance(c, ComparisonStatement) and isinstance(first, ComparisonStatement) and not first.candidates:
            out[key] = replace(first, candidates=c.candidates)
    return list(out.values())


__all__ = [
    "Claim",
    "ComparisonStatement",
    "Direction",
    "Reading",
    "Statement",
    "StatementReader",
    "claim_key",
    "unique",
]
