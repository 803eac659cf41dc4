"""Per-decision figures (`drowzee_core.oracles.decisions`): counts, coverage, accuracy per subset, older rows."""

from __future__ import annotations

import pytest

from drowzee_core.oracles.decisions import (
    DECISION_COLUMNS,
    ERROR,
    OLDER,
    counts_line,
    coverage_line,
    decision_figures,
    decision_of,
    decision_rows,
    lean_of,
    show_interval,
)
from drowzee_core.records.enums import Label
from drowzee_core.records.summaries import JudgedLabel
from drowzee_core.records.verdict import Decision, Verdict

F, N = "FACTUAL", "NON-FACTUAL"


def row(gold: str, said: str, decision: str | None) -> JudgedLabel:
    return JudgedLabel(gold_label=gold, parsed_label=said, decision=decision)


def rows() -> list[JudgedLabel]:
    """5 decided (all right), 5 undecided (1 right), 1 older verdict (right), 1 error row."""
    return [
        *[row(F, F, "supported")] * 3,
        *[row(N, N, "refuted")] * 2,
        *[row(N, F, "undecided")] * 4,
        row(F, F, "undecided"),
        row(F, F, None),
        row(F, "", ERROR),
    ]


def test_counts_coverage_and_accuracy_per_subset() -> None:
    figs = decision_figures(rows()).model_dump()
    assert figs["rows"] == 12
    assert figs["decisions"] == {
        "supported": 3,
        "refuted": 2,
        "unsupported": 0,
        "undecided": 5,
        OLDER: 1,
        ERROR: 1,
    }
    cov = figs["coverage"]
    assert (cov["value"], cov["n"]) == (0.5, 10)  # older and error rows have no decision to count
    assert cov["low"] is not None and cov["low"] < 0.5 < cov["high"]
    acc = figs["accuracy"]
    assert acc["decided"]["verifier"] == {"value": 1.0, "low": 1.0, "high": 1.0, "n": 5}  # [v, v]: no spread
    assert acc["decided"]["always_factual"]["value"] == pytest.approx(0.6)
    assert acc["decided"]["always_non_factual"]["value"] == pytest.approx(0.4)
    assert acc["undecided"]["verifier"]["value"] == pytest.approx(0.2)
    assert acc["undecided"]["always_non_factual"]["value"] == pytest.approx(0.8)
    assert acc["all"]["verifier"]["value"] == pytest.approx(round(7 / 12, 4))  # the error row is wrong
    assert acc["all"]["always_factual"]["n"] == 12
    for subset in acc.values():
        for fig in subset.values():
            assert fig["low"] <= fig["value"] <= fig["high"]


def test_intervals_are_paired_and_reproducible() -> None:
    assert decision_figures(rows()) == decision_figures(rows())


def test_few_rows_give_values_without_intervals_and_none_without_rows() -> None:
    one = decision_figures([row(F, F, "supported")]).model_dump()
    assert one["coverage"] == {"value": 1.0, "low": None, "high": None, "n": 1}
    assert one["accuracy"]["undecided"]["verifier"] == {"value": None, "low": None, "high": None, "n": 0}
    # a file written before verdicts had decisions
    older = decision_figures([row(F, F, None), row(N, F, None)]).model_dump()
    assert older["decisions"][OLDER] == 2 and older["coverage"]["value"] is None
    assert older["accuracy"]["all"]["verifier"]["value"] == 0.5


def test_decision_of_records() -> None:
    assert decision_of({"label": F, "decision": "unsupported"}) == "unsupported"
    assert decision_of({"label": F}) == OLDER
    assert decision_of({"label": F, "decision": "maybe"}) == OLDER
    assert decision_of(None) == ERROR


def test_words_and_table_rows() -> None:
    figs = decision_figures(rows()).model_dump()
    assert counts_line(figs["decisions"]) == (
        "3 supported, 2 refuted, 0 unsupported, 5 undecided, 1 unknown (older verdict), 1 error"
    )
    assert counts_line({"undecided": 2}) == "0 supported, 0 refuted, 0 unsupported, 2 undecided"
    assert coverage_line(figs).startswith("coverage (share of rows decided): 0.500 [")
    table = decision_rows(figs)
    assert [r[0] for r in table] == ["decided rows", "undecided rows", "all rows"]
    assert all(len(r) == len(DECISION_COLUMNS) for r in table)
    assert table[0][:3] == ("decided rows", "5", "1.000 [1.000, 1.000]")
    assert show_interval({"value": 0.5, "low": None, "high": None}) == "0.500"
    assert show_interval({"value": None}) == "-"


def _undecided(label: Label, lean: Label, confidence: float) -> Verdict:
    return Verdict(decision=Decision.UNDECIDED, label=label, lean=lean, confidence=confidence, explanation=f"{label}.")


def test_lean_of_an_undecided_verdict() -> None:
    assert lean_of(_undecided(Label.FACTUAL, Label.FACTUAL, 0.58)) == (Label.FACTUAL, 0.58)
    assert lean_of(_undecided(Label.NON_FACTUAL, Label.FACTUAL, 0.35)) == (Label.FACTUAL, 0.65)
    assert lean_of(_undecided(Label.FACTUAL, Label.NON_FACTUAL, 0.2)) == (Label.NON_FACTUAL, 0.7)  # capped
