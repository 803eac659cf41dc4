"""The answers supplied triples give to a "which ..." question, and how many the response names (pure).

FactCHD's set-operation pairs ("Which films were released in Ireland and had Chris Menges as the
director of photography?") come with the question's answer set as evidence: every triple links a
name the question mentions (an *anchor*: Ireland, Chris Menges) with an answer (The Reader, ...).
When the supplied triples have exactly that shape - at least two anchors, every triple joins one
anchor and one other name, and every other name is joined to every anchor - the other names are
the evidence's answers, and the response's coverage of them is a signal the Manager weighs (fitted
on the generated dev split like the others). A yes / no answer, or any answer to a yes / no question
(however it opens: "Sure! Here is my answer: No, ..."), is never read this way.

When each anchor is joined to every answer by one relation in one direction (`conditions`: the
question's conditions, as the evidence states them) and the question asks for all answers, the
claims node also makes the claim that the response names every one of them (`nodes.claims.
answers_claim`); the KB check refutes it over the supplied triples when an answer the response does
not name satisfies every condition (`agents.verifier.kb.sets`). Naming other things is never refuted by their
absence from the evidence: only a proved answer left out refutes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict

from agents.reading.questions import question_text
from drowzee_core.kb.scratch import split_qualifier
from drowzee_core.kb.template_regex import strip_lead
from drowzee_core.kb.wording import clean_name

_YES_NO = re.compile(r"(?:yes|no)\b", re.IGNORECASE)
MAX_TRIPLES = 200
"""More supplied triples than this are no answer set (and would make the name search slow)."""


class AnswerSet(BaseModel):
    """The evidence's answers to the question and those the response names."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    anchors: tuple[str, ...]
    answers: tuple[str, ...]
    named: tuple[str, ...]
    conditions: tuple[tuple[str, str, bool], ...] = ()
    """(relation as supplied, anchor, the answer is the subject) per anchor, when every answer is joined
    to that anchor by the same relation in the same direction; () otherwise."""

    @property
    def coverage(self) -> float:
        """Share of the evidence's answers the response names."""
        return len(self.named) / len(self.answers)

    def sentence(self) -> str:
        """What the signal says, for the explanation."""
        listed = _join(self.answers)
        if not self.named:
            said = "the response names none of them"
        elif len(self.named) == len(self.answers):
            said = "the response names all of them"
        else:
            said = f"the response names only {_join(self.named)}"
        return f"The supplied evidence answers the question with {listed}; {said}."


def _join(names: Sequence[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + f" and {names[-1]}"


def _mentions(text: str, name: str) -> bool:
    """Whether `text` names `name` as whole words, ignoring case."""
    words = r"\s+".join(re.escape(w) for w in name.split())
    return re.search(rf"(?<!\w){words}(?!\w)", text, re.IGNORECASE) is not None


def evidence_answers(query: str, response: str, triples: Sequence[Sequence[str]]) -> AnswerSet | None:
    """The answer set the supplied triples give to `query` (module docstring); None when they give none."""
    if not triples or len(triples) > MAX_TRIPLES or _YES_NO.match(response, strip_lead(response)):
        return None
    if question_text(query) is not None:
        return None  # a yes / no question (or a statement put up for judgement) asks for no set
    edges = []
    for t in triples:
        s, r, o = split_qualifier((t[0], t[1], t[2])).base
        edges.append((clean_name(s), r.strip(), clean_name(o)))
    names = list(dict.fromkeys(n for s, _r, o in edges for n in (s, o)))
    anchors = [n for n in names if n and _mentions(query, n)]
    if len(anchors) < 2:
        return None
    linked: dict[str, set[str]] = {}
    ways: dict[str, set[tuple[str, bool]]] = {}
    for s, r, o in edges:
        if (s in anchors) == (o in anchors):
            return None  # a triple between two anchors or two answers: no answer set
        answer, anchor = (o, s) if s in anchors else (s, o)
        linked.setdefault(answer, set()).add(anchor)
        ways.setdefault(anchor, set()).add((r, answer == s))
    if any(len(a) != len(anchors) for a in linked.values()):
        return None
    answers = tuple(linked)
    named = tuple(a for a in answers if _mentions(response, a))
    conditions: tuple[tuple[str, str, bool], ...] = ()
    if all(len(ways[a]) == 1 for a in anchors):
        conditions = tuple((relation, a, is_subject) for a in anchors for relation, is_subject in ways[a])
    return AnswerSet(anchors=tuple(anchors), answers=answers, named=named, conditions=conditions)


__all__ = ["AnswerSet", "evidence_answers"]
