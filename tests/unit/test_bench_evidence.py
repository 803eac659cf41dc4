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


def _verdict(decision: str, label: str, judge: str | None) -> dict[str, object]:
    seeker = [{"source": "seeker", "label": judge}] if judge else []
    return {"decision": decision, "label": label, "opinions": [{"source": "kb_check", "label": None}, *seeker]}


def test_the_evidence_ablation_calls_open_pairs_by_each_way() -> None:
    from bench.evidence_ablation import OPEN, calls

    open_ = calls(_verdict("undecided", "FACTUAL", "NON-FACTUAL"))  # the undecided label is a lean: no call
    assert open_ == {
        "rules": OPEN,
        "rules, open as unsupported": "NON-FACTUAL",
        "model": "NON-FACTUAL",
        "rules, then the model": "NON-FACTUAL",
        "verifier": OPEN,
    }
    decided = calls(_verdict("refuted", "NON-FACTUAL", "FACTUAL"))
    assert decided["rules"] == decided["rules, then the model"] == "NON-FACTUAL" and decided["model"] == "FACTUAL"
    assert calls(_verdict("undecided", "FACTUAL", None))["model"] == OPEN


def test_a_decision_the_judge_made_is_no_call_of_the_rules() -> None:
    from bench.evidence_ablation import OPEN, calls

    supported = _verdict("supported", "FACTUAL", "FACTUAL") | {"claims": [{"decided_by": "judge"}]}
    assert calls(supported)["rules"] == OPEN and calls(supported)["verifier"] == "FACTUAL"
    why = "The grounded judge finds no support for it (P(supported) 0.02, under 0.10)."
    rejected = _verdict("unsupported", "NON-FACTUAL", "NON-FACTUAL") | {"explanation": f"NON-FACTUAL. {why}"}
    assert calls(rejected)["rules"] == OPEN and calls(rejected)["verifier"] == "NON-FACTUAL"
    by_reader = _verdict("unsupported", "NON-FACTUAL", "FACTUAL") | {"explanation": "It does not mention X."}
    assert calls(by_reader)["rules"] == "NON-FACTUAL"


def test_the_ablation_figures_count_an_open_pair_out_of_the_decided_and_wrong_overall() -> None:
    from bench.evidence_ablation import OPEN, ablation, figures

    f = figures(["FACTUAL", "NON-FACTUAL", "FACTUAL", "FACTUAL"], ["FACTUAL", "NON-FACTUAL", OPEN, "NON-FACTUAL"])
    assert (f["coverage"], f["decided_accuracy"], f["accuracy"]) == (0.75, pytest.approx(0.667, abs=1e-3), 0.5)
    assert f["coverage_95"][0] <= 0.75 <= f["coverage_95"][1]
    with pytest.raises(SystemExit, match="1 pairs have no verdict"):
        ablation([{"id": "a", "label": "FACTUAL"}], {})
