"""A number said in a relation's declared unit, read as that relation (`reading.candidates.measures`; real spaCy parse).

Names, numbers and units are written for these tests, none taken from a benchmark.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from agents.reading.candidates.measures import counted, measured, unit_table
from agents.reading.candidates.reader import mentions, nlp
from agents.reading.candidates.wording import plural as verbalize_plural
from drowzee_core.kb.model import RelationSpec

NAMES = {"Orvin", "Vell", "Norland"}
UNITS = unit_table(
    [("headcount", ["people", "inhabitants"]), ("surface", ["square leagues"])],
    lambda text: tuple(t.lemma_.lower() for t in nlp()(text)),
)


def _can(name: str, relation: str, end: str) -> bool:
    return name in NAMES


def _read(sentence: str) -> tuple[str, str, str] | None:
    doc = nlp()(sentence)
    m = measured(doc, mentions(doc, NAMES.__contains__, frozenset()), UNITS, _can)
    return None if m is None else (m.subject.text, m.relation, m.value.text)


@pytest.mark.parametrize(
    ("sentence", "read"),
    [
        ("Orvin has 12,000 people.", ("Orvin", "headcount", "12000")),
        ("Orvin is home to about 3 million inhabitants.", ("Orvin", "headcount", "3000000")),
        ("Orvin covers 40 square leagues.", ("Orvin", "surface", "40")),
        ("About 12,000 people live in Orvin.", ("Orvin", "headcount", "12000")),
        # the clause's subject is the one it is said of, where another name fits too
        ("Orvin, a town of 12,000 people in Norland, lies on the coast.", ("Orvin", "headcount", "12000")),
    ],
)
def test_the_unit_chooses_the_relation(sentence: str, read: tuple[str, str, str]) -> None:
    assert _read(sentence) == read


@pytest.mark.parametrize(
    "sentence",
    [
        "Orvin has 12,000 ships.",  # no declared unit
        "Orvin has 12,000 people and 40 square leagues.",  # two numbers
        "12,000 people live between Orvin and Vell.",  # no subject, two names fit
    ],
)
def test_no_unit_or_no_one_reading_reads_nothing(sentence: str) -> None:
    assert _read(sentence) is None


def test_a_unit_two_relations_declare_chooses_neither() -> None:
    table = unit_table([("a", ["people"]), ("b", ["people", "souls"])], lambda text: (text,))
    assert table == {("souls",): "b"}


def test_units_are_declared_for_quantities_only() -> None:
    with pytest.raises(ValidationError, match="units are for quantity relations"):
        RelationSpec(
            name="rules",
            label="rules",
            category="active_verb",
            positive="{s} rules {o}.",
            negative="{s} does not rule {o}.",
            question="Does {s} rule {o}?",
            units=("people",),
        )


NOUNS = {("official", "tongue"): "tongue", ("harbour",): "harbour"}


@pytest.mark.parametrize(
    ("sentence", "read"),
    [
        ("Orvin has three official tongues.", ("Orvin", 3, "tongue")),
        ("Orvin has 2 harbours.", ("Orvin", 2, "harbour")),
        ("Orvin has one harbour.", ("Orvin", 1, "harbour")),
        ("Orvin has about three official tongues.", None),  # no exact count
        ("Orvin has three ships.", None),  # no declared label
        ("Orvin built three harbours.", None),  # not "have"
    ],
)
def test_a_count_of_a_declared_noun_is_read(sentence: str, read: tuple[str, int, str] | None) -> None:
    doc = nlp()(sentence)
    got = counted(doc, mentions(doc, NAMES.__contains__, frozenset()), NOUNS, _can)
    assert (None if got is None else (got[0].text, got[1], got[2])) == read


@pytest.mark.parametrize(
    ("label", "plural"),
    [("official language", "official languages"), ("currency", "currencies"), ("day", "days"), ("box", "boxes")],
)
def test_a_label_is_put_in_the_plural(label: str, plural: str) -> None:
    assert verbalize_plural(label) == plural
