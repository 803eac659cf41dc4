"""The statement reader (`kb.statements`): statements read back through catalog templates (pure, no Prolog).

Single statements, spans, ambiguity, any catalog, adversarial input and the readings once wrong
(query + answer composition: test_statement_queries.py).
"""

from __future__ import annotations

import pytest

from agents.reading.templates.questions import QueryReader
from agents.reading.templates.statement_types import ComparisonStatement, Statement
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.template_regex import MAX_ENTITY_CHARS, fill, indefinite
from tests.unit.statement_catalog import CITIES_QUERY, READER, SET_QUERY, Triple, rel, triples


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
        # the template's "a" reads "an" too, as `fill` writes it before a vowel
        ("Hirohito was an emperor.", [("Hirohito", "occupation", "emperor", False)]),
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
    reader = QueryReader(Catalog.from_dict({"relation": [orbit]}))
    assert triples(reader.read("The Moon orbits Earth. Mars does not orbit Venus.")) == [
        ("The Moon", "orbits", "Earth", False),
        ("Mars", "orbits", "Venus", True),
    ]
    assert triples(reader.with_query("Does the Moon orbit Earth?", "No.")) == [("the Moon", "orbits", "Earth", True)]
    assert reader.read("Paris is located in France.") == []


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


def test_conjoined_clauses_do_not_become_one_object() -> None:
    # a reading whose object holds the template's own words ("... is located in ...") spans two clauses
    claims = READER.read("Lyon is located in France and Nice is located in Italy.")
    assert "France and Nice is located in Italy" not in [c.object for c in claims if isinstance(c, Statement)]
    # with a comma the sentence reads clause by clause, each with its own span
    claims = READER.read("Lyon is located in France, and Nice is located in Italy.")
    assert [(c.text, c.span) for c in claims] == [
        ("Lyon is located in France", (0, 25)),
        ("Nice is located in Italy.", (31, 56)),
    ]


@pytest.mark.parametrize(
    ("template", "o", "expected"),
    [
        ("{s} was a {o}.", "emperor", "H was an emperor."),
        ("{s} was a {o}.", "writer", "H was a writer."),
        ("Was {s} a {o}?", "actor", "Was H an actor?"),
        ("{s} was not a {o}.", "university teacher", "H was not a university teacher."),
        ("A {o} is {s}.", "orchid", "An orchid is H."),
        ("The capital of {s} is {o}.", "Ottawa", "The capital of H is Ottawa."),
    ],
)
def test_fill_makes_the_article_before_a_slot_agree(template: str, o: str, expected: str) -> None:
    assert fill(template, "H", o) == expected


@pytest.mark.parametrize(
    ("word", "article"),
    [("emperor", "an"), ("hour", "an"), ("umpire", "an"), ("European", "a"), ("one-man band", "a"), ("unit", "a")],
)
def test_indefinite_article_by_sound(word: str, article: str) -> None:
    assert indefinite(word) == article
