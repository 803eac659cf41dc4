"""The statement reader (`kb.statements`) and query + answer composition (`kb.questions`): pure, no Prolog.

A small hand-built catalog (templates as in the bundled relations.toml) keeps each expected triple
independent of catalog edits; one test reads through a catalog whose relation the bundled one lacks.
"""

from __future__ import annotations

from typing import Any

import pytest

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.statements import MAX_ENTITY_CHARS, Claim, ComparisonStatement, Statement, StatementReader

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
READER = StatementReader(CATALOG)

CITIES_QUERY = "Among Paris, Lyon and Marseille, which one has the largest population?"
SET_QUERY = "What are all X such that X is located in France and X is a member of the Hanseatic League?"


def triples(claims: list[Claim]) -> list[Triple]:
    """(subject, relation, object, negated) of each statement; fails on a comparison."""
    out: list[Triple] = []
    for c in claims:
        assert isinstance(c, Statement), c
        out.append((c.subject, c.relation, c.object, c.negated))
    return out


# ---------------------------------------------------------------------- single statements
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Paris is located in France.", [("Paris", "located_in", "France", False)]),
        ("Paris is not located in France.", [("Paris", "located_in", "France", True)]),
        ("France contains Paris", [("France", "contains", "Paris", False)]),
        ("France does not contain Paris.", [("France", "contains", "Paris", True)]),
        ("The capital of France is Paris.", [("France", "has_capital", "Paris", False)]),
        ("The capital of France is not Lyon.", [("France", "has_capital", "Lyon", True)]),
        ("Lyon is not the capital of France!", [("Lyon", "capital_of", "France", True)]),
        # the inverse antonyms tie: both relations' readings are returned
        (
            "Paris lies outside France.",
            [("Paris", "located_in", "France", True), ("France", "contains", "Paris", True)],
        ),
        # the longest literal wins: nationality, not the occupation "national of Poland"
        ("Marie Curie was a national of Poland.", [("Marie Curie", "nationality", "Poland", False)]),
        ("Marie Curie was not a national of Poland.", [("Marie Curie", "nationality", "Poland", True)]),
        ("Marie Curie was a physicist.", [("Marie Curie", "occupation", "physicist", False)]),
        # identical templates of two relations: both readings
        (
            "Hydrogen is in period 1 of the periodic table.",
            [("Hydrogen", "in_period", "period 1", False), ("Hydrogen", "in_group", "period 1", False)],
        ),
        ("The population of Lyon is 513,275.", [("Lyon", "population", "513,275", False)]),
        ("The population of Lyon is 1.5 million.", [("Lyon", "population", "1.5 million", False)]),
        # whitespace around the literal matches any whitespace (inside it: xfail below); the final period is optional
        ("Paris  is located in\tFrance", [("Paris", "located_in", "France", False)]),
        # a dotted abbreviation keeps its final period
        (
            "The capital of the United States is Washington, D.C.",
            [("the United States", "has_capital", "Washington, D.C.", False)],
        ),
    ],
)
def test_templates_read_back_into_triples(text: str, expected: list[Triple]) -> None:
    assert triples(READER.read(text)) == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        # a year reading drops the entity reading of the same words
        ("Radium was discovered in 1898.", [("Radium", "discovery_year", "1898", False)]),
        ("Radium was not discovered in 1898.", [("Radium", "discovery_year", "1898", True)]),
        ("Radium was discovered in 300 BC.", [("Radium", "discovery_year", "300 BC", False)]),
        # a non-year object drops the year reading
        ("Radium was discovered in France.", [("Radium", "discovered_in_country", "France", False)]),
        ("Radium was discovered in the 1890s.", [("Radium", "discovered_in_country", "the 1890s", False)]),
        # a quantity relation with a non-number object gives no reading at all
        ("The population of Lyon is Paris.", []),
    ],
)
def test_year_and_quantity_relations_win_only_with_a_number(text: str, expected: list[Triple]) -> None:
    assert triples(READER.read(text)) == expected


def test_statement_fields_and_span() -> None:
    text = "  Paris is located in France.  "
    assert READER.read(text) == [
        Statement("Paris is located in France.", (2, 29), "Paris", "located_in", "France", False, False)
    ]


