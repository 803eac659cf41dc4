"""bench/evidence_reading.py's arithmetic: balanced accuracy, its interval, the one-line coverage rule."""

from __future__ import annotations

import pytest

from bench.evidence_reading import bacc, coverage_rule_scores, interval


def test_balanced_accuracy_weighs_both_classes_and_a_missing_class_counts_once() -> None:
    gold = [True, True, True, False]
    assert bacc(gold, [True, True, True, True]) == pytest.approx(0.5)
    assert bacc(gold, [True, True, False, False]) == pytest.approx((2 / 3 + 1) / 2)
    assert bacc([True, True], [True, False]) == pytest.approx(0.5)


def test_the_interval_brackets_the_value_and_is_reproducible() -> None:
    gold = [True, False] * 20
    pred = [True, False] * 15 + [False, True] * 5
    low, high = interval(gold, pred)
    assert low <= bacc(gold, pred) <= high and (low, high) == interval(gold, pred)


def test_the_coverage_rule_counts_response_words_absent_from_evidence_and_query() -> None:
    rows = [
        {
            "query": "Who painted the ceiling?",
            "response": "Michelangelo painted it",
            "evidence": ["Michelangelo painted frescoes."],
        },
        {"query": "", "response": "Raphael sculpted marble", "evidence": ["Michelangelo painted frescoes."]},
    ]
    assert coverage_rule_scores(rows) == [0.0, 1.0]


def test_each_miss_gets_one_cause_from_its_own_reading() -> None:
    from bench.evidence_misses import by_cause, cause

    def reading(gold: str, decision: str, reason: str = "", hard: float = 0.0) -> dict[str, object]:
        return {"gold": gold, "decision": decision, "reason": reason, "scores": {"hard_missing": hard}}

    assert cause(reading("FACTUAL", "supported")) is None
    assert cause(reading("NON-FACTUAL", "refuted")) is None
    assert cause(reading("NON-FACTUAL", "supported")) == "NON-FACTUAL supported"
    assert cause(reading("FACTUAL", "refuted")) == "false conflict"
    assert cause(reading("FACTUAL", "not enough info", "nothing to match")) == "nothing read"
    assert cause(reading("FACTUAL", "not enough info", "the evidence does not mention 1912", 1)) == (
        "name or number not found"
    )
    assert cause(reading("FACTUAL", "not enough info", "the evidence does not mention sank")) == (
        "words not found (paraphrase)"
    )
    table = by_cause([{"set": "s", "readings": [reading("FACTUAL", "refuted"), reading("FACTUAL", "supported")]}])
    assert table["s"]["false conflict"] == 1 and sum(table["s"].values()) == 1
