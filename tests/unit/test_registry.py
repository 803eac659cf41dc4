from __future__ import annotations

import pytest

from drowzee_core.errors import DrowzeeError, RegistryError
from drowzee_core.generate.registry import GENERATORS
from drowzee_core.logic.kb_formats import LOADERS
from drowzee_core.oracles.registry import EXTRACTORS, SCORERS, ScoreOptions
from drowzee_core.registry import Registry


def test_registry_names_producers_and_errors() -> None:
    reg: Registry[int] = Registry("widget", prefix="make")
    assert reg.add("b", 2, " Second. ") == 2
    reg.add("a", 1, "First.")
    assert reg.names() == ("a", "b") and [e.name for e in reg] == ["a", "b"] and len(reg) == 2
    assert reg.get("a") == 1 and reg.producer("b") == "make.b" and reg.descriptions() == {"a": "First.", "b": "Second."}
    assert "a" in reg and "c" not in reg
    with pytest.raises(RegistryError, match=r"unknown widget 'c'; known: a, b"):
        reg.get("c")
    with pytest.raises(RegistryError, match="registered twice"):
        reg.add("a", 3, "Again.")
    with pytest.raises(RegistryError, match="needs a description"):
        reg.add("d", 4, "  ")
    with pytest.raises(RegistryError, match="surrounding spaces"):
        reg.add(" e", 5, "Spaced.")
    bare: Registry[int] = Registry("thing")
    bare.add("x", 0, "X.")
    assert bare.producer("x") == "x"
    assert issubclass(RegistryError, DrowzeeError)


def test_project_registries_hold_the_documented_names() -> None:
    assert GENERATORS.names() == ("drowzee-qa", "erbench", "factchd", "judge", "temporal")
    assert [GENERATORS.producer(n) for n in GENERATORS.names()] == [
        "generate.drowzee-qa",
        "generate.erbench",
        "generate.factchd",
        "generate.judge",
        "generate.temporal",
    ]
    assert SCORERS.names() == ("drowzee", "erbench", "factchd", "verdicts")
    assert SCORERS.producer("drowzee") == "score.drowzee"
    assert EXTRACTORS.names() == ("llm", "spacy")
    assert LOADERS.names() == ("csv", "jsonl", "prolog", "wikidata-json")
    assert all(e.description.endswith(".") for r in (GENERATORS, SCORERS, EXTRACTORS, LOADERS) for e in r)
    assert "answer" in GENERATORS.get("drowzee-qa").count_keys and "label" in GENERATORS.get("factchd").count_keys


def test_score_options_check_their_values() -> None:
    with pytest.raises(RegistryError, match="known: llm, spacy"):
        ScoreOptions(extractor="regex")
    with pytest.raises(DrowzeeError, match=r"`match_threshold` must be in \[0, 1\], got 1.5"):
        ScoreOptions(match_threshold=1.5)


def test_factchd_scorer_runs_through_the_registry() -> None:
    rows = [
        {"label": "FACTUAL", "reason": "FACTUAL. Paris is in France.", "prediction": "FACTUAL. Paris is in France."},
        {"label": "NON-FACTUAL", "reason": "NON-FACTUAL. Lyon is not a capital.", "prediction": "FACTUAL. Yes."},
    ]
    judged, summary = SCORERS.get("factchd")(rows, ScoreOptions(), None)
    assert [j["parsed_label"] for j in judged] == ["FACTUAL", "FACTUAL"]
    assert summary  # its shape is the scorer's (tests/unit/test_oracles_pure.py)


@pytest.mark.parametrize(
    "package",
    [
        "drowzee_core",
        "drowzee_core.kb",
        "drowzee_core.kb.loaders",
        "drowzee_core.kb.sources",
        "drowzee_core.logic",
        "drowzee_core.generate",
        "drowzee_core.oracles",
        "drowzee_core.llm",
        "cli",
        "agents",
        "finetune",
        "prompts",
    ],
)
def test_package_public_api_resolves(package: str) -> None:
    import importlib

    mod = importlib.import_module(package)
    assert mod.__doc__ and mod.__doc__.strip().splitlines()[0].endswith((".", ":"))
    assert mod.__all__ == sorted(set(mod.__all__), key=mod.__all__.index)  # no duplicates
    for name in mod.__all__:
        assert getattr(mod, name) is not None, f"{package}.{name}"
    with pytest.raises(AttributeError):
        mod.no_such_name  # noqa: B018
