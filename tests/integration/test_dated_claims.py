"""Claims put in time ("in 1990", "until 2001", "since 2002"), decided by the dates the KB stores with a fact.

`agents.verifier.kb.dates.at_year`: a dated fact decides a year, a time word is its MTL formula over the
fact's periods, an undated fact says nothing of a past year, and a claim since a year takes in today.
"""

from __future__ import annotations

import pytest

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.reasoner import Reasoner

pytestmark = pytest.mark.integration


def test_a_claim_at_a_year_is_decided_by_the_dates_of_the_fact_it_derives_from() -> None:
    from agents.verifier.kb.dates import at_year
    from drowzee_core.kb.writer import KBWriter

    store = KBStore(":memory:", create=True)
    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    country, mark, euro = writer.entity("Westland"), writer.entity("Westland Mark"), writer.entity("Euro")
    writer.triple(country, "has_currency", euro, domain="test", source="test", start_year=2002)
    writer.triple(country, "has_currency", mark, domain="test", source="test", start_year=1950, end_year=2001)
    writer.triple(writer.entity("Easttown"), "located_in", country, domain="test", source="test")
    writer.flush()
    r = Reasoner(store)
    assert at_year(r, "Westland", "uses_currency", "Euro", 2010).status == "supported"
    refuted = at_year(r, "Westland", "uses_currency", "Euro", 1990)
    assert refuted.status == "contradicted" and refuted.proof is not None and refuted.proof.rule == "at_year"
    # through a town's country: the premises' dates are not joined, so no year is decided
    assert at_year(r, "Easttown", "uses_currency", "Euro", 1990).status == "unknown"


@pytest.mark.parametrize(
    ("obj", "time", "year", "status"),
    [
        ("Westland Mark", "until", 2001, "supported"),
        ("Westland Mark", "until", 1980, "contradicted"),
        ("Euro", "until", 2010, "contradicted"),  # still used: it never stopped
        ("Euro", "since", 2002, "supported"),
        ("Euro", "since", 1990, "contradicted"),
        ("Westland Mark", "before", 1960, "supported"),
        ("Euro", "before", 1990, "contradicted"),
        ("Euro", "by", 2002, "supported"),
        ("Westland Mark", "after", 2005, "contradicted"),
        ("Euro", "after", 2005, "supported"),
    ],
)
def test_a_time_word_is_the_mtl_formula_over_the_facts_dated_periods(
    obj: str, time: str, year: int, status: str
) -> None:
    from agents.verifier.kb.dates import at_year
    from drowzee_core.kb.writer import KBWriter
    from drowzee_core.records.enums import TimeWord

    store = KBStore(":memory:", create=True)
    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    country, mark, euro = writer.entity("Westland"), writer.entity("Westland Mark"), writer.entity("Euro")
    writer.triple(country, "has_currency", euro, domain="test", source="test", start_year=2002)
    writer.triple(country, "has_currency", mark, domain="test", source="test", start_year=1950, end_year=2001)
    writer.triple(country, "has_capital", writer.entity("Westburg"), domain="test", source="test")
    writer.flush()
    r = Reasoner(store)
    d = at_year(r, "Westland", "uses_currency", obj, year, time=TimeWord(time))
    assert d.status == status, d
    assert d.proof is not None and "MTL" in d.proof.text and d.proof.premises[0].rule == "fact"
    denied = at_year(r, "Westland", "uses_currency", obj, year, negated=True, time=TimeWord(time))
    assert denied.status == ("contradicted" if status == "supported" else "supported")
    # an undated fact says nothing of a time word's year
    assert at_year(r, "Westland", "has_capital", "Westburg", 1990, time=TimeWord(time)).status == "unknown"


def test_a_claim_since_a_year_is_refuted_by_what_the_kb_refutes_today() -> None:
    from agents.verifier.kb.dates import at_year
    from drowzee_core.kb.writer import KBWriter
    from drowzee_core.records.enums import TimeWord

    # Northland's currency list is complete (the catalog declares currencies so) and undated: today's
    store = KBStore(":memory:", create=True)
    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    country, crown = writer.entity("Northland"), writer.entity("Northland Crown")
    writer.triple(country, "has_currency", crown, domain="test", source="test")
    writer.triple(writer.entity("Southland"), "has_currency", writer.entity("Euro"), domain="test", source="test")
    writer.flush()
    r = Reasoner(store)
    assert r.prove("Northland", "uses_currency", "Euro").status == "contradicted"
    since = at_year(r, "Northland", "uses_currency", "Euro", 2002, time=TimeWord.SINCE)
    assert since.status == "contradicted" and since.proof is not None and "today" in since.proof.text
    # "until 2002" and "in 1990" say nothing of today: the undated list does not reach them
    assert at_year(r, "Northland", "uses_currency", "Euro", 2002, time=TimeWord.UNTIL).status == "unknown"
    assert at_year(r, "Northland", "uses_currency", "Euro", 1990).status == "unknown"
    # a denial since a year is not decided by today alone
    assert at_year(r, "Northland", "uses_currency", "Euro", 2002, negated=True, time=TimeWord.SINCE).status == "unknown"
