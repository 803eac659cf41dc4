"""Claims a response makes by answering its question: Yes / No, a complete list, an MTL formula.

`stances` reads what a response answers a yes / no question; `set_claim` and `answers_claim` make the
claim that a listed answer is complete (for a "What are all X ...?" question, or for the answers the
supplied triples give); `temporal_claims` the claim a Yes / No makes of a question in Drowzee's MTL
wording. The `claims` node adds them to what the readers found.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from agents.reading.claim_types import ClaimCondition, ClaimOrigin, SetClaim, TemporalClaim
from agents.reading.claims.answer_set import evidence_answers
from agents.reading.templates import QueryReader, read_set_answer
from drowzee_core.kb.catalog import Catalog
from drowzee_core.logic.mtl_question import read_mtl_question
from drowzee_core.logic.mtl_syntax import query_to_drowzee, to_drowzee
from drowzee_core.records.answer_text import parse_answer

ELLIPTICAL = re.compile(
    r"^\s*(?:they|it|he|she|we|i|you|both|both of them)\s+(?:both\s+)?"
    r"(?:do|does|did|is|are|was|were|can|could|has|have|had|will|would)(?P<neg>\s*n't|\s+not)?\s*(?:[.!,;]|$)",
    re.IGNORECASE,
)
"""A short answer that echoes a yes / no question's auxiliary ("Do they ...?" "They do not."), with its polarity."""


def stances(response: str) -> list[bool]:
    """What a response answers a yes/no question: [True] (Yes), [False] (No), [True, False] when it says both.

    A response that answers both ("Yes, because ... No, because ...") claims both: one of the two is
    false whatever the facts (`agents.verifier.kb_opinion`).
    """
    parsed = parse_answer(response)
    if parsed.label in ("yes", "no"):
        return [parsed.label == "yes"]
    if parsed.how == "conflict":
        return [True, False]
    short = ELLIPTICAL.match(response)  # "They do not.": the question's auxiliary, echoed
    return [not short.group("neg")] if short else []


def set_claim(reader: QueryReader, catalog: Catalog, query: str, response: str) -> SetClaim | None:
    """The claim that a listed answer to "What are all X such that ...?" is complete (`kb.set_questions`).

    Only when each of the question's conditions reads one way; the members' own claims come from
    `with_query`.
    """
    found = read_set_answer(reader, query, response)
    conditions = found.unique_conditions() if found is not None else None
    if found is None or not conditions:
        return None
    return SetClaim(
        id="",
        text=found.completeness_text(catalog),
        span=found.span,
        origin=ClaimOrigin.QUERY,
        variable=found.var,
        operation=found.operation,
        candidates=found.members,
        conditions=tuple(ClaimCondition(**dataclasses.asdict(c)) for c in conditions),
    )


_ONE_OF = re.compile(
    r"\b(?:name|give|list|mention|provide|tell\s+me)\s+(?:me\s+)?(?:a|an|one|any|some)\b|\b(?:one|any|some)\s+of\b"
    r"|\bexamples?\b",
    re.IGNORECASE,
)
"""A question that asks for some answers, not all ("Name a film ...", "one of ..."): its list claims no completeness."""


def answers_claim(query: str, response: str, triples: Sequence[Sequence[str]]) -> SetClaim | None:
    """The claim that the response names every answer the supplied triples give to the query (`kb.answer_set`).

    Only for an answer set of at least two answers whose triples join each answer to each name of the
    query by one relation in one direction (the question's conditions), and a question that asks for
    all of them. The claim's `candidates` are the answers the response names.
    """
    found = evidence_answers(query, response, triples)
    if found is None or len(found.answers) < 2 or not found.conditions or _ONE_OF.search(query):
        return None
    conditions = tuple(
        ClaimCondition(relation=relation, other=anchor, var_subject=is_subject)
        for relation, anchor, is_subject in found.conditions
    )
    said = ", ".join(f"X {c.relation} {c.other}" if c.var_subject else f"{c.other} {c.relation} X" for c in conditions)
    return SetClaim(
        id="",
        text=f"The response names every X the evidence gives with: {said}.",
        origin=ClaimOrigin.QUERY,
        variable="X",
        operation="and",
        candidates=found.named,
        conditions=conditions,
    )


def temporal_claims(query: str, response: str) -> list[TemporalClaim]:
    """The claims a Yes / No response makes to a question in Drowzee's MTL wording, if both read.

    "Did Event1 finally happen within the time frame of the 2nd to the 5th after the year 1900
    onwards; where Event1 is X happen?" answered "No" claims that `Finally[2, 5](Atom(X))` does not
    hold in 1900 (`logic.mtl_question`).
    """
    asked = read_mtl_question(query)
    if asked is None:
        return []
    return [
        TemporalClaim(
            id="",
            text=f"{to_drowzee(asked.formula)} {'holds' if yes else 'does not hold'} in {asked.year}.",
            origin=ClaimOrigin.QUERY,
            negated=not yes,
            mtl=query_to_drowzee(asked),
        )
        for yes in stances(response)
    ]


__all__ = ["ELLIPTICAL", "answers_claim", "set_claim", "stances", "temporal_claims"]
