"""The natural phrasing functions, table-driven and pure (no KB, no Prolog)."""

from __future__ import annotations

import random

import pytest

from drowzee_core.generate.natural import words
from drowzee_core.generate.natural.clauses import Link, Ref, Said, compose, fact_forms, join, led, links, opening
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import RelationCategory, RelationSpec, ValueKind

CATALOG = Catalog.from_toml()
Q, Y, E = ValueKind.QUANTITY, ValueKind.YEAR, ValueKind.ENTITY


# ---------------------------------------------------------------------- numbers and years
@pytest.mark.parametrize(
    ("text", "kind", "forms"),
    [
        ("67000000", Q, ["67,000,000", "67 million"]),
        ("3000000000", Q, ["3,000,000,000", "3 billion"]),
        ("246325", Q, ["246,325"]),
        ("1000", Q, ["1,000"]),
        ("1234.5", Q, ["1,234.5"]),
        ("-5000", Q, ["-5,000"]),
        ("7", Q, ["seven", "7"]),
        ("20", Q, ["twenty", "20"]),
        ("999", Q, ["999"]),
        ("2.5", Q, ["2.5"]),
        ("1879", Y, ["1879"]),
        ("Paris", E, ["Paris"]),
        ("n/a", Q, ["n/a"]),
    ],
)
def test_number_forms(text: str, kind: ValueKind, forms: list[str]) -> None:
    assert words.number_forms(text, kind) == forms


def value_of(form: str) -> float:
    """What a number form says (test-side reading, to check that every form is exact)."""
    if form in words.NUMBER_WORDS:
        return float(words.NUMBER_WORDS.index(form))
    scales = {"million": 10**6, "billion": 10**9}
    number, _, scale = form.partition(" ")
    return float(number.replace(",", "")) * scales.get(scale, 1)


@pytest.mark.parametrize("value", [0, 5, 19, 21, 999, 1000, 12345, 4_000_000, 4_500_000, 67_000_000, 2 * 10**9])
def test_every_number_form_is_exact(value: int) -> None:
    """No form rounds: a wrong number stays exactly as wrong, a right one exactly right."""
    for form in words.number_forms(str(value), Q):
        assert value_of(form) == value, form


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        (
            "{s} was born in {o}.",
            ["{s} was born in {o}.", "{s} was born in the year {o}.", "{s} was born back in {o}."],
        ),
        ("{s} died in {o}.", ["{s} died in {o}.", "{s} died in the year {o}.", "{s} died back in {o}."]),
        ("The year of {s} is {o}.", ["The year of {s} is {o}."]),
    ],
)
def test_year_templates(template: str, expected: list[str]) -> None:
    assert words.year_templates(template) == expected


# ---------------------------------------------------------------------- sentences, hedges, answers
@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("dramatist is a kind of writer", "Dramatist is a kind of writer."),
        ("iPhone was created by Apple", "iPhone was created by Apple."),
        ("d-block is a block", "d-block is a block."),
        ("Acme Inc.", "Acme Inc."),
        ("it is in Europe", "It is in Europe."),
    ],
)
def test_sentence(text: str, expected: str) -> None:
    assert words.sentence(text) == expected


@pytest.mark.parametrize(
    ("text", "which", "proper", "expected"),
    [
        ("The capital of France is Paris.", 0, False, "I believe the capital of France is Paris."),
        ("Paris is the capital of France.", 2, False, "As far as I know, Paris is the capital of France."),
        ("The Hague is located in Netherlands.", 1, True, "I think The Hague is located in Netherlands."),
        ("An official language of Laos is Lao.", 4, False, "To my knowledge, an official language of Laos is Lao."),
    ],
)
def test_hedged(text: str, which: int, proper: bool, expected: str) -> None:
    assert words.hedged(text, which, proper) == expected


@pytest.mark.parametrize(
    ("answer", "which", "hedge", "expected"),
    [
        ("Paris", 0, None, "Paris."),
        ("Paris", 1, None, "It's Paris."),
        ("67 million", 3, None, "The answer is 67 million."),
        ("Paris", 2, 0, "Paris, I believe."),
        ("Paris", 0, 1, "Paris, if I remember correctly."),
    ],
)
def test_short_answer(answer: str, which: int, hedge: int | None, expected: str) -> None:
    assert words.short_answer(answer, which, hedge) == expected


@pytest.mark.parametrize(
    ("names", "which", "hedge", "expected"),
    [
        (["Laos"], 1, None, "Only Laos."),
        (["Laos"], 3, None, "Laos is the only one."),
        (["Laos", "Thailand"], 0, None, "Laos and Thailand."),
        (["Laos", "Thailand", "Vietnam"], 4, None, "There are three of them: Laos, Thailand and Vietnam."),
        (["Laos", "Thailand"], 4, 2, "Laos and Thailand, as far as I know."),
    ],
)
def test_members_answer(names: list[str], which: int, hedge: int | None, expected: str) -> None:
    assert words.members_answer(names, which, hedge) == expected


