"""Claims a response makes only together with its query (pure): a short answer becomes a statement.

`compose(reader, query, response, stated)` reads the query through the catalog and combines it with
the response's answer; `stated` is what `StatementReader.read(response)` found already. Query forms:

- yes/no: the relation's `question` template, "Is it true that {statement}?", "Is it possible that
  {statement}?", "{statement}. Please judge the truth of this statement." and "Is it possible for
  {s} to be / to <verb> ...?" (derived from the `question` template). A "Yes" answer (as
  `records.answer_text.parse_answer` reads it) claims the statement, "No" its negation; "Yes, because
  ..." keeps its reason sentences through `read`.
- wh: "What is {phrase}?" with the relation's `phrase`, nested for multi-hop ("the area of the place
  where X is located"). The answer is a sentence "[So] {phrase} is Y." or a short answer ("Lyon").
  A nested phrase's last hop is composed only when the response states every intermediate entity
  (its chain of statements from the named entity); otherwise it gives no statement.
- comparison: "Among A, B and C, which one {most | least}?" (or "Which of A, B and C ...?"), answered
  by "C {most}." or a short answer: a `ComparisonStatement` with the candidates.
- set operation: "What are all X such that {cond} and / or / but not {cond}?" answered by "The only
  X that meets the given criteria is Y." / "The X that meet the given criteria are Y and Z." (or a
  bare list): each answer entity put in place of X in each condition (negated for "but not"; for
  "or" each statement is `disjunctive`).

An abstention ("I don't know.", "I'm not sure.", "It is unknown.", "No idea.") composes nothing.
A composed statement's `span` is None: its words come from the query. Names in a list are split at
", " and the last " and "; where a name itself holds " and " ("Bosnia and Herzegovina"), the split
that names entities the response states is taken, else the last " and ".
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import replace

from agents.reading.templates.answer_lists import abstains, split_answer_names
from agents.reading.templates.set_questions import SET_QUERY, member_statements, read_set_answer
from agents.reading.templates.statement_types import (
    AnyStatement,
    ComparisonStatement,
    Direction,
    Statement,
    TemplateReading,
    merged,
)
from agents.reading.templates.statements import StatementReader
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.template_regex import MAX_ENTITY_CHARS, fill, literal_pattern, strip_lead
from drowzee_core.kb.wording import clean_name
from drowzee_core.records.answer_text import parse_answer

SHORT_WORDS = 8
"""A short answer ("Lyon", "It is Lyon.") has at most this many words."""
MAX_HOPS = 6

_FLAGS = re.IGNORECASE | re.DOTALL
_TRUE_THAT = re.compile(r"\s*is\s+it\s+(?:true|possible|the\s+case)\s+that\s+(?P<c>.+?)\s*\??\s*", _FLAGS)
_JUDGE = re.compile(r"\s*(?P<c>.+?)\s*[.!]?\s*please\s+judge\s+the\s+truth\s+of\s+this\s+statement\s*[.!]?\s*", _FLAGS)
_WHAT = re.compile(r"\s*what\s+is\s+(?P<p>.+?)\s*\?\s*", _FLAGS)
_AMONG = re.compile(
    r"\s*(?:among\s+(?P<a>.+?),\s*which(?:\s+one)?|which(?:\s+one)?\s+of\s+(?P<b>.+?))\s+(?P<pred>[^,]+?)\s*\?\s*",
    _FLAGS,
)
_ANSWER_IS = re.compile(r"the\s+answer\s+(?:is|was)\s+(?P<o>[^.!?]+?)\s*[.!]?\s*", re.IGNORECASE)
_COPULA = re.compile(r"\s(?:is|are|was|were)\s", re.IGNORECASE)
_SHORT_LEAD = re.compile(r"(?:it\s+is|it's|the\s+answer\s+is|that\s+is|that\s+would\s+be)\s+", re.IGNORECASE)
_PHRASE_LEAD = re.compile(r"(?:in|on|at|from|by|during)\s+(?=\S)", re.IGNORECASE)
"""A short answer said as a phrase of place, time or agent ("In 1588.", "By Tolstoy."): its object is the answer."""


def compose(reader: StatementReader, query: str, response: str, stated: Sequence[AnyStatement]) -> list[AnyStatement]:
    """The claims that the response's answer makes of the query (module docstring); [] for other queries."""
    if SET_QUERY.fullmatch(query):
        listed = read_set_answer(reader, query, response)
        return list(member_statements(reader.catalog, listed)) if listed else []
    if m := _AMONG.fullmatch(query):
        return _comparison(reader, m.group("a") or m.group("b"), m.group("pred"), response, stated)
    if m := _WHAT.fullmatch(query):
        return _wh(reader, m.group("p"), response, stated)
    found = yes_no_readings(reader, query)
    if not found:
        return []
    label = parse_answer(response).label
    if label not in ("yes", "no"):
        return []
    out: list[AnyStatement] = []
    for r in found:
        negated = r.negated != (label == "no")
        out.append(_statement(reader.catalog, r.subject, r.relation, r.object, negated))
    return out


