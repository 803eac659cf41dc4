"""Answers to set-operation questions (pure): "What are all X such that {cond} and / or / but not {cond}?".

The answer lists its members ("The only X that meets the given criteria is Y." / "The X that meet the
given criteria are Y and Z." or a bare list). `read_set_answer` gives the question's operation and
conditions with the members named; `member_statements` puts each member in place of X in each
condition (negated for "but not"; for "or" each statement is `disjunctive`).

Because the question asks for *all* X, the list also claims to be complete: a member the KB proves
and the list leaves out refutes it (`agents.verifier.kb.sets` decides that; absence of other members proves
nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from agents.reading.templates.answer_lists import abstains, split_answer_names
from agents.reading.templates.sentence_split import Span
from agents.reading.templates.statement_types import Statement, TemplateReading
from agents.reading.templates.statements import StatementReader
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.template_regex import MAX_ENTITY_CHARS, fill, strip_lead

SET_QUERY = re.compile(
    r"\s*what\s+are\s+all\s+(?P<v>\w+)\s+such\s+that\s+(?P<c>.+?)\s*\?\s*", re.IGNORECASE | re.DOTALL
)
_CONNECTIVE = re.compile(r"\s+(but\s+not|and\s+not|and|or)\s+", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class SetCondition:
    """One condition on X: "X `relation` `other`" (or "`other` `relation` X"), maybe negated."""

    relation: str
    other: str
    """The named entity (or value) of the condition."""
    var_subject: bool
    """X is the condition's subject."""
    negated: bool
    """The condition says X does not stand in the relation (a negative template, or "but not")."""


@dataclass(frozen=True, slots=True)
class SetAnswer:
    """A response's list of the X a set-operation question asks for."""

    operation: str
    """`and`, `or`, `but not` or `single`."""
    conditions: tuple[tuple[TemplateReading, ...], ...]
    """Each condition's readings about X (several when its wording is ambiguous)."""
    flips: tuple[bool, ...]
    """Per condition: negated by "but not" / "and not"."""
    members: tuple[str, ...]
    only: bool
    """Worded "The only X ..." (one member; never split at " and ")."""
    span: Span | None
    """Where the list is in the response; None for a bare list read from the whole response."""
    var: str

    def unique_conditions(self) -> tuple[SetCondition, ...] | None:
        """The conditions when each has exactly one reading (None when one is ambiguous)."""
        if any(len(readings) != 1 for readings in self.conditions):
            return None
        out = []
        for (r,), flip in zip(self.conditions, self.flips, strict=True):
            var_subject = r.subject == self.var
            other = r.object if var_subject else r.subject
            out.append(SetCondition(r.relation, other, var_subject, r.negated != flip))
        return tuple(out)

    def completeness_text(self, catalog: Catalog) -> str:
        """The claim that the list is complete, as a sentence ("Y and Z are all the X such that ...")."""
        said = [condition_text(catalog, c, self.var) for c in self.unique_conditions() or ()]
        said = [c if c.startswith(self.var) else c[:1].lower() + c[1:] for c in said]
        joiner = " or " if self.operation == "or" else " and "
        if len(self.members) == 1:
            return f"{self.members[0]} is the only {self.var} such that {joiner.join(said)}."
        names = ", ".join(self.members[:-1]) + f" and {self.members[-1]}"
        return f"{names} are all the {self.var} such that {joiner.join(said)}."


def condition_text(catalog: Catalog, c: SetCondition, name: str) -> str:
    """The condition with `name` in place of X, as a clause."""
    spec = catalog.get(c.relation)
    s, o = (name, c.other) if c.var_subject else (c.other, name)
    return fill(spec.negative if c.negated else spec.positive, s, o).rstrip(".")


def set_conditions(
    reader: StatementReader, var: str, cond: str
) -> tuple[str, list[tuple[list[TemplateReading], bool]]] | None:
    """The operation ("and", "or", "but not", "single") and each condition's readings about `var`.

    Each condition is (readings, flip): `flip` when "but not" / "and not" negates it. The split
    at a connective is the first one after which both sides read as a statement about `var`.
    """

    def about(clause: str) -> list[TemplateReading]:
        return [r for r in reader.readings(clause) if var in (r.subject, r.object)]

    for m in _CONNECTIVE.finditer(cond):
        left, right = about(cond[: m.start()]), about(cond[m.end() :])
        if left and right:
            op = " ".join(m.group(1).lower().split())
            flip = op in ("but not", "and not")
            return ("but not" if flip else op), [(left, False), (right, flip)]
    single = about(cond)
    return ("single", [(single, False)]) if single else None


_ONLY = re.compile(r"(?:only|just|solely)\s+(?P<m>.+?)(?:\s+only)?", re.IGNORECASE | re.DOTALL)
"""A bare list that says it is the whole answer ("Just Austria", "Only Mali and Niger")."""


_JOINERS = frozenset({"and", "of", "the", "de", "del", "da", "do", "la", "le", "y"})


