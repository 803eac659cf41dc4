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
                {
                    "name": "loc",
                    "label": "l",
                    **BASE,
                    "transitive": True,
                    "inverse_of": "has",
                    "partition": "org:un",
                },
                {"name": "has", "label": "h", **BASE, "inverse_of": "loc"},
                {"name": "border", "label": "b", **BASE, "symmetric": True},
                {"name": "cap", "label": "c", **BASE, "functional": True, "irreflexive": True},
                {"name": "same", "label": "s", **BASE, "symmetric": True},
                {"name": "mum", "label": "m", **BASE, "functional": True, "disjoint_with": ["dad"]},
                {"name": "dad", "label": "d", **BASE, "functional": True},
                {"name": "member_of", "label": "i", **BASE},
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
        (("irreflexive", (4,)), True),
        (("irreflexive", (3,)), False),
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


def test_a_partition_is_compiled_when_the_kb_holds_its_class() -> None:
    ids = {"loc": 1, "has": 2, "border": 3, "cap": 4, "same": 5, "mum": 6, "dad": 7, "member_of": 8}
    facts = compile_catalog(_catalog(), ids, {"org:un": 40}).facts
    assert [f for f in facts if f[0] == "partition"] == [("partition", (1, 8, 40))]
    assert not [f for f in compile_catalog(_catalog(), ids, {}).facts if f[0] == "partition"]


@pytest.mark.parametrize("key", ["country", "Country:x", "class: state", "", ":x"])
def test_a_partition_names_a_class_by_its_key(key: str) -> None:
    with pytest.raises(CatalogError):
        Catalog.from_dict({"relation": [{"name": "loc", "label": "l", **BASE, "partition": key}]})


def test_a_complete_relation_is_compiled_for_the_users_kb_only() -> None:
    catalog = Catalog.from_dict({"relation": [{"name": "border", "label": "b", **BASE, "complete": True}]})
    assert ("complete", (3,)) in compile_catalog(catalog, {"border": 3}).facts
    assert not [f for f in compile_catalog(catalog, {"border": 3}, closed_world=False).facts if f[0] == "complete"]


def test_a_functional_relation_is_not_declared_complete() -> None:
    with pytest.raises(CatalogError, match="complete already"):
        Catalog.from_dict({"relation": [{"name": "cap", "label": "c", **BASE, "functional": True, "complete": True}]})
