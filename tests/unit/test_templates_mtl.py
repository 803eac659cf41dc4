"""Question wording for MTL formulas: Drowzee's templates and the readable form."""

from __future__ import annotations

import pytest

from drowzee_core.generate.templates_mtl import drowzee_question, ordinal, readable_question
from drowzee_core.logic.mtl_syntax import parse_query


@pytest.mark.parametrize(
    ("n", "text"),
    [
        (1, "1st"),
        (2, "2nd"),
        (3, "3rd"),
        (4, "4th"),
        (11, "11th"),
        (12, "12th"),
        (13, "13th"),
        (21, "21st"),
        (102, "102nd"),
        (0, "0th"),
    ],
)
def test_ordinal(n: int, text: str) -> None:
    assert ordinal(n) == text


@pytest.mark.parametrize(
    ("mtl", "drowzee", "readable"),
    [
        (
            "Next(Atom(September_2014)), 1906",
            "At year 1906, did Event1 happen in the next year; where Event1 is September_2014 happen?",
            "Is it true that September_2014 was taking place in 1907?",
        ),
        (
            "Neg(Globally[6, 11](Atom(Council_of_Florence))), 797",
            "At year 797, did Event1 not happen; where Event1 is Event2 globally happen within the time frame"
            " of the 6th to the 11th after the year 797 onwards; where Event2 is Council_of_Florence happen?",
            "Is it true that it is not the case that in every year between 803 and 808, Council_of_Florence was"
            " taking place in that year?",
        ),
        (
            "Until[1, 3](Atom(War), Atom(Peace)), 1826",
            "Did Event1 happen continuously until Event2 started, during the period from the 1st to the 3rd"
            " after the year 1826 onwards; where Event1 is War happen and Event2 is Peace happen?",
            "Is it true that War went on without a break from 1826 until some year between 1827 and 1829 in"
            " which Peace was taking place in that year?",
        ),
        (
            "Conj(Disj(Atom(a), Atom(b)), Atom(c)), 1916",
            "At year 1916, did Event1 happen and Event2 also happen; where Event1 is Event3 happen or Event4"
            " happen; where Event3 is a happen and Event4 is b happen and Event2 is c happen?",
            "Is it true that (a was taking place in 1916 or b was taking place in 1916) and c was taking place"
            " in 1916?",
        ),
    ],
)
def test_wording(mtl: str, drowzee: str, readable: str) -> None:
    q = parse_query(mtl)
    assert drowzee_question(q.formula, q.year) == drowzee
    assert readable_question(q.formula, q.year) == readable
