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

Answers word templates in other ways (past tense, possessives, "had the highest ...", "a higher ...
than ..."): `kb.wording` derives those forms from the templates, and the reader reads a list clause by
clause and a leading pronoun as the previous subject. The records it gives are in `kb.statement_types`.

Free text that matches no template gives no statement (spaCy and the extractor role handle it).
Query + answer composition ("Yes.", "Lyon", "The only X ... is Y") is in `kb.questions`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace

from agents.reading.templates.sentence_split import Span, ends_in_abbreviation, fragments, is_question, titles_only
from agents.reading.templates.statement_types import (
    AnyStatement,
    ComparisonReading,
    ComparisonStatement,
    Direction,
    Statement,
    TemplateReading,
    disambiguate,
    unique,
)
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.template_regex import (
    PLACEHOLDER,
    fix_object,
    strip_lead,
    template_pattern,
    template_shape,
)
from drowzee_core.kb.wording import (
    RELATIVE_CLAUSE,
    clauses,
    clean_name,
    comparative,
    first_named,
    joins_clauses,
    noun_comparatives,
    noun_templates,
    phrase_templates,
    resolve_pronoun,
    stated_year,
    superlatives,
    with_past,
)


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
_PROBE_GUARD = 8
"""A template literal this long found inside a reading's subject or object means the reading spans clauses."""
_COMPARISON_TAIL = (
    r"(?:,?\s+(?:in|as\s+of|during|from)\s+\d{3,4})?(?:\s+among\s+[^\n]{1,300}?)?(?:,?\s+in\s+\d{3,4})?"
    r"(?:,\s+(?:with|which|while|whereas|compared|as|by|making)\b[^\n]{0,300}?)?" + _STATEMENT_END
)
"""What may follow a comparison: its year, "among ..." and a trailing clause (", with a population of ...")."""
_QUESTION_END = r"\s*\??\s*"
_AUX_TO = {"is": ("to be",), "are": ("to be",), "was": ("to have been", "to be"), "were": ("to have been", "to be")}
_AUX_TO |= {"does": ("to",), "do": ("to",), "did": ("to have", "to")}


class StatementReader:
    """Reads sentences back into triples through a catalog's own templates."""

    def __init__(self, catalog: Catalog, hops: Callable[[str, str], list[str]] | None = None) -> None:
        self.catalog = catalog
        self.hops = hops
        """The KB's objects of (name, relation), for a multi-hop question whose answer states no chain."""
        self._statements: list[_Template] = []
        self.past_templates: set[str] = set()
        """Templates put in the past tense here ("was the capital of"): what they say may have changed since."""
        self._questions: list[_Template] = []
        worded = {template_shape(t) for spec in catalog for t in (spec.positive, spec.negative, *spec.antonyms)}
        for spec in catalog:
            numeric = spec.object_kind != ValueKind.ENTITY
            kinds = [("positive", t, False) for t in with_past([spec.positive])]
            kinds += [("positive", t, False) for t in noun_templates(spec.phrase) if numeric]
            phrased = [
                t for t in phrase_templates(spec.phrase) if t == spec.positive or template_shape(t) not in worded
            ]
            kinds += [("positive", t, False) for t in with_past(phrased)]  # unless another template says it
            kinds += [("negative", t, True) for t in with_past([spec.negative])]
            kinds += [("antonym", t, True) for t in with_past(list(spec.antonyms))]
            own = {spec.positive, spec.negative, *spec.antonyms, *noun_templates(spec.phrase)[:2]}
            own |= set(phrase_templates(spec.phrase))
            self.past_templates |= {t for _, t, _ in kinds if t not in own}
            for kind, text, negated in dict.fromkeys(kinds):
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
            phrase = catalog.get(cmp.relation).phrase
            for direction, pred in (("most", cmp.most), ("least", cmp.least)):
                way: Direction = "most" if direction == "most" else "least"
                said = [f"{{s}} {t}" for t in (*superlatives(pred), *comparative(pred))]
                for text in (*said, *noun_comparatives(pred, phrase)):
                    rx = re.compile(template_pattern(text, _COMPARISON_TAIL)[0])
                    self._comparisons.append((cmp.relation, way, rx))

    @staticmethod
    def _compile(relation: str, kind: str, negated: bool, text: str, end: str, numeric: bool) -> _Template:
        pattern, literal, probe = template_pattern(text, end, numeric)
        return _Template(relation, kind, negated, text, re.compile(pattern), literal, probe)

    # ------------------------------------------------------------------ readings
    def readings(self, clause: str, questions: bool = False) -> list[TemplateReading]:
        """Every reading of one whole sentence or clause (the ambiguity rules of the module docstring).

        Args:
            clause: One sentence or clause, matched whole.
            questions: Read it through the `question` templates instead of the statement templates.

        """
        text = clause.strip()
        low = " ".join(text.lower().split())
        found: list[tuple[int, TemplateReading]] = []
        for t in self._questions if questions else self._statements:
            if t.probe not in low:
                continue
            m = t.regex.fullmatch(text)
            if m is None:
                continue
            subject, obj = clean_name(m.group("s")), clean_name(fix_object(m.group("o").strip()))
            if len(t.probe) >= _PROBE_GUARD and (t.probe in subject.lower() or t.probe in obj.lower()):
                continue  # "A had a population of 3, B had a population of" is no subject
            if joins_clauses(subject) or joins_clauses(obj):
                continue  # "X was born in 1564 and" is no subject: a name never starts or ends with "and"
            found.append((t.literal, TemplateReading(t.relation, subject, obj, t.negated, t.kind, t.template)))
        return disambiguate(found, self.catalog)

    def _lead_readings(self, sentence: str) -> tuple[int, list[TemplateReading]]:
        """Readings of a sentence without its leading connective (and how much was cut), else as written."""
        cut = strip_lead(sentence)
        found = self.readings(sentence[cut:])
        if found or not cut:
            return cut, found
        found = self.readings(sentence)
        return (0, found) if found else (cut, [])

    def comparison_readings(self, sentence: str) -> list[ComparisonReading]:
        """Readings of a superlative, a comparative or a comparison of noun phrases (`kb.wording`).

        "S <most / least predicate> [in YEAR].", "S <comparative> than O." and "The N of S is
        <comparative> than the N of O."; O may be a list ("Uruguay and Spain").
        """
        out: list[ComparisonReading] = []
        plain = sentence.replace("*", "").strip()  # "is *smaller* than"
        for relation, direction, rx in self._comparisons:
            m = rx.fullmatch(plain)
            if m is not None:
                other = clean_name(m.group("o")) if "o" in rx.groupindex else None
                out.append(ComparisonReading(relation, direction, clean_name(m.group("s")), other))
        return list(dict.fromkeys(out))

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

    def read(self, text: str, topic: str | None = None) -> list[AnyStatement]:
        """Every catalog-phrased statement of a response, with its span, in order and without repeats.

        A sentence that reads as nothing whole is read clause by clause ("Norway had a population of
        3,784,539, East Timor had a population of 568,447, and ..."), when every clause reads (a
        trailing "which ..." / "making ..." clause aside). A sentence led by a pronoun ("Its
        population was ...", "It was founded in ...") is read with the previous statement's subject
        in its place; its claim is that self-contained sentence, spanning the sentence as written. The
        first sentence's pronoun is `topic`, the name the query asks about, where the caller knows one.
        """
        out: list[AnyStatement] = []
        last: str | None = topic
        for (start, _end), sentence in self.sentences(text):
            if is_question(sentence):
                continue
            found = self._clause_statements(sentence, start)
            # a leading pronoun is the previous sentence's first name (also where a template read "It" as a name)
            resolved = resolve_pronoun(sentence, last) if last else None
            if resolved is not None:
                span = (start + strip_lead(sentence), start + len(sentence.rstrip()))
                found = [replace(c, span=span) for c in self._clause_statements(resolved, start)] or found
            out.extend(found)
            said = resolved if resolved is not None else sentence  # "It was ...": the name it stands for is first
            last = first_named(said, found[0].subject, getattr(found[0], "object", None)) if found else last
        return unique(out)

    def _clause_statements(self, sentence: str, start: int) -> list[AnyStatement]:
        """The sentence's statements, whole or clause by clause (see `read`)."""
        found = self._statements_of(sentence, start)
        if found:
            return found
        parts = clauses(sentence, start)
        if len(parts) < 2:
            return []
        kept = parts[:1] + [(at, p) for at, p in parts[1:] if not RELATIVE_CLAUSE.match(p)]
        read = [self._statements_of(part, at) for at, part in kept]
        return [st for r in read for st in r] if all(read) else []

    def _statements_of(self, sentence: str, start: int) -> list[AnyStatement]:
        """The statements and comparisons one sentence or clause (at offset `start`) reads as."""
        cut, found = self._lead_readings(sentence)
        body = sentence[cut:].strip()
        span = (start + cut, start + cut + len(body))
        out: list[AnyStatement] = [
            Statement(body, span, r.subject, r.relation, r.object, r.negated, past=r.template in self.past_templates)
            for r in found
        ]
        for c in self.comparison_readings(body):
            names = (c.subject, c.other) if c.other else ()
            out.append(ComparisonStatement(body, span, c.subject, c.relation, c.direction, names, stated_year(body)))
        return out


__all__ = ["StatementReader"]
