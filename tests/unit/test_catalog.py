from __future__ import annotations

import pytest

from drowzee_core.errors import CatalogError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import RelationSpec

BASE = {"category": "noun_phrase", "positive": "{s} r {o}.", "negative": "{s} not r {o}.", "question": "{s} r {o}?"}


def test_bundled_catalog_has_every_property() -> None:
    cat = Catalog.from_toml()
    assert any(r.symmetric for r in cat)
    assert any(r.transitive for r in cat)
    assert any(r.functional for r in cat)
    assert ("located_in", "contains") in cat.inverse_pairs()
    assert cat.composites and cat.same_object


@pytest.mark.parametrize(
    ("relation", "message"),
    [
        ({"name": "r", "label": "r", **BASE, "positive": "{s} only"}, "must contain {s} and {o}"),
        ({"name": "r", "label": "r", **BASE, "symmetric": True, "functional": True}, "symmetric and functional"),
        ({"name": "Bad Name", "label": "r", **BASE}, "String should match pattern"),
        ({"name": "r", "label": "r", **BASE, "inverse_of": "missing"}, "not in the catalog"),
        ({"name": "r", "label": "r", **BASE, "narrows": "missing"}, "narrows names 'missing'"),
        ({"name": "r", "label": "r", **BASE, "narrows": "r"}, "narrows names the relation itself"),
    ],
)
def test_invalid_catalogs_say_what_to_fix(relation: dict[str, object], message: str) -> None:
    with pytest.raises(CatalogError, match=message):
        Catalog.from_dict({"relation": [relation]})


def test_an_other_label_names_one_relation_only() -> None:
    raw = {
        "relation": [{"name": "a", "label": "a", **BASE, "other_labels": ["B"]}, {"name": "b", "label": "b", **BASE}]
    }
    with pytest.raises(CatalogError, match="other label 'B' names 'b' already"):
        Catalog.from_dict(raw)
    spec = Catalog.from_dict({"relation": [{"name": "a", "label": "a", **BASE, "other_labels": ["sub of"]}]}).get("a")
    assert spec.named("Sub  Of") and not spec.named("sub")


def test_composite_must_name_known_relations() -> None:
    raw = {
        "relation": [{"name": "a", "label": "a", **BASE}],
        "composite": [{"name": "c", "first": "a", "second": "b", "result": "a"}],
    }
    with pytest.raises(CatalogError, match="unknown relation 'b'"):
        Catalog.from_dict(raw)


def test_same_object_result_must_be_symmetric() -> None:
    raw = {
        "relation": [{"name": "a", "label": "a", **BASE}, {"name": "b", "label": "b", **BASE}],
        "same_object": [{"relation": "a", "result": "b"}],
    }
    with pytest.raises(CatalogError, match="symmetric"):
        Catalog.from_dict(raw)


def test_unknown_relation_error_suggests_near_names() -> None:
    with pytest.raises(CatalogError, match="located_in"):
        Catalog.from_toml().get("located")


def test_generic_relation_templates_are_valid() -> None:
    spec = RelationSpec.generic("place_of_birth", "place of birth")
    assert spec.positive.format(s="A", o="B") == "The place of birth of A is B."