def _names_only(sentence: str) -> bool:
    """A sentence of nothing but capitalised names and the words that join them ("Just Mali and Niger.")."""
    words = sentence.rstrip(".! ").replace(",", " ").split()
    if words and words[0].lower() in ("only", "just"):
        words = words[1:]
    return 0 < len(words) <= 12 and words[0][:1].isupper() and all(w[:1].isupper() or w in _JOINERS for w in words)


def list_frame(var: str, sentence: str) -> tuple[str, bool] | None:
    """The list a sentence gives as the answer, and whether it is worded as the only one; None otherwise.

    The frames say of a list that it is the answer: "The only X that meets the given criteria is Y",
    "Y is the only one", "The only one is Y", "Y and Z are all the X ...", "Y and Z meet the criteria",
    "They are Y and Z".
    """
    v = re.escape(var)
    end = r"\s*[.!]?\s*"
    noun = rf"(?:one|ones|answers?|members?|(?-i:{v})s?)"
    criteria = r"(?:these|the|all(?:\s+the)?)\s+(?:given\s+)?criteria"
    meets = rf"(?:meets?|satisfy|satisfies|fits?)\s+{criteria}"
    frames = (
        (rf"the\s+only\s+{noun}\b(?:\s+that\s+{meets})?\s+(?:is|are)\s+(?P<m>.+?)", True),
        (rf"the\s+{noun}\s+that\s+{meets}\s+(?:is|are)\s+(?P<m>.+?)", False),
        (r"the\s+answers?\s+(?:is|are)\s+(?P<m>.+?)", False),
        (r"(?:they|these|those)\s+are\s+(?P<m>.+?)", False),  # the question's X, as a plural pronoun
        (rf"(?P<m>.+?)\s+is\s+the\s+only\s+{noun}\b.*?", True),
        (rf"(?P<m>.+?)\s+are\s+(?:the\s+only|all(?:\s+of)?\s+the)\s+{noun}\b.*?", False),
        (rf"(?P<m>.+?)\s+{meets}", False),
    )
    for body, only in frames:
        if hit := re.fullmatch(body + end, sentence, re.IGNORECASE | re.DOTALL):
            listed = hit.group("m")
            if bare := _ONLY.fullmatch(listed):
                listed = bare.group("m")
            return listed, only
    return None


def read_set_answer(reader: StatementReader, query: str, response: str) -> SetAnswer | None:
    """The members a response lists for a set-operation query, with the query's conditions; None otherwise."""
    m = SET_QUERY.fullmatch(query)
    if m is None:
        return None
    var = m.group("v")
    parsed = set_conditions(reader, var, m.group("c"))
    if parsed is None:
        return None
    op, conditions = parsed
    listed: str | None = None
    only = False
    span: Span | None = None
    for (start, _end), sentence in reader.sentences(response):
        cut = strip_lead(sentence)
        if hit := list_frame(var, sentence[cut:]):
            listed, only = hit
            span = (start + cut, start + len(sentence.rstrip()))
            break
    if listed is None:  # a bare list: the whole response, or a first sentence of names ("Just Austria. <more>")
        sentences = reader.sentences(response)
        one = sentences[0][1].strip() if sentences else ""
        if len(sentences) > 1 and not _names_only(one):
            one = ""
        listed = one.rstrip(".! ") if one and not reader.readings(one) and not abstains(one) else None
        if listed and (bare := _ONLY.fullmatch(listed)):
            listed = bare.group("m")  # "Just Austria."
        if listed and len(sentences) > 1:
            start = sentences[0][0][0]
            span = (start, start + len(sentences[0][1].rstrip()))
    if not listed:
        return None
    members = [listed.strip()] if only else split_answer_names(listed)
    if not members or any(len(member) > MAX_ENTITY_CHARS for member in members):
        return None
    return SetAnswer(
        operation=op,
        conditions=tuple(tuple(readings) for readings, _ in conditions),
        flips=tuple(flip for _, flip in conditions),
        members=tuple(members),
        only=only,
        span=span,
        var=var,
    )


def member_statements(catalog: Catalog, answer: SetAnswer) -> list[Statement]:
    """Each listed member put in place of X in each condition (every reading of it)."""
    out: list[Statement] = []
    for member in answer.members:
        for readings, flip in zip(answer.conditions, answer.flips, strict=True):
            for r in readings:
                s, o = (member, r.object) if r.subject == answer.var else (r.subject, member)
                spec = catalog.get(r.relation)
                negated = r.negated != flip
                text = fill(spec.negative if negated else spec.positive, s, o)
                out.append(Statement(text, None, s, r.relation, o, negated, answer.operation == "or"))
    return out


__all__ = [
    "SET_QUERY",
    "SetAnswer",
    "SetCondition",
    "condition_text",
    "list_frame",
    "member_statements",
    "read_set_answer",
    "set_conditions",
]
