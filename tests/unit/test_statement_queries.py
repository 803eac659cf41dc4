"""Query + answer composition (`kb.questions`): yes/no, wh, multi-hop, comparison and set-operation answers."""

from __future__ import annotations

import pytest

from agents.reading.templates.statement_types import ComparisonStatement, Statement
from tests.unit.statement_catalog import CITIES_QUERY, READER, SET_QUERY, Triple, triples


# ---------------------------------------------------------------------- yes / no questions
@pytest.mark.parametrize(
    ("query", "response", "expected"),
    [
        ("Is Paris located in France?", "Yes.", [("Paris", "located_in", "France", False)]),
        ("Is Paris located in France?", "No.", [("Paris", "located_in", "France", True)]),
        ("Is Paris located in France?", "yes", [("Paris", "located_in", "France", False)]),
        ("Does France contain Paris?", "No", [("France", "contains", "Paris", True)]),
        # "Is {o} the capital of {s}?" (has_capital) and "Is {s} the capital of {o}?" (capital_of) tie
        (
            "Is Lyon the capital of France?",
            "No.",
            [("France", "has_capital", "Lyon", True), ("Lyon", "capital_of", "France", True)],
        ),
        (
            "Is Paris the capital of France?",
            "Yes.",
            [("France", "has_capital", "Paris", False), ("Paris", "capital_of", "France", False)],
        ),
        ("Is the population of Lyon 513275?", "Yes.", [("Lyon", "population", "513275", False)]),
        (
            "Is Paris located in France?",
            "No. Paris is located in Germany.",
            [("Paris", "located_in", "Germany", False), ("Paris", "located_in", "France", True)],
        ),
        ("Is it true that Paris is located in Spain?", "No.", [("Paris", "located_in", "Spain", True)]),
        ("Is it true that the capital of France is Paris?", "Yes.", [("France", "has_capital", "Paris", False)]),
        ("is it true that the capital of France is Paris?", "Yes.", [("France", "has_capital", "Paris", False)]),
        ("Is it true that Paris is not located in Spain?", "Yes.", [("Paris", "located_in", "Spain", True)]),
        # "No" to a negative statement claims the positive one
        ("Is it true that Paris is not located in Spain?", "No.", [("Paris", "located_in", "Spain", False)]),
        ("Is it possible that Paris is located in France?", "No.", [("Paris", "located_in", "France", True)]),
        ("Is it possible for Paris to be located in France?", "Yes.", [("Paris", "located_in", "France", False)]),
        (
            "Paris is located in France. Please judge the truth of this statement.",
            "Yes.",
            [("Paris", "located_in", "France", False)],
        ),
        (
            "Is it true that Paris lies outside France?",
            "Yes.",
            [("Paris", "located_in", "France", True), ("France", "contains", "Paris", True)],
        ),
        # no yes / no answer: nothing is composed
        ("Is Paris located in France?", "I don't know.", []),
    ],
)
def test_yes_no_questions(query: str, response: str, expected: list[Triple]) -> None:
    assert triples(READER.with_query(query, response)) == expected


def test_a_composed_statement_has_no_span_and_its_own_text() -> None:
    [claim] = READER.with_query("Is Paris located in France?", "No.")
    assert claim == Statement("Paris is not located in France.", None, "Paris", "located_in", "France", True, False)


def test_no_because_keeps_its_reason() -> None:
    claims = READER.with_query("Is Paris located in France?", "No, because Paris is located in Germany.")
    assert ("Paris", "located_in", "France", True) in triples(claims)
    assert [c.object for c in claims if isinstance(c, Statement) and not c.negated] == ["Germany"]


# ---------------------------------------------------------------------- wh questions
@pytest.mark.parametrize("response", ["Lyon", "Lyon.", "It is Lyon.", "The answer is Lyon"])
def test_wh_question_with_a_short_answer(response: str) -> None:
    assert READER.with_query("What is the capital of France?", response) == [
        Statement("The capital of France is Lyon.", None, "France", "has_capital", "Lyon")
    ]


def test_wh_question_answered_by_a_sentence() -> None:
    response = "I think so. So the capital of France is Lyon."
    assert READER.with_query("What is the capital of France?", response) == [
        Statement("the capital of France is Lyon.", (15, 45), "France", "has_capital", "Lyon")
    ]


@pytest.mark.parametrize("response", ["Lyon is France's main city.", "Lyon rules over France."])
def test_a_sentence_about_the_asked_entity_is_no_short_answer(response: str) -> None:
    assert READER.with_query("What is the capital of France?", response) == []  # not "the capital is <sentence>"


def test_wh_question_with_a_long_answer_composes_nothing() -> None:
    response = "Honestly I would rather not tell you which city that might be."
    assert READER.with_query("What is the capital of France?", response) == []


def test_multi_hop_answer_is_composed_onto_the_stated_chain() -> None:
    query = "What is the currency of the country whose capital is Paris?"
    response = "Paris is the capital of France. So the currency of the country whose capital is Paris is euro."
    claims = READER.with_query(query, response)
    assert claims[0] == Statement("Paris is the capital of France.", (0, 31), "Paris", "capital_of", "France")
    answer = response[35:]
    assert Statement(answer, (35, 94), "France", "has_currency", "euro") in claims
    assert response[35:94] == answer


def test_multi_hop_three_hops_with_a_number() -> None:
    query = "What is the population of the capital of the place where Lyon is located?"
    response = (
        "Lyon is located in France. The capital of France is Paris. "
        "So the population of the capital of the place where Lyon is located is 2,102,650."
    )
    claims = READER.with_query(query, response)
    assert ("Paris", "population", "2,102,650", False) in triples(claims)
    assert triples(claims)[:2] == [("Lyon", "located_in", "France", False), ("France", "has_capital", "Paris", False)]


