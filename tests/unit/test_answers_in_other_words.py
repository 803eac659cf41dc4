"""Answers worded in other ways than the catalog's: set answers, short answers before more sentences,
"The answer is X", multi-hop answers followed through the KB, noun phrases as statements, pronouns.

The catalog is the small test catalog of `tests.unit.statement_catalog`; the names are invented or
plain world facts.
"""

from __future__ import annotations

import pytest

from agents.reading.templates.questions import QueryReader
from agents.reading.templates.statement_types import Statement
from tests.unit.statement_catalog import READER, SET_QUERY, triples


@pytest.mark.parametrize(
    ("response", "members", "only"),
    [
        ("Just Lyon.", ("Lyon",), False),
        ("Only Lyon and Nice.", ("Lyon", "Nice"), False),
        ("Lyon is the only one.", ("Lyon",), True),
        ("The only one is Lyon.", ("Lyon",), True),
        ("Lyon and Nice are the only ones.", ("Lyon", "Nice"), False),
        ("Lyon and Nice satisfy the criteria.", ("Lyon", "Nice"), False),
        ("The answers are Lyon and Nice.", ("Lyon", "Nice"), False),
        ("They are Lyon and Nice.", ("Lyon", "Nice"), False),  # not the member "They are Lyon"
        ("These are Lyon and Nice.", ("Lyon", "Nice"), False),
        ("Lyon. It is an old city.", ("Lyon",), False),  # a first sentence of names, then more
        ("Lyon is an old city. Nice too.", None, False),
    ],
)
def test_set_answers_in_other_words(response: str, members: tuple[str, ...] | None, only: bool) -> None:
    from agents.reading.templates.set_questions import read_set_answer

    found = read_set_answer(READER, SET_QUERY, response)
    assert (found.members if found else None) == members
    if found is not None:
        assert found.only is only
        assert found.span is None or response[found.span[0] : found.span[1]].rstrip(".") in response


def test_a_short_answer_before_more_sentences_is_joined_with_the_question() -> None:
    claims = READER.with_query("What is the capital of France?", "It's Lyon. France is in Europe.")
    assert Statement("The capital of France is Lyon.", (0, 10), "France", "has_capital", "Lyon") in claims


@pytest.mark.parametrize("response", ["In Lyon.", "It is in Lyon."])
def test_a_short_answer_said_as_a_phrase_gives_its_object(response: str) -> None:
    claims = READER.with_query("What is the capital of France?", response)
    assert [(c.subject, c.relation, c.object) for c in claims] == [("France", "has_capital", "Lyon")]


def test_a_multi_hop_answer_without_its_chain_follows_the_kb_when_each_hop_is_one_place() -> None:

    stored = {
        ("Lyon", "located_in"): ["France", "Rhône"],  # the region has no capital stored: France is the place meant
        ("Springfield", "located_in"): ["Illinois", "Ohio"],
        ("France", "has_capital"): ["Paris"],
        ("Illinois", "has_capital"): ["Springfield"],
        ("Ohio", "has_capital"): ["Columbus"],
    }
    reader = QueryReader(READER.catalog, hops=lambda name, relation: stored.get((name, relation), []))
    query = "What is the capital of the place where Lyon is located?"
    [claim] = reader.with_query(query, "The answer is Paris.")
    assert (claim.subject, claim.relation, claim.object) == ("France", "has_capital", "Paris")
    assert claim.text == "Lyon is located in France. The capital of France is Paris."
    # a name whose readings lead to different places composes nothing; neither does a reader without the KB
    assert reader.with_query(query.replace("Lyon", "Springfield"), "Paris.") == []
    assert READER.with_query(query, "Paris.") == []


def test_an_entity_relation_said_with_its_noun_phrase() -> None:
    assert triples(READER.read("The capital of France is Paris. France's currency was the franc.")) == [
        ("France", "has_capital", "Paris", False),
        ("France", "has_currency", "the franc", False),
    ]


def test_the_answer_is_read_wherever_the_response_says_it() -> None:
    query = "What is the currency of the country whose capital is Paris?"
    response = "Paris is the capital of France. France uses the euro. The answer is the euro."
    claims = READER.with_query(query, response)
    answer = [c for c in claims if c.span == (54, 77)]
    assert [(c.subject, c.relation, c.object) for c in answer] == [("France", "has_currency", "the euro")]
    assert answer[0].text == "The currency of the country whose capital is Paris is the euro."


def test_a_pronoun_is_the_name_the_previous_sentence_names_first() -> None:
    from drowzee_core.kb.wording import first_named

    assert first_named("Norland is the place where Orvin is located.", "Orvin", "Norland") == "Norland"
    assert first_named("The capital of Norland is Orvin.", "Norland", "Orvin") == "Norland"
    assert first_named("It grew.", "Orvin", None) == "Orvin"
    claims = READER.read("France is the country whose capital is Paris. Its currency is the euro.")
    assert ("France", "has_currency", "the euro", False) in triples(claims)


def test_a_resolved_pronoun_stays_the_name_for_the_next_sentence() -> None:
    # "It" of the first sentence is Orvin, so Orvin (not the year the sentence names) is "It" of the second
    claims = READER.read("It was founded in 1850. It is located in Norland.", topic="Orvin")
    assert ("Orvin", "located_in", "Norland", False) in triples(claims)
    assert all(c.subject != "1850" for c in claims)


def test_a_pronoun_a_template_reads_as_a_name_is_resolved_too() -> None:
    claims = READER.read("Lyon is located in France. It is located in Europe.")
    assert ("Lyon", "located_in", "Europe", False) in triples(claims)
    assert all(c.subject != "It" for c in claims)
