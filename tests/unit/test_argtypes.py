"""Which stored facts type a relation's subject and object, read from the catalog's rules (pure)."""

from __future__ import annotations

import pytest

from drowzee_core.kb.argtypes import argument_types
from drowzee_core.kb.catalog import Catalog


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_toml()


def test_a_relation_with_facts_is_typed_by_its_own_ends(catalog: Catalog) -> None:
    t = argument_types(catalog, "has_currency")
    assert t.subject == {("has_currency", "s")} and t.object == {("has_currency", "o")}


def test_a_composite_takes_its_first_relations_subjects_and_its_seconds_objects(catalog: Catalog) -> None:
    t = argument_types(catalog, "uses_currency")  # located_in then has_currency
    assert ("located_in", "s") in t.subject and ("has_currency", "o") in t.object
    assert ("has_currency", "o") not in t.subject and ("located_in", "s") not in t.object


def test_an_inverse_swaps_the_ends(catalog: Catalog) -> None:
    t = argument_types(catalog, "contains")  # the inverse of located_in
    assert ("located_in", "o") in t.subject and ("located_in", "s") in t.object


def test_a_same_object_result_is_typed_by_the_shared_relations_subjects_on_both_sides(catalog: Catalog) -> None:
    t = argument_types(catalog, "same_currency_as")
    assert ("has_currency", "s") in t.subject and ("has_currency", "s") in t.object
    assert ("has_currency", "o") not in t.object  # a currency shares no currency


def test_a_composite_into_its_own_first_relation_terminates(catalog: Catalog) -> None:
    t = argument_types(catalog, "occupation")  # occupation then is_a -> occupation
    assert ("occupation", "s") in t.subject and ("is_a", "o") in t.object
