"""Decades as times ("in the 1990s"): the token, the mention, the MTL formula and the claim's wording."""

from __future__ import annotations

import pytest

from agents.reading.candidates import Reading, decade_valued, nlp, time_word, verbalize
from agents.reading.mentions import as_decade, mentions
from drowzee_core.kb.catalog import Catalog
from drowzee_core.logic.mtl import Atom, Finally
from drowzee_core.logic.time_words import time_formula, time_phrase, timed_truth
from drowzee_core.records.enums import TimeWord

CATALOG = Catalog.from_toml()


@pytest.mark.parametrize(("token", "decade"), [("1990s", 1990), ("1730s", 1730), ("1800s", None), ("1990", None)])
def test_as_decade(token: str, decade: int | None) -> None:
    """A decade token names its first year; "the 1800s" may be a century and is none."""
    assert as_decade(token) == decade


def test_a_decade_is_a_time_only_after_in_the() -> None:
    """A decade after "in the" is a year mention timed by the decade; "the 1990s were" is none."""
    doc = nlp()("In the 1990s Tova Brenn sailed.")
    (m,) = [m for m in mentions(doc, lambda _t: False) if m.text == "1990"]
    assert time_word(doc, m) == TimeWord.DECADE
    assert [m for m in mentions(nlp()("The 1990s were calm."), lambda _t: False) if m.text == "1990"] == []


def test_the_decade_formula_looks_at_ten_years() -> None:
    """Some year of the ten holds: Finally[0, 9] read at the decade's first year."""
    assert time_formula(TimeWord.DECADE, 1990, (1980, 2030)) == (Finally(0, 9, Atom("fact")), 1990)
    said = timed_truth(TimeWord.DECADE, 1990, [(1999, None)], 2026)
    assert said is not None and said.holds
    said = timed_truth(TimeWord.DECADE, 1980, [(1999, None)], 2026)
    assert said is not None and not said.holds
    assert time_phrase(TimeWord.DECADE, 1990) == "in the 1990s" and time_phrase(TimeWord.UNTIL, 2001) == "until 2001"


def test_a_year_relations_value_said_as_a_decade() -> None:
    """A year relation's object that is the decade of the sentence is put at the decade, and worded so."""
    r = Reading("Perl", "first_appeared_in_year", "1980", False, False, 0)
    put = decade_valued(r, "Perl first appeared in the 1980s.", CATALOG)
    assert (put.year, put.time) == (1980, TimeWord.DECADE)
    assert verbalize(CATALOG, put) == "Perl first appeared in the 1980s."
    assert decade_valued(r, "Perl first appeared in 1980.", CATALOG) == r
