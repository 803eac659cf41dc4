"""Time words as MTL over a fact's dated periods (pure): until, since, before, by, after, in."""

from __future__ import annotations

import pytest

from drowzee_core.logic.time_words import timed_truth
from drowzee_core.records.enums import TimeWord

FRANC = [(1960, 2002)]
"""A currency used from 1960 to early 2002."""
EURO = [(1999, None)]
"""A currency used since 1999, still in use."""


@pytest.mark.parametrize(
    ("word", "year", "periods", "holds"),
    [
        (TimeWord.UNTIL, 2002, FRANC, True),
        (TimeWord.UNTIL, 2001, FRANC, True),  # a year either side of the last: dates, and English
        (TimeWord.UNTIL, 2003, FRANC, True),
        (TimeWord.UNTIL, 2004, FRANC, False),
        (TimeWord.UNTIL, 1990, FRANC, False),
        (TimeWord.UNTIL, 2026, EURO, False),  # it still holds: it never stopped
        (TimeWord.SINCE, 1960, FRANC, True),
        (TimeWord.SINCE, 1962, FRANC, False),
        (TimeWord.SINCE, 1999, EURO, True),
        (TimeWord.SINCE, 1990, EURO, False),
        (TimeWord.BEFORE, 1960, FRANC, False),
        (TimeWord.BEFORE, 1961, FRANC, True),
        (TimeWord.BY, 1960, FRANC, True),
        (TimeWord.BY, 1959, FRANC, False),
        (TimeWord.AFTER, 2002, FRANC, False),
        (TimeWord.AFTER, 2001, FRANC, True),
        (TimeWord.AFTER, 2020, EURO, True),
        (TimeWord.AT, 1990, FRANC, True),
        (TimeWord.AT, 2005, FRANC, False),
    ],
)
def test_a_time_word_holds_as_its_formula_says(
    word: TimeWord, year: int, periods: list[tuple[int, int | None]], holds: bool
) -> None:
    truth = timed_truth(word, year, periods, today=2026)
    assert truth is not None and truth.holds is holds, truth


def test_periods_with_a_gap_are_one_fact_and_an_undated_fact_decides_nothing() -> None:
    again = [(1960, 1962), (1984, None)]  # used, dropped, taken up again
    assert timed_truth(TimeWord.SINCE, 1984, again, today=2026).holds  # type: ignore[union-attr]
    assert timed_truth(TimeWord.AT, 1970, again, today=2026).holds is False  # type: ignore[union-attr]
    assert timed_truth(TimeWord.UNTIL, 1962, again, today=2026).holds  # type: ignore[union-attr]
    assert timed_truth(TimeWord.UNTIL, 1990, [(None, None)], today=2026) is None


def test_the_formula_is_written_in_drowzees_syntax_with_the_year_it_is_read_at() -> None:
    truth = timed_truth(TimeWord.UNTIL, 2002, FRANC, today=2026)
    assert truth is not None and truth.formula == "Conj(Atom(fact), Finally[1, 3](Neg(Atom(fact)))), 2001"
