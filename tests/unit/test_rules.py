from __future__ import annotations

import re

import pytest

from drowzee_core.errors import CatalogError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.logic.rules import compile_catalog

BASE = {"category": "noun_phrase", "positive": "{s} r {o}.", "negative": "{s} not r {o}.", "question": "{s} r {o}?"}


def _catalog() -> Catalog:
    return Catalog.from_dict(
        {
            "relation": [
                {"name": "loc", "label": "l", **BASE, "transitive": True, "inverse_of": "has", "partition": "country"},
                {"name": "has", "label": "h", **BASE, "inverse_of": "loc"},
                {"name": "border", "label": "b", **BASE, "symmetric": True},
                {"name": "cap", "label": "c", **BASE, "functional": True},
                {"name": "same", "label": "s", **BASE, "symmetric": True},
                {"name": "mum", "label": "m", **BASE, "functional": True, "disjoint_with": ["dad"]},
                {"name": "dad", "label": "d", **BASE, "functional": True},
            ],
            "composite": [{"name": "chain", "first": "loc", "second": "cap", "result": "cap"}],
            "same_object": [{"relation": "cap", "result": "same"}],
        }
    )


@pytest.mark.parametrize(
    ("fact", "present"),
    [
        (("transitive", (1,)), True),
        (("inverse", (1, 2)), True),
        (("inverse", (2, 1)), True),
        (("symmetric", (3,)), True),
        (("functional", (4,)), True),
        (("composite", (1, 1, 4, 4)), True),
        (("same_object", (4, 5)), True),
        (("disjoint", (6, 7)), True),
        (("disjoint", (7, 6)), True),
        (("symmetric", (1,)), False),
        (("transitive", (2,)), False),
    ],
)
def test_compiled_facts(fact: tuple[str, tuple[int, ...]], present: bool) -> None:
    ids = {"loc": 1, "has": 2, "border": 3, "cap": 4, "same": 5, "mum": 6, "dad": 7}
    rules = compile_catalog(_catalog(), ids)
    assert (fact in rules.facts) is present
    assert rules.composite_names == {1: "chain"}


def test_program_text_holds_integers_only() -> None:
    ids = {"loc": 1, "has": 2, "border": 3, "cap": 4, "same": 5, "mum": 6, "dad": 7}
    text = compile_catalog(_catalog(), ids).program()
    for line in text.splitlines():
        assert re.fullmatch(r"drowzee:[a-z_]+\((\d+)(, \d+)*\)\.", line), line


def test_missing_relation_id_is_an_error() -> None:
    with pytest.raises(CatalogError, match="has no id"):
        compile_catalog(_catalog(), {"loc": 1})


def test_disjoint_relations_are_checked_and_listed_once() -> None:
    assert _catalog().disjoint_pairs() == [("mum", "dad")]
    for bad, match in (({"disjoint_with": ["nope"]}, "names 'nope'"), ({"disjoint_with": ["x"]}, "itself")):
        with pytest.raises(CatalogError, match=match):
            Catalog.from_dict({"relation": [{"name": "x", "label": "x", **BASE, **bad}]})


def test_a_kb_catalog_extended_with_the_bundled_one_keeps_its_own_specs() -> None:
    own = Catalog.from_dict({"relation": [{"name": "cap", "label": "own label", **BASE}]})
    both = own.extended_with(_catalog())
    assert both.get("cap").label == "own label" and "mum" in both and len(both) == len(_catalog())
    assert both.extended_with(own) is both


def test_partition_cells_are_compiled_for_a_partitioned_relation_only() -> None:
    ids = {"loc": 1, "has": 2, "border": 3, "cap": 4, "same": 5, "mum": 6, "dad": 7}
    facts = compile_catalog(_catalog(), ids, {"loc": [10, 11]}).facts
    assert [f for f in facts if f[0] == "partition"] == [("partition", (1, 10)), ("partition", (1, 11))]
    with pytest.raises(CatalogError, match="declares no partition"):
        compile_catalog(_catalog(), ids, {"border": [10]})


@pytest.mark.parametrize("prefix", ["Country", "country:", "", "a b"])
def test_a_partition_prefix_is_a_plain_key_prefix(prefix: str) -> None:
    with pytest.raises(CatalogError):
        Catalog.from_dict({"relation": [{"name": "loc", "label": "l", **BASE, "partition": prefix}]})