class QueryReader(StatementReader):
    """A `StatementReader` that also reads what a response's answer says of its query (this module's forms)."""

    def with_query(self, query: str, response: str, topic: str | None = None) -> list[AnyStatement]:
        """`read(response, topic)` plus the statements that the response's answer makes of the query."""
        stated = self.read(response, topic)
        found = merged(stated, compose(self, query, response, stated))
        return [c.in_context(query) if isinstance(c, ComparisonStatement) else c for c in found]


def yes_no_readings(reader: StatementReader, query: str) -> list[TemplateReading]:
    """What a yes/no question asks, as readings (a "Yes" claims them); [] when it is no such question."""
    for rx in (_TRUE_THAT, _JUDGE):
        if m := rx.fullmatch(query):
            return reader.readings(m.group("c"))
    for relation, pattern in reader.possible:
        if m := pattern.fullmatch(query):
            return [
                TemplateReading(
                    relation, m.group("s").strip(), m.group("o").strip(), False, "question", pattern.pattern
                )
            ]
    return reader.readings(query, questions=True)


def _statement(catalog: Catalog, s: str, relation: str, o: str, negated: bool, disjunctive: bool = False) -> Statement:
    spec = catalog.get(relation)
    text = fill(spec.negative if negated else spec.positive, s, o)
    return Statement(text, None, s, relation, o, negated, disjunctive)


def _short_answer(reader: StatementReader, response: str, whole: bool = True) -> str | None:
    """The response's first sentence as a bare answer ("Lyon.", "It is Lyon."), if it reads as no statement.

    With `whole`, the response must be that one sentence.
    """
    sentences = reader.sentences(response)
    if not sentences or (whole and len(sentences) > 1):
        return None
    text = sentences[0][1].strip()
    if reader.readings(text) or reader.comparison_readings(text) or abstains(text):
        return None
    text = text[strip_lead(text) :]
    if m := _SHORT_LEAD.match(text):
        text = text[m.end() :]
    if m := _PHRASE_LEAD.match(text):
        text = text[m.end() :]
    text = text.strip().rstrip(".!").strip()
    if _COPULA.search(text.split(",")[0]):
        return None  # "The time zone of Norland is X": a statement the templates did not read, no bare answer
    return text if text and len(text.split()) <= SHORT_WORDS and len(text) <= MAX_ENTITY_CHARS else None


# ---------------------------------------------------------------------- wh and multi-hop
def nested_chains(reader: StatementReader, phrase: str, depth: int = 0) -> list[tuple[str, tuple[str, ...]]]:
    """(named entity, relations from the innermost hop out) for each deepest reading of a nested phrase."""
    if depth >= MAX_HOPS:
        return []
    out: list[tuple[str, tuple[str, ...]]] = []
    for relation, rx in reader.phrases:
        m = rx.fullmatch(phrase.strip())
        if m is None:
            continue
        inner = m.group("s").strip()
        deeper = nested_chains(reader, inner, depth + 1)
        out += [(base, (*rels, relation)) for base, rels in deeper] or [(inner, (relation,))]
    longest = max((len(rels) for _, rels in out), default=0)
    return [c for c in out if len(c[1]) == longest]


