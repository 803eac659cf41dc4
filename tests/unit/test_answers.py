"""A short answer joined with its question into the statement it makes (`reading.questions.answers`, real spaCy)."""

from __future__ import annotations

import pytest

from agents.reading.candidates.reader import nlp
from agents.reading.questions.answers import answered, is_short_answer


@pytest.mark.parametrize(
    ("question", "answer", "statement"),
    [
        (
            "Which lake lies north of Geneva, Lake Constance or Lake Zurich?",
            "Lake Zurich",
            "Lake Zurich lies north of Geneva.",
        ),
        (
            "Who painted the ceiling of the chapel?",
            "A Florentine artist",
            "A Florentine artist painted the ceiling of the chapel.",
        ),
        ("When was the bridge opened?", "1932", "The bridge was opened in 1932."),
        ("Where did the treaty get signed?", "In Lisbon", "The treaty did get signed in Lisbon."),
        ("How many moons does the planet have?", "Three", "The planet does have three moons."),
        ("In which year did the company go public?", "2004", "The company did go public in 2004."),
        ("What did the committee approve?", "The budget", "The committee did approve The budget."),
        ("How many strings does a cello have?", "Four", "A cello does have four strings."),
        ("What is the largest moon of Saturn?", "Titan", "The largest moon of Saturn is Titan."),
        ("We read about ships. Which ship sank in 1912?", "The Titanic", "The Titanic sank in 1912."),
    ],
)
def test_the_answer_takes_the_place_of_the_question_word(question: str, answer: str, statement: str) -> None:
    assert answered(nlp()(question), answer) == statement


def test_nothing_is_joined_without_a_question_word() -> None:
    assert answered(nlp()("Is the Loire longer than the Seine?"), "No") is None
    assert answered(nlp()("Tell me about the Loire."), "A river") is None


@pytest.mark.parametrize(
    ("response", "short"),
    [("Titan", True), ("The budget of 2004", True), ("Kepler", True), ("The committee approved the budget.", False)],
)
def test_a_short_answer_has_no_clause_of_its_own(response: str, short: bool) -> None:
    assert is_short_answer(nlp()(response)) is short


def test_a_possessive_after_the_question_word_stays_with_the_answer() -> None:
    question = "Which club's stadium hosted the final in 1998?"
    assert answered(nlp()(question), "Rovers") == "Rovers's stadium hosted the final in 1998."


@pytest.mark.parametrize(("response", "short"), [("When Rivers Ran Dry", True), ("Rivers Ran Dry.", True)])
def test_a_title_in_title_case_is_a_short_answer(response: str, short: bool) -> None:
    assert is_short_answer(nlp()(response)) is short


def test_a_question_word_inside_a_participle_clause_is_answered_in_place() -> None:
    question = "The parade was led by a band formed in which town?"
    assert answered(nlp()(question), "Dunmore") == "The parade was led by a band formed in Dunmore."
    relative = "Who founded the city whose harbour froze in 1740?"
    assert answered(nlp()(relative), "Peter") == "Peter founded the city whose harbour froze in 1740."


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("Who was born first, Ada Lowe or Tom Reed?", (("Ada Lowe", "Tom Reed"), True)),
        ("Which magazine is younger: Time Out or The Economist?", (("Time Out", "The Economist"), False)),
        ("Which band released its first album, Kestrel or Varn?", None),
        ("Which band has more members, Kestrel or Varn?", None),
        ("Who was born first?", None),
    ],
)
def test_a_time_comparison_between_two_choices_is_read_from_the_question(
    question: str, expected: tuple[tuple[str, str], bool] | None
) -> None:
    from agents.reading.evidence.compare import comparison

    found = comparison(nlp()(question))
    assert (None if found is None else (found.choices, found.earlier)) == expected
