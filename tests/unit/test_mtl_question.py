"""Reading Drowzee's MTL question wording back into the formula and year it asks."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drowzee_core.generate.templates_mtl import drowzee_question
from drowzee_core.logic.events import Event, EventTable
from drowzee_core.logic.mtl import Atom, Conj, Finally, Formula, MTLQuery, Neg
from drowzee_core.logic.mtl_question import read_mtl_question
from drowzee_core.logic.mtl_syntax import parse_query
from tests import strategies
from tests.conftest import peers_path

# names that look like the template's own words: " and ", "Event...", "... happen"
NAMES = st.sampled_from(
    ["the birth of Stowe", "war and peace", "Event horizon", "Event7", "the lifetime of A and B", "x happen", "Lützen"]
)


def formulas() -> st.SearchStrategy[Formula]:
    return strategies.formulas(st.builds(Atom, NAMES), max_b=30, max_leaves=8)


@settings(max_examples=300, deadline=None)
@given(formulas(), st.integers(-500, 2100))
def test_every_generated_question_reads_back_to_its_query(f: Formula, year: int) -> None:
    assert read_mtl_question(drowzee_question(f, year)) == MTLQuery(f, year)


def test_the_authors_questions_read_back_to_their_mtl() -> None:
    rows = [json.loads(x) for x in peers_path("drowzee_temporal", "mtl_queries_dev.jsonl").read_text().splitlines()]
    assert len(rows) > 2000
    assert all(read_mtl_question(r["question"]) == parse_query(r["mtl"]) for r in rows)


@pytest.mark.parametrize(
    "text",
    [
        "What is the capital of France?",
        "Did the euro happen?",  # a root atom is asked "At year Y, did ...?"
        # a window after another year than the question's
        "At year 1900, did Event1 not happen; where Event1 is Event2 finally happen within the time frame of the 1st"
        " to the 2nd after the year 1901 onwards; where Event2 is X happen?",
        # the right-hand part's name twice: no single split
        "At year 1900, did Event1 happen and Event2 also happen; where Event1 is A and Event2 is B happen and Event2 is"
        " C happen?",
        "At year 1900, did Event1 not happen; where Event1 is Event2 frobnicate happen?",
        "x" * 5000,
    ],
)
def test_other_wording_is_not_read(text: str) -> None:
    assert read_mtl_question(text) is None


def test_whitespace_is_collapsed_and_nesting_kept() -> None:
    text = (
        "At year 1860,  did Event1 happen and Event2 also happen;\n where Event1 is the lifetime of Curie happen and"
        " Event2 is Event3 not happen; where Event3 is Event4 finally happen within the time frame of the 0th to the"
        " 3rd after the year 1860 onwards; where Event4 is the birth of Mahler happen?"
    )
    want = Conj(Atom("the lifetime of Curie"), Neg(Finally(0, 3, Atom("the birth of Mahler"))))
    assert read_mtl_question(text) == MTLQuery(want, 1860)


def test_an_event_label_shared_by_several_events_gives_every_candidate() -> None:
    table = EventTable()
    marie = Event("life:marie", "the lifetime of Curie", ((1867, 1934),), ())
    pierre = Event("life:pierre", "the lifetime of Curie", ((1859, 1906),), ())
    table.add(marie)
    table.add(pierre)
    assert table.resolve("the lifetime of Curie") == marie
    assert table.candidates("The_lifetime_of_Curie") == [marie, pierre]
    assert table.candidates("life:pierre") == [pierre] and table.candidates("nobody") == []