def test_endings() -> None:
    assert words.ending(words.CHAIN_ENDS, 3, x="the capital of France", a="Paris") == (
        "The capital of France is therefore Paris."
    )
    assert words.ending(words.COMPARISON_ENDS, 2, a="China", p="has the largest population") == (
        "China therefore has the largest population."
    )


def test_opening_splits_at_a_leading_subject() -> None:
    assert opening("{s} is located in {o}.", "Lyon", "France") == Said(
        "Lyon is located in France", "Lyon", "is located in France", tail="France"
    )
    assert opening("The capital of {s} is {o}.", "France", "Paris") == Said(
        "The capital of France is Paris", tail="Paris"
    )


# ---------------------------------------------------------------------- pronouns and relative clauses
LYON = led("Lyon", "is located in France", "France")
FRANCE_EURO = led("France", "uses the currency Euro", "Euro")
FRANCE_CAPITAL = led("France", "capital is Paris", "Paris", possessive=True)
CURIE = led("Marie Curie", "discovered Polonium", "Polonium")
CURIE_BORN = led("Marie Curie", "was born in 1867", None)
THING, NOBODY, CHEMIST = Ref("it"), Ref(None, "who"), Ref("the chemist", "who")


@pytest.mark.parametrize(
    ("prev", "cur", "refs", "expected"),
    [
        (LYON, FRANCE_EURO, {"France": THING}, ["append"]),
        (FRANCE_EURO, FRANCE_CAPITAL, {"France": THING}, ["pronoun"]),
        (FRANCE_CAPITAL, FRANCE_EURO, {"France": THING}, ["pronoun", "embed"]),
        (CURIE, CURIE_BORN, {"Marie Curie": NOBODY}, ["embed"]),
        (CURIE, CURIE_BORN, {"Marie Curie": CHEMIST}, ["pronoun", "embed"]),
        (Said("Paris.", tail=None), FRANCE_EURO, {"France": THING}, []),
        (join(LYON, FRANCE_EURO, "append", {"France": THING}), led("Lyon", "is in CET", None), {"Lyon": THING}, []),
    ],
)
def test_links(prev: Said, cur: Said, refs: dict[str, Ref], expected: list[str]) -> None:
    assert links(prev, cur, refs) == expected


@pytest.mark.parametrize(
    ("prev", "cur", "link", "refs", "expected"),
    [
        (LYON, FRANCE_EURO, "append", {"France": THING}, "Lyon is located in France, which uses the currency Euro"),
        (LYON, FRANCE_CAPITAL, "append", {"France": THING}, "Lyon is located in France, whose capital is Paris"),
        (FRANCE_EURO, FRANCE_CAPITAL, "pronoun", {"France": THING}, "its capital is Paris"),
        (
            FRANCE_CAPITAL,
            FRANCE_EURO,
            "embed",
            {"France": THING},
            "France, whose capital is Paris, uses the currency Euro",
        ),
        (CURIE, CURIE_BORN, "embed", {"Marie Curie": NOBODY}, "Marie Curie, who discovered Polonium, was born in 1867"),
        (CURIE, CURIE_BORN, "pronoun", {"Marie Curie": CHEMIST}, "the chemist was born in 1867"),
    ],
)
def test_join(prev: Said, cur: Said, link: Link, refs: dict[str, Ref], expected: str) -> None:
    assert join(prev, cur, link, refs).text == expected


def test_compose_joins_at_most_one_relative_clause_per_sentence() -> None:
    chain = [led("A", "is located in B", "B"), led("B", "is located in C", "C"), led("C", "is located in D", "D")]
    refs = {x: THING for x in "ABCD"}
    for seed in range(20):
        out = compose(chain, refs, random.Random(seed), chance=1.0)
        assert all(s.count(", which") <= 1 for s in out), out
        assert "".join(out).count("located in") == 3
    assert compose(chain, refs, random.Random(0), chance=0.0) == [
        "A is located in B.",
        "B is located in C.",
        "C is located in D.",
    ]


def test_ref_possessive() -> None:
    assert THING.possessive == "its"
    assert CHEMIST.possessive == "the chemist's"
    assert NOBODY.possessive is None


def test_an_irregular_passive_is_not_flipped() -> None:
    """Only a regular verb's participle is its past tense ("proved"); "written" has no such active form."""
    spec = RelationSpec(
        name="written_by",
        label="written by",
        category=RelationCategory.PASSIVE_VERB,
        positive="{s} was written by {o}.",
        negative="{s} was not written by {o}.",
        question="Was {s} written by {o}?",
    )
    assert [f.text for f in fact_forms(spec, "Hamlet", "Shakespeare")] == ["Hamlet was written by Shakespeare"]
