"""A relational noun's value said with "have" (`agents.reading.questions.direction`): "X has the coach of Y".

English gives the subject of "have ... of" the noun's value, as in "X has a population of 5 million": the coach
of X is Y. The reading does not depend on which way the supplied triple runs (a triple that runs the other way
decides the claim false). Invented names; WordNet is scripted ("parent" and "child" are converses).
"""

from __future__ import annotations

import pytest

from agents.reading.claims import HEADING
from tests.unit.test_label_grammar import ask as ask_with_label_patterns
from tests.unit.test_question_frames import ask


@pytest.mark.parametrize(
    ("question", "triple"),
    [
        ("Is it true that Ama Reyes has the coach of Bren Tal?", ["Ama Reyes", "coach", "Bren Tal"]),
        ("Is it true that Ama Reyes has the coach of Bren Tal?", ["Bren Tal", "coach", "Ama Reyes"]),
        ("Does Ama Reyes have Bren Tal as a coach?", ["Ama Reyes", "coach", "Bren Tal"]),
        ("Is Bren Tal the coach of Ama Reyes?", ["Ama Reyes", "coach", "Bren Tal"]),
    ],
)
def test_the_subject_of_have_owns_the_nouns_value(question: str, triple: list[str]) -> None:
    (r,) = ask(question, [triple])
    assert (r.subject, r.relation, r.object) == ("Ama Reyes", "coach", "Bren Tal")


def test_a_converse_label_takes_the_value_reading_too() -> None:
    # "Ama has the parent of Bren": Bren is Ama's parent, so for the supplied label "child", Bren's child is Ama
    (r,) = ask("Is it true that Ama Reyes has the parent of Bren Tal?", [["Bren Tal", "child", "Ama Reyes"]])
    assert (r.subject, r.relation, r.object) == ("Bren Tal", "child", "Ama Reyes")


def test_the_label_patterns_read_have_of_the_same_way() -> None:
    # the supplied label's own patterns: "{s} has the child of {o}" outweighs "{o} is the child of {s}"
    (r,) = ask_with_label_patterns(
        "Is it true that Ama Reyes has the child of Bren Tal?", [["Bren Tal", "child", "Ama Reyes"]]
    )
    assert (r.subject, r.relation, r.object) == ("Ama Reyes", "child", "Bren Tal")
    (r,) = ask_with_label_patterns("Is Ama Reyes the child of Bren Tal?", [["Bren Tal", "child", "Ama Reyes"]])
    assert (r.subject, r.relation, r.object) == ("Bren Tal", "child", "Ama Reyes")


@pytest.mark.parametrize(
    ("sentence", "heading"),
    [
        ("Answer:", True),
        ("Reasoning process:", True),
        ("Step 2:", True),
        ("Note: Lyon is in France.", False),
        ("Lyon is in France.", False),
        ("2024:", False),
    ],
)
def test_a_label_and_a_colon_is_a_heading(sentence: str, heading: bool) -> None:
    assert bool(HEADING.fullmatch(sentence)) is heading
