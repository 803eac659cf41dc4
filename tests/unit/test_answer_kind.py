"""What a wh-question asks for and whether a response gives it (`agents.reading.evidence.answer_kind`, real spaCy).

Every sentence is invented for these tests.
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from agents.reading.candidates.reader import nlp
from agents.reading.evidence.answer_kind import Asked, asked_kind, gives


@functools.cache
def parser() -> Any:
    return nlp()


@pytest.mark.parametrize(
    ("query", "kind"),
    [
        ("When was the Orvin dam finished?", Asked.TIME),
        ("In what decade did the Halden ferry start?", Asked.TIME),
        ("Where did Mira Tolsen study painting?", Asked.PLACE),
        ("How many bridges cross the Vell?", Asked.NUMBER),
        ("How tall is the Karsk tower?", Asked.NUMBER),
        ("Who designed the Karsk tower?", Asked.NAME),
        ("Who was the first mayor of Brenfield?", Asked.NAME),
        ("Some context first. When did the Lund canal open?", Asked.TIME),
    ],
)
def test_the_kind_a_question_asks_for(query: str, kind: Asked) -> None:
    asked = asked_kind(parser()(query))
    assert asked is not None and asked[0] == kind


@pytest.mark.parametrize(
    "query",
    [
        "Who is Mira Tolsen?",  # a description
        "What did the committee approve?",  # no checkable kind
        "How did the canal get its name?",  # a manner
        "Who ran the mill longer, Ada Brisk or Tom Vale?",  # one of the choices
        "The dam was finished late.",  # no question
    ],
)
def test_questions_that_ask_for_no_checkable_kind(query: str) -> None:
    assert asked_kind(parser()(query)) is None


def _gives(query: str, response: str) -> bool:
    q, r = parser()(query), parser()(response)
    asked = asked_kind(q)
    assert asked is not None
    return gives(asked[0], r, q)


@pytest.mark.parametrize(
    ("query", "response", "answered"),
    [
        ("When was the Orvin dam finished?", "The Orvin dam was finished in 1962.", True),
        ("When was the Orvin dam finished?", "It was finished during the Second World War.", True),
        ("When was the Orvin dam finished?", "The Orvin dam stands on the river Tarn.", False),
        ("When was the Orvin dam finished?", "The Orvin dam was never finished.", True),  # a denial answers
        ("Who designed the Karsk tower?", "The Karsk tower was designed by Lena Moss.", True),
        ("Who designed the Karsk tower?", "The Karsk tower has a copper roof and a clock.", False),
        ("How many bridges cross the Vell?", "Seven bridges cross the Vell.", True),
        ("How many bridges cross the Vell?", "The bridges across the Vell are made of stone.", False),
        ("Where did Mira Tolsen study painting?", "Mira Tolsen studied painting in Antwerp.", True),
        ("Where did Mira Tolsen study painting?", "Mira Tolsen studied painting for years.", False),
    ],
)
def test_whether_a_response_gives_what_is_asked(query: str, response: str, answered: bool) -> None:
    assert _gives(query, response) is answered


def test_what_the_query_already_says_is_no_answer() -> None:
    assert not _gives("When did the Lund canal open in 1890 to boats?", "The Lund canal opened in 1890 to boats.")


def test_which_over_a_person_noun_asks_for_a_name_and_a_choice_asks_nothing() -> None:
    def person(lemma: str) -> bool:
        return lemma in {"sculptor"}

    asked = asked_kind(parser()("Which sculptor made the statue of the Halden bridge?"), person)
    assert asked == (Asked.NAME, "which sculptor")
    assert asked_kind(parser()("Which position did Tom Vale play?"), person) is None
    assert asked_kind(parser()("Which sculptor, Ana Reyes or Tom Vale, was born first?"), person) is None
    assert not gives(Asked.NAME, parser()("A famous sculptor made it."), parser()("Which sculptor made it?"))
