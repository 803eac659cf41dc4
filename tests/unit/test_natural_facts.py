"""One fact's natural forms (`generate/natural/clauses.fact_forms`) for every relation of the catalog (pure)."""

from __future__ import annotations

import pytest

from drowzee_core.generate.natural.clauses import fact_forms
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import RelationSpec, ValueKind
from drowzee_core.kb.template_regex import fill

CATALOG = Catalog.from_toml()


# ---------------------------------------------------------------------- forms of one fact
def texts(relation: str, s: str, o: str, unique: bool = False, entity: bool = True) -> set[str]:
    spec = CATALOG.get(relation)
    inverse = CATALOG.get(spec.inverse_of) if spec.inverse_of else None
    return {f.text for f in fact_forms(spec, s, o, inverse, unique, entity)}


@pytest.mark.parametrize(
    ("relation", "s", "o", "unique", "entity", "expected"),
    [
        (
            "discovered_by",
            "Polonium",
            "Marie Curie",
            False,
            True,
            {"Polonium was discovered by Marie Curie", "Marie Curie discovered Polonium"},
        ),
        (
            "proved_by",
            "Fermat's Last Theorem",
            "Wiles",
            False,
            True,
            {"Fermat's Last Theorem was proved by Wiles", "Wiles proved Fermat's Last Theorem"},
        ),
        (
            "has_capital",
            "France",
            "Paris",
            True,
            True,
            {"The capital of France is Paris", "Paris is the capital of France", "France's capital is Paris"},
        ),
        (
            "has_capital",
            "France",
            "Paris",
            False,
            True,
            {"The capital of France is Paris", "Paris is the capital of France"},
        ),
        (
            "shares_border_with",
            "France",
            "Spain",
            False,
            True,
            {"France shares a border with Spain", "Spain shares a border with France"},
        ),
        ("located_in", "Lyon", "France", False, True, {"Lyon is located in France", "France contains Lyon"}),
        (
            "born_in_year",
            "Abel",
            "1802",
            True,
            False,
            {
                "Abel was born in 1802",
                "Abel was born in the year 1802",
                "Abel was born back in 1802",
                "The year of birth of Abel is 1802",
                "Abel's year of birth is 1802",
            },
        ),
        (
            "population",
            "France",
            "67 million",
            True,
            False,
            {"The population of France is 67 million", "France's population is 67 million"},
        ),
    ],
)
def test_fact_forms(relation: str, s: str, o: str, unique: bool, entity: bool, expected: set[str]) -> None:
    assert texts(relation, s, o, unique, entity) == expected


@pytest.mark.parametrize("spec", list(CATALOG), ids=lambda spec: spec.name)
def test_every_form_of_every_relation_names_both_sides(spec: RelationSpec) -> None:
    """A form may move the subject and the object, never drop one (a fact stays the same fact)."""
    inverse = CATALOG.get(spec.inverse_of) if spec.inverse_of else None
    entity = spec.object_kind == ValueKind.ENTITY
    for unique in (False, True):
        forms = fact_forms(spec, "Subj Ect", "Obj Ect", inverse, unique, entity)
        assert forms[0].text == fill(spec.positive, "Subj Ect", "Obj Ect").rstrip(".")
        for form in forms:
            assert "Subj Ect" in form.text and "Obj Ect" in form.text, form
            assert form.lead is None or form.text.startswith(form.lead), form
            assert form.tail is None or form.text.endswith(form.tail), form