def test_multi_hop_short_answer_without_the_chain_composes_nothing() -> None:
    query = "What is the currency of the country whose capital is Paris?"
    assert READER.with_query(query, "euro") == []
    # a chain that starts from another entity (Lyon) does not reach the answer's subject either
    response = "Lyon is the capital of France. So the currency of the country whose capital is Paris is euro."
    claims = READER.with_query(query, response)
    assert claims[0] == Statement("Lyon is the capital of France.", (0, 30), "Lyon", "capital_of", "France")
    assert [c for c in claims if c.subject == "France"] == []


# ---------------------------------------------------------------------- comparisons
def test_comparison_answered_by_a_sentence() -> None:
    response = "Paris has the largest population. The population of Paris is 2,102,650."
    claims = READER.with_query(CITIES_QUERY, response)
    assert claims == [
        ComparisonStatement(
            "Paris has the largest population.", (0, 33), "Paris", "population", "most", ("Paris", "Lyon", "Marseille")
        ),
        Statement("The population of Paris is 2,102,650.", (34, 71), "Paris", "population", "2,102,650"),
    ]


def test_comparison_answered_by_a_short_answer() -> None:
    query = "Among Paris and Lyon, which one has the smallest population?"
    assert READER.with_query(query, "Lyon.") == [
        ComparisonStatement("Lyon has the smallest population.", None, "Lyon", "population", "least", ("Paris", "Lyon"))
    ]


def test_comparison_without_a_query_has_no_candidates() -> None:
    assert READER.read("Lyon has the smallest population.") == [
        ComparisonStatement("Lyon has the smallest population.", (0, 33), "Lyon", "population", "least")
    ]


def test_comparison_of_the_other_direction_is_compared_among_the_listed_names() -> None:
    claims = READER.with_query(CITIES_QUERY, "Marseille has the smallest population.")
    assert claims == [
        ComparisonStatement(
            "Marseille has the smallest population.",
            (0, 38),
            "Marseille",
            "population",
            "least",
            ("Paris", "Lyon", "Marseille"),
        )
    ]


# ---------------------------------------------------------------------- set operations
def test_set_operation_with_one_member() -> None:
    claims = READER.with_query(SET_QUERY, "The only X that meets the given criteria is Lübeck.")
    assert claims == [
        Statement("Lübeck is located in France.", None, "Lübeck", "located_in", "France"),
        Statement("Lübeck is a member of the Hanseatic League.", None, "Lübeck", "member_of", "the Hanseatic League"),
    ]


def test_set_operation_with_several_members_and_a_difference() -> None:
    query = "What are all X such that X is located in France and X is not a member of NATO?"
    claims = READER.with_query(query, "The X that meet the given criteria are Lyon, Nice and Saint-Denis.")
    assert triples(claims) == [
        (member, relation, obj, negated)
        for member in ("Lyon", "Nice", "Saint-Denis")
        for relation, obj, negated in (("located_in", "France", False), ("member_of", "NATO", True))
    ]
    assert not any(isinstance(c, Statement) and c.disjunctive for c in claims)


def test_set_operation_union_is_disjunctive() -> None:
    query = "What are all X such that X is located in France or X is located in Spain?"
    claims = READER.with_query(query, "The only X that meets the given criteria is Andorra.")
    assert claims == [
        Statement("Andorra is located in France.", None, "Andorra", "located_in", "France", False, True),
        Statement("Andorra is located in Spain.", None, "Andorra", "located_in", "Spain", False, True),
    ]


def test_set_operation_but_not_flips_the_condition() -> None:
    query = "What are all X such that X is located in France but not X is located in Spain?"
    assert triples(READER.with_query(query, "Lyon")) == [
        ("Lyon", "located_in", "France", False),
        ("Lyon", "located_in", "Spain", True),
    ]


def test_set_operation_bare_list_splits_at_known_names_only_by_default() -> None:
    query = "What are all X such that X is located in Europe and X is a member of NATO?"
    claims = READER.with_query(query, "France and Italy")
    assert triples(claims) == [
        ("France", "located_in", "Europe", False),
        ("France", "member_of", "NATO", False),
        ("Italy", "located_in", "Europe", False),
        ("Italy", "member_of", "NATO", False),
    ]


def test_set_answer_reads_the_list_and_the_conditions_for_the_completeness_claim() -> None:
    from agents.reading.templates.set_questions import SetCondition, read_set_answer

    query = "What are all X such that X is located in France and X is not a member of NATO?"
    found = read_set_answer(READER, query, "So, the X that meet the given criteria are Lyon and Nice.")
    assert found is not None and found.members == ("Lyon", "Nice") and found.operation == "and"
    assert found.span == (4, 57) and not found.only
    assert found.unique_conditions() == (
        SetCondition("located_in", "France", var_subject=True, negated=False),
        SetCondition("member_of", "NATO", var_subject=True, negated=True),
    )
    assert found.completeness_text(READER.catalog) == (
        "Lyon and Nice are all the X such that X is located in France and X is not a member of NATO."
    )
    but_not = read_set_answer(READER, query.replace("and X is not", "but not X is"), "The only X ... is Lyon.")
    assert but_not is None  # the list is not worded as an answer and is not a bare list
    only = read_set_answer(READER, query.replace("and X is not", "but not X is"), "Lyon")
    assert only is not None and only.operation == "but not" and only.span is None
    assert [c.negated for c in only.unique_conditions() or ()] == [False, True]
    assert only.completeness_text(READER.catalog).startswith("Lyon is the only X such that")
    assert read_set_answer(READER, "What is the capital of France?", "Paris") is None
    assert read_set_answer(READER, query, "I don't know.") is None
