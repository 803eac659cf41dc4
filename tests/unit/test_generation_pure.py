"""Pure parts of test generation: splits, question forms, reasoning sentences, dedupe, JSONL writing."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate import templates_kb
from drowzee_core.generate.dedupe import keep_distinct
from drowzee_core.generate.splits import SplitPlan
from drowzee_core.kb.catalog import Catalog
from drowzee_core.logic.explain import label_proof, reasoning_lines

CATALOG = Catalog.from_toml()


def test_entity_splits_are_deterministic_and_near_their_shares() -> None:
    plan = SplitPlan(seed=3)
    keys = [f"e{i}" for i in range(20_000)]
    first = [plan.entity_split(k) for k in keys]
    assert first == [SplitPlan(seed=3).entity_split(k) for k in keys]
    share = Counter(first)
    assert abs(share["train"] / 20_000 - 0.8) < 0.02 and abs(share["test"] / 20_000 - 0.1) < 0.02
    assert first != [SplitPlan(seed=4).entity_split(k) for k in keys]


def test_a_case_straddling_splits_has_none_and_hubs_are_exempt() -> None:
    plan = SplitPlan(seed=0, hubs=frozenset({"continent:EU"}))
    by_split: dict[str, list[str]] = {}
    for i in range(200):
        by_split.setdefault(plan.entity_split(f"k{i}"), []).append(f"k{i}")
    a, b = by_split["train"][0], by_split["test"][0]
    assert plan.case_split([a, b]) is None
    assert plan.case_split([b, "continent:EU"]) == "test"
    assert plan.admits("continent:EU", "dev") and not plan.admits(a, "test")
    with pytest.raises(DrowzeeError, match="sum to 1"):
        SplitPlan(shares=(0.5, 0.5, 0.5))


def test_question_forms_flip_the_answer() -> None:
    spec = CATALOG.get("located_in")
    assert templates_kb.question(spec, "Lyon", "France", "positive") == "Is Lyon located in France?"
    assert templates_kb.question(spec, "Lyon", "France", "negated") == "Is it true that Lyon is not located in France?"
    assert templates_kb.question(spec, "Lyon", "France", "antonym") == "Is it true that Lyon lies outside France?"
    cap = CATALOG.get("has_capital")
    negated = templates_kb.question(cap, "France", "Paris", "negated")
    assert negated == "Is it true that the capital of France is not Paris?"
    assert [templates_kb.answer("supported", f) for f in templates_kb.FORMS] == ["Yes", "No", "No"]
    assert [templates_kb.answer("contradicted", f) for f in templates_kb.FORMS] == ["No", "Yes", "Yes"]
    with pytest.raises(ValueError, match="only proved"):
        templates_kb.answer("unknown", "positive")
    with pytest.raises(ValueError, match="no antonym"):
        templates_kb.question(cap, "France", "Paris", "antonym")


def test_reasoning_lines_state_premises_then_each_rule() -> None:
    proof = {
        "rule": "transitive",
        "fact": ["Lyon", "located_in", "Europe"],
        "text": "Lyon is located in Europe.",
        "premises": [
            {"rule": "fact", "fact": ["Lyon", "located_in", "France"], "text": "Lyon is located in France."},
            {"rule": "fact", "fact": ["France", "located_in", "Europe"], "text": "France is located in Europe."},
        ],
    }
    assert reasoning_lines(proof, CATALOG) == [
        "Lyon is located in France.",
        "France is located in Europe.",
        "Since the relation 'located in' is transitive, Lyon is located in Europe.",
    ]
    neg = {
        "rule": "negation_functional",
        "fact": ["France", "has_capital", "Berlin"],
        "text": "The capital of France is not Berlin.",
        "premises": [
            {"rule": "fact", "fact": ["France", "has_capital", "Paris"], "text": "The capital of France is Paris."}
        ],
    }
    assert reasoning_lines(neg, CATALOG)[-1] == (
        "Since 'capital' has only one value for France, the capital of France is not Berlin."
    )


def test_a_partition_proof_says_why_in_words() -> None:
    names = {1: "located_in", 2: "contains", 3: "member_of"}
    member = [{"rule": "fact", "fact": [e, 3, 9]} for e in (8, 7)]
    raw = {"rule": "negation_partition", "fact": [7, 2, 8], "premises": member}
    proof = label_proof(raw, {7: "Brazil", 8: "Germany", 9: "United Nations"}, names, CATALOG, {})
    assert proof is not None
    assert reasoning_lines(proof, CATALOG) == [
        "Germany is a member of United Nations.",
        "Brazil is a member of United Nations.",
        "Since nothing is located in more than one member of United Nations and no member is located in another,"
        " Brazil does not contain Germany.",
    ]


def test_keep_distinct_drops_near_duplicates_of_kept_rows() -> None:
    v = np.array([[1, 0, 0], [0.999, 0.0447, 0], [0, 1, 0], [0, 0, 1], [0, 0.05, 0.9987]], dtype=np.float32)
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    assert keep_distinct(v, 0.95) == [0, 2, 3]
    assert keep_distinct(v, 0.95, block=2) == [0, 2, 3]
    assert keep_distinct(v, 1.0) == [0, 1, 2, 3, 4]
    with pytest.raises(DrowzeeError):
        keep_distinct(v, 0.0)
