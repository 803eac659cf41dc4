"""The small hand-built catalog the statement-reader tests read through (templates as in relations.toml).

Hand-built so each expected triple is independent of edits to the bundled catalog.
"""

from __future__ import annotations

from typing import Any

from agents.reading.templates.questions import QueryReader
from agents.reading.templates.statement_types import AnyStatement, Statement
from drowzee_core.kb.catalog import Catalog

Triple = tuple[str, str, str, bool]


def rel(name: str, positive: str, negative: str, question: str, **extra: Any) -> dict[str, Any]:
    return {
        "name": name,
        "label": name.replace("_", " "),
        "category": "noun_phrase",
        "positive": positive,
        "negative": negative,
        "question": question,
        **extra,
    }


RELATIONS = [
    rel(
        "located_in",
        "{s} is located in {o}.",
        "{s} is not located in {o}.",
        "Is {s} located in {o}?",
        inverse_of="contains",
        phrase="the place where {s} is located",
        antonyms=["{s} lies outside {o}."],
    ),
    rel(
        "contains",
        "{s} contains {o}.",
        "{s} does not contain {o}.",
        "Does {s} contain {o}?",
        inverse_of="located_in",
        antonyms=["{o} lies outside {s}."],
    ),
    rel(
        "has_capital",
        "The capital of {s} is {o}.",
        "The capital of {s} is not {o}.",
        "Is {o} the capital of {s}?",
        phrase="the capital of {s}",
    ),
    rel(
        "capital_of",
        "{s} is the capital of {o}.",
        "{s} is not the capital of {o}.",
        "Is {s} the capital of {o}?",
        phrase="the country whose capital is {s}",
    ),
    rel(
        "has_currency",
        "The currency of {s} is {o}.",
        "The currency of {s} is not {o}.",
        "Is {o} the currency of {s}?",
        phrase="the currency of {s}",
    ),
    rel("member_of", "{s} is a member of {o}.", "{s} is not a member of {o}.", "Is {s} a member of {o}?"),
    rel(
        "population",
        "The population of {s} is {o}.",
        "The population of {s} is not {o}.",
        "Is the population of {s} {o}?",
        object_kind="quantity",
        phrase="the population of {s}",
    ),
    rel("occupation", "{s} was a {o}.", "{s} was not a {o}.", "Was {s} a {o}?"),
    rel("nationality", "{s} was a national of {o}.", "{s} was not a national of {o}.", "Was {s} a national of {o}?"),
    rel(
        "discovery_year",
        "{s} was discovered in {o}.",
        "{s} was not discovered in {o}.",
        "Was {s} discovered in {o}?",
        object_kind="year",
    ),
    rel(
        "discovered_in_country",
        "{s} was discovered in {o}.",
        "{s} was not discovered in {o}.",
        "Was {s} discovered in {o}?",
    ),
    rel(
        "in_period",
        "{s} is in {o} of the periodic table.",
        "{s} is not in {o} of the periodic table.",
        "Is {s} in {o} of the periodic table?",
    ),
    rel(
        "in_group",
        "{s} is in {o} of the periodic table.",
        "{s} is not in {o} of the periodic table.",
        "Is {s} in {o} of the periodic table?",
    ),
]
COMPARISONS = [{"relation": "population", "most": "has the largest population", "least": "has the smallest population"}]
CATALOG = Catalog.from_dict({"relation": RELATIONS, "comparison": COMPARISONS})
READER = QueryReader(CATALOG)

CITIES_QUERY = "Among Paris, Lyon and Marseille, which one has the largest population?"
SET_QUERY = "What are all X such that X is located in France and X is a member of the Hanseatic League?"


def triples(claims: list[AnyStatement]) -> list[Triple]:
    """(subject, relation, object, negated) of each statement; fails on a comparison."""
    out: list[Triple] = []
    for c in claims:
        assert isinstance(c, Statement), c
        out.append((c.subject, c.relation, c.object, c.negated))
    return out