def test_multiple_sentences_keep_their_order_and_spans() -> None:
    text = (
        "Lyon is located in France. The capital of France is Paris!\n"
        "It rains a lot.  Therefore, the capital of Spain is not Lisbon.\n\n"
        "The population of Lyon is 513,275."
    )
    claims = READER.read(text)
    assert triples(claims) == [
        ("Lyon", "located_in", "France", False),
        ("France", "has_capital", "Paris", False),
        ("Spain", "has_capital", "Lisbon", True),
        ("Lyon", "population", "513,275", False),
    ]
    spans = [c.span for c in claims]
    assert spans == [(0, 26), (27, 58), (87, 122), (124, 158)]
    for c in claims:
        assert c.span is not None and text[c.span[0] : c.span[1]] == c.text
    assert claims[2].text == "the capital of Spain is not Lisbon."  # the connective "Therefore," is cut


def test_repeated_statements_are_returned_once() -> None:
    text = "Paris is located in France. PARIS is located in FRANCE. Paris is located in France."
    claims = READER.read(text)
    assert triples(claims) == [("Paris", "located_in", "France", False)]
    assert claims[0].span == (0, 27)


def test_text_matching_no_template_gives_nothing() -> None:
    assert READER.read("The weather is nice today. I like cheese! Paris is lovely in spring.") == []
    assert READER.read("") == []
    assert READER.read("   \n\n  ") == []
    assert READER.with_query("Is Paris located in France?", "The weather is nice today.") == []
    assert READER.with_query("How are you?", "Yes.") == []


def test_any_catalog_works() -> None:
    orbit = rel("orbits", "{s} orbits {o}.", "{s} does not orbit {o}.", "Does {s} orbit {o}?")
    reader = StatementReader(Catalog.from_dict({"relation": [orbit]}))
    assert triples(reader.read("The Moon orbits Earth. Mars does not orbit Venus.")) == [
        ("The Moon", "orbits", "Earth", False),
        ("Mars", "orbits", "Venus", True),
    ]
    assert triples(reader.with_query("Does the Moon orbit Earth?", "No.")) == [("the Moon", "orbits", "Earth", True)]
    assert reader.read("Paris is located in France.") == []


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


