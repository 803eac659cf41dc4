"""How answers word the catalog's templates: tense, possessives, superlatives, comparatives, years, lists."""

from __future__ import annotations

import pytest

from agents.reading.templates.questions import QueryReader
from agents.reading.templates.statement_types import ComparisonStatement, Statement
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.wording import (
    clean_name,
    comparative,
    listed_names,
    noun_comparatives,
    noun_templates,
    past_tense,
    resolve_pronoun,
    split_names,
    stated_year,
    superlatives,
)

READER = QueryReader(Catalog.from_toml())


def test_past_tense_changes_the_first_present_auxiliary_only() -> None:
    assert past_tense("{s} is located in {o}.") == "{s} was located in {o}."
    assert past_tense("{s} has the largest population") == "{s} had the largest population"
    assert past_tense("The population of {s} is {o}.") == "The population of {s} was {o}."
    assert past_tense("{s} was born in {o}.") is None


def test_noun_templates_only_for_a_the_n_of_phrase() -> None:
    assert noun_templates("the population of {s}") == [
        "{s}'s population is {o}.",
        "{s} has a population of {o}.",
        "{s}'s population was {o}.",
        "{s} had a population of {o}.",
    ]
    assert noun_templates("the area of {s}")[1] == "{s} has an area of {o}."
    assert noun_templates("where {s} was born") == [] and noun_templates(None) == []


def test_superlatives_and_comparatives() -> None:
    said = superlatives("has the largest population")
    assert "has the highest population" in said and "had the biggest population" in said
    assert "has the lowest area" in superlatives("has the smallest area")
    assert "had a higher population than {o}" in comparative("has the largest population")
    assert comparative("was born earliest") == ["was born earlier than {o}"]
    assert "appeared later than {o}" in comparative("appeared most recently")
    assert comparative("is the oldest") == []


def test_noun_comparatives_only_for_a_the_n_of_phrase() -> None:
    said = noun_comparatives("has the smallest population", "the population of {s}")
    assert "the population of {s} is smaller than the population of {o}" in said
    assert "the population of {s} was lower than that of {o}" in said
    assert noun_comparatives("has the largest population", "the area of {s}") == []
    assert noun_comparatives("was born earliest", "the year {s} was born") == []


@pytest.mark.parametrize(
    ("text", "year"),
    [
        ("In 1897, which city had more people?", 1897),
        ("Based on the census data from 1920, which had more?", 1920),
        ("Its population was 5,536,375.", None),  # digit groups are no year
        ("from 1999 to 2001", None),  # two years: none to choose
        ("It measures 3.1967 units.", None),
    ],
)
def test_stated_year(text: str, year: int | None) -> None:
    assert stated_year(text) == year


def test_listed_names_and_clean_name() -> None:
    assert listed_names(
        "In 1967, which state had the highest population among Avalon, Brynmor, East Carrow, and Dunlee?"
    ) == [
        "Avalon",
        "Brynmor",
        "East Carrow",
        "Dunlee",
    ]
    assert listed_names("Among Paris, Lyon and Marseille, which one has the largest population?") == [
        "Paris",
        "Lyon",
        "Marseille",
    ]
    assert listed_names("Which had a higher population, Greece or Mississippi?") == ["Greece", "Mississippi"]
    assert listed_names("What is the capital of France?") == []
    assert clean_name(" *Azerbaijan* ") == "Azerbaijan" and clean_name('"Toy Story"') == "Toy Story"
    assert clean_name("*Honshu*, the island,") == "Honshu" and clean_name("Washington, D.C.") == "Washington, D.C."
    assert clean_name("Vessa, not Dunmere") == "Vessa"  # a contrast after the name says what it is not
    assert split_names("Uruguay and Spain, the sovereign states") == ["Uruguay", "Spain"]
    assert split_names("*Lyon*") == ["Lyon"]


def test_answers_in_the_past_tense_and_possessive_read_as_the_catalog_relation() -> None:
    claims = READER.read("Lyon was located in France. Paris's population was 2,102,650.")
    assert [(c.subject, c.relation, c.object) for c in claims if isinstance(c, Statement)] == [
        ("Lyon", "located_in", "France"),
        ("Paris", "population", "2,102,650"),
    ]


def test_a_list_of_values_reads_clause_by_clause() -> None:
    claims = READER.read(
        "Avalon had a population of 3,784,539, Brynmor had a population of 568,447,"
        " and Dunlee had a population of 1,625,829."
    )
    assert [(c.subject, c.object, c.span) for c in claims if isinstance(c, Statement)] == [
        ("Avalon", "3,784,539", (0, 36)),
        ("Brynmor", "568,447", (38, 73)),
        ("Dunlee", "1,625,829", (79, 116)),
    ]


def test_an_answers_superlative_takes_the_questions_names_and_year() -> None:
    query = "In 1967, which state had the highest population among Avalon, Brynmor, and Dunlee?"
    response = "Among the given states, *Avalon* had the highest population in 1967. Its population was 4,832,098."
    claims = READER.with_query(query, response)
    assert claims[0] == ComparisonStatement(
        "*Avalon* had the highest population in 1967.",
        (24, 68),
        "Avalon",
        "population",
        "most",
        ("Avalon", "Brynmor", "Dunlee"),
        1967,
    )


def test_a_comparative_names_both_entities_and_a_trailing_clause_is_allowed() -> None:
    query = "In 1897, which city had the higher population, Avalon or Brynmor?"
    claims = READER.with_query(query, "In 1897, *Avalon* had a higher population than Brynmor, with 112,839 people.")
    assert [(c.subject, c.direction, c.candidates, c.year) for c in claims if isinstance(c, ComparisonStatement)] == [
        ("Avalon", "most", ("Avalon", "Brynmor"), 1897)
    ]


def test_a_noun_comparative_reads_with_a_list_an_appositive_and_a_year() -> None:
    claims = READER.read(
        "The population of Honshu, the island, is *smaller* than the population of Uruguay and Spain,"
        " the sovereign states, in 2005."
    )
    assert [(c.subject, c.direction, c.candidates, c.year) for c in claims if isinstance(c, ComparisonStatement)] == [
        ("Honshu", "least", ("Honshu", "Uruguay and Spain"), 2005)
    ]
    [c] = READER.read("The population of Paris was higher than that of Lyon.")
    assert isinstance(c, ComparisonStatement) and (c.subject, c.direction, c.candidates) == (
        "Paris",
        "most",
        ("Paris", "Lyon"),
    )


def test_a_leading_pronoun_gives_way_to_its_name_and_keeps_the_capital() -> None:
    assert resolve_pronoun("Its population is 5.", "Norland") == "Norland's population is 5."
    assert resolve_pronoun("It was proved in 1990.", "twin orbit theorem") == "Twin orbit theorem was proved in 1990."
    assert resolve_pronoun("Norland is small.", "Orvin") is None
