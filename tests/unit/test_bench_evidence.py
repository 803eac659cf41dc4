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