def test_comparison_of_the_other_direction_is_not_given_candidates() -> None:
    claims = READER.with_query(CITIES_QUERY, "Marseille has the smallest population.")
    assert claims == [
        ComparisonStatement("Marseille has the smallest population.", (0, 38), "Marseille", "population", "least")
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


# ---------------------------------------------------------------------- adversarial input
WEIRD = "A.*(b)+ [x]"


def test_regex_metacharacters_in_names_are_literal() -> None:
    assert triples(READER.read(f"{WEIRD} is located in F(r)a+nce?.")) == [(WEIRD, "located_in", "F(r)a+nce?", False)]
    assert triples(READER.with_query(f"Is {WEIRD} located in France?", "Yes.")) == [
        (WEIRD, "located_in", "France", False)
    ]
    wh = f"What is the capital of {WEIRD}?"
    assert triples(READER.with_query(wh, "Lyon")) == [(WEIRD, "has_capital", "Lyon", False)]
    assert READER.with_query(wh, f"The capital of {WEIRD} is Lyon.")[0].span == (0, 35)
    # the name in the query is no pattern: "Abbbb [x]" is another entity and composes nothing
    assert triples(READER.with_query(wh, "The capital of Abbbb [x] is Lyon.")) == [
        ("Abbbb [x]", "has_capital", "Lyon", False)
    ]
    query = f"What are all X such that X is located in {WEIRD} and X is a member of NATO?"
    assert triples(READER.with_query(query, "The only X that meets the given criteria is $1\\g<0>.")) == [
        ("$1\\g<0>", "located_in", WEIRD, False),
        ("$1\\g<0>", "member_of", "NATO", False),
    ]


def test_long_text_without_sentence_ends() -> None:
    flat = "a" * 20_000
    assert READER.read(flat) == []
    assert READER.with_query("Is Paris located in France?", flat) == []
    words = ("Paris is located in France and " * 700)[:20_000]
    assert len(words) == 20_000
    assert READER.read(words) == []
    assert READER.with_query("Is Paris located in France?", words) == []
    assert READER.with_query("What is the capital of France?", words) == []
    assert READER.with_query(CITIES_QUERY, words) == []


@pytest.mark.parametrize("run", ["?" * 20_000, "St. " * 5_000, "XVIII. " * 3_000, "A. " * 6_000])
def test_long_runs_of_sentence_ends_and_abbreviations(run: str) -> None:
    assert READER.read(run) == []
    assert READER.with_query("What is the capital of France?", run) == []


def test_entities_longer_than_the_bound_are_not_read() -> None:
    long = "A" * (MAX_ENTITY_CHARS + 1)
    assert READER.read(f"{long} is located in France.") == []
    ok = "A" * MAX_ENTITY_CHARS
    assert triples(READER.read(f"{ok} is located in France.")) == [(ok, "located_in", "France", False)]


# ---------------------------------------------------------------------- formerly wrong readings
@pytest.mark.parametrize(
    "text",
    [
        "So Paris is located in France.",
        "Yes, because Paris is located in France.",
        "- Paris is located in France.",
        "1. Paris is located in France.",
    ],
)
def test_leading_connective_before_an_entity_subject(text: str) -> None:
    claims = READER.read(text)
    assert triples(claims) == [("Paris", "located_in", "France", False)]
    span = claims[0].span
    assert span is not None and text[span[0] : span[1]] == claims[0].text == "Paris is located in France."


def test_roman_numeral_with_a_period_inside_a_subject() -> None:
    assert triples(READER.read("The population of Budapest XVIII. kerület is 93225.")) == [
        ("Budapest XVIII. kerület", "population", "93225", False)
    ]
    # a numeral that ends a sentence still splits when the next sentence reads
    assert triples(READER.read("He was Louis XVIII. Paris is located in France.")) == [
        ("Paris", "located_in", "France", False)
    ]


@pytest.mark.parametrize("text", ["St. Louis is located in Missouri.", "So St. Louis is located in Missouri."])
def test_abbreviation_inside_a_subject(text: str) -> None:
    assert triples(READER.read(text)) == [("St. Louis", "located_in", "Missouri", False)]


def test_abbreviation_at_a_sentence_end_still_splits() -> None:
    text = "The capital of the United States is Washington, D.C. Paris is located in France."
    assert triples(READER.read(text)) == [
        ("the United States", "has_capital", "Washington, D.C.", False),
        ("Paris", "located_in", "France", False),
    ]


def test_which_of_comparison_form() -> None:
    query = "Which of Paris, Lyon and Marseille has the largest population?"
    assert READER.with_query(query, "Lyon.") == [
        ComparisonStatement(
            "Lyon has the largest population.", None, "Lyon", "population", "most", ("Paris", "Lyon", "Marseille")
        )
    ]


def test_question_sentence_in_a_response_is_no_statement() -> None:
    assert READER.read("What is the capital of France? It is Paris.") == []
    assert READER.read("Is Paris located in France? Paris is located in France.") == [
        Statement("Paris is located in France.", (28, 55), "Paris", "located_in", "France")
    ]


@pytest.mark.parametrize("query", ["What is the capital of France?", CITIES_QUERY, SET_QUERY])
@pytest.mark.parametrize(
    "response",
    ["I don't know.", "I'm not sure.", "It is unknown.", "I cannot answer that.", "No idea.", "It is not known."],
)
def test_an_abstention_composes_no_claim(query: str, response: str) -> None:
    assert READER.with_query(query, response) == []


def test_short_answer_words_are_kept() -> None:
    response = "Lyon, as it is known today."
    claims = READER.with_query("What is the capital of France?", response)
    assert claims and all(isinstance(c, Statement) and c.object in response for c in claims)


@pytest.mark.parametrize("text", ["Paris is  located in France.", "The capital  of France is Paris."])
def test_any_whitespace_inside_a_template(text: str) -> None:
    assert len(READER.read(text)) == 1


def test_run_on_text_is_no_set_member() -> None:
    words = ("Paris is located in France and " * 700)[:20_000]
    assert READER.with_query(SET_QUERY, words) == []
    assert READER.with_query(SET_QUERY, f"{'A' * (MAX_ENTITY_CHARS + 1)} and Lyon") == []


# ---------------------------------------------------------------------- known wrong readings
@pytest.mark.xfail(
    strict=True, reason='the lazy subject splits a nested phrase at its first " is ": object "Paris is euro"'
)
def test_nested_phrase_statement_is_not_split_inside_the_phrase() -> None:
    claims = READER.read("So the currency of the country whose capital is Paris is euro.")
    assert ("the country whose capital", "has_currency", "Paris is euro", False) not in triples(claims)


@pytest.mark.xfail(strict=True, reason="two clauses joined by 'and' read as one statement with a clause as object")
def test_conjoined_clauses_do_not_become_one_object() -> None:
    claims = READER.read("Lyon is located in France and Nice is located in Italy.")
    assert "France and Nice is located in Italy" not in [c.object for c in claims if isinstance(c, Statement)]
