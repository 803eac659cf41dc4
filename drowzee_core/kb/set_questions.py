"""Answers to set-operation questions (pure): "What are all X such that {cond} and / or / but not {cond}?".

The answer lists its members ("The only X that meets the given criteria is Y." / "The X that meet the
given criteria are Y and Z." or a bare list). `read_set_answer` gives the question's operation and
conditions with the members named; `member_statements` puts each member in place of X in each
condition (negated for "but not"; for "or" each statement is `disjunctive`).

Because the question asks for *all* X, the list also claims to be complete: a member the KB proves
and the list leaves out refutes it (`agents.kbset` decides that; absence of other members proves
nothing).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.sentence_split import Span
from drowzee_core.kb.statement_types import Reading, Statement
from drowzee_core.kb.statements import StatementReader
from drowzee_core.kb.template_regex import MAX_ENTITY_CHARS, strip_lead

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
    conditions: tuple[tuple[Reading, ...], ...]
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
    return (spec.negative if c.negated else spec.positive).format(s=s, o=o).rstrip(".")


def set_conditions(reader: StatementReader, var: str, cond: str) -> tuple[str, list[tuple[list[Reading], bool]]] | None:
    """The operation ("and", "or", "but not", "single") and each condition's readings about `var`.

    Each condition is (readings, flip): `flip` when "but not" / "and not" negates it. The split
    at a connective is the first one after which both sides read as a statement about `var`.
    """

    def about(clause: str) -> list[Reading]:
        return [r for r in reader.readings(clause) if var in (r.subject, r.object)]

    for m in _CONNECTIVE.finditer(cond):
        left, right = about(cond[: m.start()]), about(cond[m.end() :])
        if left and right:
            op = " ".join(m.group(1).lower().split())
            flip = op in ("but not", "and not")
            return ("but not" if flip else op), [(left, False), (right, flip)]
    single = about(cond)
    return ("single", [(single, False)]) if single else None


def read_set_answer(reader: StatementReader, query: str, response: str) -> SetAnswer | None:
    """The members a response lists for a set-operation query, with the query's conditions; None otherwise."""
    # imported here: kb.questions composes set answers through this module
    from drowzee_core.kb.questions import abstains, split_names

    m = SET_QUERY.fullmatch(query)
    if m is None:
        return None
    var = m.group("v")
    parsed = set_conditions(reader, var, m.group("c"))
    if parsed is None:
        return None
    op, conditions = parsed
    members_rx = re.compile(
        r"(?:the\s+only|the)\s+"
        + re.escape(var)
        + r"s?\s+that\s+meets?\s+the\s+(?:given\s+)?criteria\s+(?:is|are)\s+(?P<m>.+?)\s*[.!]?\s*",
        re.IGNORECASE | re.DOTALL,
    )
    listed: str | None = None
    only = False
    span: Span | None = None
    for (start, _end), sentence in reader.sentences(response):
        cut = strip_lead(sentence)
        if hit := members_rx.fullmatch(sentence[cut:]):
            listed, only = hit.group("m"), hit.group(0).lower().startswith("the only")
            span = (start + cut, start + len(sentence.rstrip()))
            break
    if listed is None:
        sentences = reader.sentences(response)
        one = sentences[0][1] if len(sentences) == 1 else ""
        listed = one.rstrip(".! ") if one and not reader.readings(one) and not abstains(one) else None
    if not listed:
        return None
    members = [listed.strip()] if only else split_names(listed)
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
                text = (spec.negative if negated else spec.positive).format(s=s, o=o)
                out.append(Statement(text, None, s, r.relation, o, negated, answer.operation == "or"))
    return out


__all__ = [
    "SET_QUERY",
    "SetAnswer",
    "SetCondition",
    "condition_text",
    "member_statements",
    "read_set_answer",
    "set_conditions",
]