def _wh(reader: StatementReader, phrase: str, response: str, stated: Sequence[AnyStatement]) -> list[AnyStatement]:
    chains = nested_chains(reader, phrase)
    if not chains:
        return []
    answer_rx = re.compile(
        literal_pattern(phrase.strip(), first=True) + r"\s+(?:is|was|are|were)\s+(?P<o>.+?)\s*[.!]?\s*"
    )
    answer: str | None = None
    span: tuple[int, int] | None = None
    short = True
    for rx in (answer_rx, _ANSWER_IS):  # "<the phrase> is X", else "The answer is X" anywhere
        for (start, _end), sentence in reader.sentences(response):
            cut = strip_lead(sentence)
            if answer is None and (m := rx.fullmatch(sentence[cut:])):
                answer, span, short = (
                    clean_name(m.group("o")),
                    (start + cut, start + len(sentence.rstrip())),
                    rx is _ANSWER_IS,
                )
    if answer is None:  # the first sentence, if it is a bare answer ("It's 17,486. <more facts>")
        answer = _short_answer(reader, response, whole=False)
        answer = clean_name(answer) if answer is not None else None
        if answer is not None and len(sentences := reader.sentences(response)) > 1:
            start = sentences[0][0][0]
            span = (start, start + len(sentences[0][1].rstrip()))
    if answer is None:
        return []
    facts = [c for c in stated if isinstance(c, Statement) and not c.negated]
    for base, relations in chains:
        if short and _restates(base, answer):
            continue  # "Oslo is Norway's capital": a sentence about the asked entity, not a bare answer
        cur, via = _follow(facts, base, relations[:-1]), ""
        if cur is None and reader.hops is not None:
            cur, via = _follow_kb(reader, base, relations)
        if cur is not None:
            made = _statement(reader.catalog, cur, relations[-1], answer, False)
            text = response[span[0] : span[1]] if span and not short and not via else made.text
            if span is not None and short and not via:  # "The answer is X": the question's own words, answered
                text = f"{phrase.strip()[:1].upper()}{phrase.strip()[1:]} is {answer}."
            if span is not None and len(reader.sentences(response)) == 1:
                span = None  # the whole response is the short answer: the claim is the composed statement
            return [Statement(f"{via}{text}", span, made.subject, made.relation, made.object)]
    return []


def _follow_kb(reader: StatementReader, base: str, relations: Sequence[str]) -> tuple[str | None, str]:
    """The entity the KB's stored facts reach from `base` through all but the last relation, and those facts.

    The facts come as sentences. Each hop must reach exactly one entity that has a stored fact of the
    next relation ("the currency of the place where Lyon is located": France, not the region Lyon also
    lies in). A name the KB has under several readings that lead to different such places ("the place
    where Burlington is located") composes nothing.
    """
    hops = reader.hops
    assert hops is not None
    cur, said = base, []
    for relation, following in itertools.pairwise(relations):
        found = [x for x in hops(cur, relation) if hops(x, following)]
        if len(found) != 1:
            return None, ""
        said.append(_statement(reader.catalog, cur, relation, found[0], False).text)
        cur = found[0]
    return cur, " ".join(said) + " " if said else ""


def _restates(name: str, answer: str) -> bool:
    """Whether a short answer names the entity the question asks about (then it is a statement of its own)."""
    name = name.strip()
    return bool(name) and re.search(rf"(?<!\w){re.escape(name)}(?!\w)", answer, re.IGNORECASE) is not None


def _follow(facts: Sequence[Statement], base: str, relations: Sequence[str]) -> str | None:
    """The entity that the stated facts reach from `base` through `relations` (None where one is unstated)."""
    cur = base
    for relation in relations:
        nxt = [c.object for c in facts if c.relation == relation and c.subject.casefold() == cur.casefold()]
        if not nxt:
            return None
        cur = nxt[0]
    return cur


# ---------------------------------------------------------------------- comparison
def _comparison(
    reader: StatementReader, names: str, pred: str, response: str, stated: Sequence[AnyStatement]
) -> list[AnyStatement]:
    preds: dict[str, tuple[str, Direction]] = {}
    for cmp in reader.catalog.comparisons:
        preds[cmp.most.strip().casefold()] = (cmp.relation, "most")
        preds[cmp.least.strip().casefold()] = (cmp.relation, "least")
    hit = preds.get(" ".join(pred.split()).casefold())
    if hit is None:  # "Which of A, B and C <pred>?": the names end where a known predicate starts
        whole = " ".join(f"{names} {pred}".split())
        end = max((p for p in preds if whole.casefold().endswith(" " + p)), key=len, default="")
        if not end:
            return []
        names, pred, hit = whole[: -len(end) - 1], whole[-len(end) :], preds[end]
    relation, direction = hit
    known = {c.subject.casefold() for c in stated}
    candidates = tuple(split_answer_names(names, known))
    said = [c for c in stated if isinstance(c, ComparisonStatement) and (c.relation, c.direction) == hit]
    if said:
        return [replace(c, candidates=candidates) for c in said]
    answer = _short_answer(reader, response, whole=False)
    if answer is None:
        return []
    return [ComparisonStatement(f"{answer} {pred.strip()}.", None, answer, relation, direction, candidates)]


__all__ = ["QueryReader", "compose", "nested_chains", "yes_no_readings"]
