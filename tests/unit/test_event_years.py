"""Which year relation dates a relation's events, read from the declarations alone (invented relations)."""

from __future__ import annotations

import tomllib

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.event_years import verb_words, year_relation_of

DECLARED = """
[[relation]]
name = "charted_by"
label = "charted by"
category = "passive_verb"
positive = "{s} was charted by {o}."
negative = "{s} was not charted by {o}."
question = "Was {s} charted by {o}?"

[[relation]]
name = "charted_from"
label = "charted from"
category = "passive_verb"
positive = "{s} was charted from {o}."
negative = "{s} was not charted from {o}."
question = "Was {s} charted from {o}?"

[[relation]]
name = "charted_in"
label = "year charted"
category = "passive_verb"
object_kind = "year"
positive = "{s} was charted in {o}."
negative = "{s} was not charted in {o}."
question = "Was {s} charted in {o}?"

[[relation]]
name = "sank_in"
label = "year of sinking"
category = "active_verb"
object_kind = "year"
positive = "{s} sank in {o}."
negative = "{s} did not sink in {o}."
question = "Did {s} sink in {o}?"

[[relation]]
name = "sank_at"
label = "sank at"
category = "active_verb"
positive = "{s} sank at {o}."
negative = "{s} did not sink at {o}."
question = "Did {s} sink at {o}?"

[[relation]]
name = "sank_near"
label = "sank near"
category = "active_verb"
object_kind = "year"
positive = "{s} sank near {o}."
negative = "{s} did not sink near {o}."
question = "Did {s} sink near {o}?"

[[relation]]
name = "keeper"
label = "keeper"
category = "noun_phrase"
positive = "The keeper of {s} is {o}."
negative = "The keeper of {s} is not {o}."
question = "Is the keeper of {s} {o}?"
"""


def _catalog() -> Catalog:
    return Catalog.from_dict(tomllib.loads(DECLARED))


def test_the_verb_words_stop_before_the_objects_preposition() -> None:
    c = _catalog()
    assert verb_words(c.get("charted_by")) == ("was", "charted")
    assert verb_words(c.get("sank_in")) == ("sank",)
    assert verb_words(c.get("keeper")) is None  # the subject is not said first


def test_a_relation_is_dated_by_the_one_year_relation_with_its_verb_words() -> None:
    c = _catalog()
    assert year_relation_of(c, "charted_by") == "charted_in"
    assert year_relation_of(c, "charted_from") == "charted_in"
    assert year_relation_of(c, "charted_in") is None  # a year relation dates nothing
    assert year_relation_of(c, "keeper") is None


def test_two_year_relations_with_the_same_verb_words_date_nothing() -> None:
    # "sank in" and "sank near" (both years) leave "sank at" without one partner: no guess
    assert year_relation_of(_catalog(), "sank_at") is None
