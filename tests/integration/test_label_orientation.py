"""Which way round a supplied label reads when the question says it in other words (real embeddings, Prolog).

- `agents.reading.candidates.own_labels.opposed`: "part of" and "has part(s)" share a noun and read it opposite ways,
  so a catalog claim "X part of Y" is "Y has part(s) X" in the triples' words;
- `agents.reading.questions.direction.by_roles`: where only an embedding links the predicate to a label ("notable
  work" for "author"), the name the triples give that label is its subject.

Names and wordings written for these tests.
"""

from __future__ import annotations

import pytest

from agents.reading.candidates.own_labels import opposed
from agents.reading.candidates.reader import nlp
from agents.verifier.runner import Verifier
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Decision
from tests.integration.question_reading import assert_proved

pytestmark = [pytest.mark.integration, pytest.mark.slow]

SAGA = [["Saga of Ulm", "has part(s)", "Book of Ash"]]
AUTHOR = [["Grey Lanterns", "author", "Rudi Feld"], ["Copper Tide", "author", "Rudi Feld"]]


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ("part of", "has part(s)", True),
        ("member of", "has member", True),
        ("part of", "part of the series", False),
        ("located in", "location", False),
    ],
)
def test_labels_that_read_a_shared_noun_opposite_ways_are_opposed(a: str, b: str, want: bool) -> None:
    assert opposed(a, b, nlp()) is want


@pytest.mark.parametrize(
    ("query", "evidence", "answer", "label", "decision"),
    [
        ("Is it true that Book of Ash is part of Saga of Ulm?", SAGA, "Yes.", Label.FACTUAL, Decision.SUPPORTED),
        ("Is it true that Book of Ash is part of Saga of Ulm?", SAGA, "No.", Label.NON_FACTUAL, Decision.REFUTED),
        (
            "Is it true that Rudi Feld's notable work includes Grey Lanterns?",
            AUTHOR,
            "Yes.",
            Label.FACTUAL,
            Decision.SUPPORTED,
        ),
        (
            "Is it true that Rudi Feld's notable work includes Grey Lanterns?",
            AUTHOR,
            "No.",
            Label.NON_FACTUAL,
            Decision.REFUTED,
        ),
        (
            "Is it possible for Grey Lanterns to be the notable work of Rudi Feld?",
            AUTHOR,
            "Yes.",
            Label.FACTUAL,
            Decision.SUPPORTED,
        ),
    ],
)
def test_the_answer_is_proved_with_the_label_the_right_way_round(
    verifier: Verifier, query: str, evidence: list[list[str]], answer: str, label: Label, decision: Decision
) -> None:
    assert_proved(verifier, query, evidence, answer, label, decision)
