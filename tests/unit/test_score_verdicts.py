"""`drowzee score verdicts`: join by id, label figures with baselines, ExpMatch, graph-oracle similarity."""

from __future__ import annotations

from typing import Any

import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.oracles.decisions import OLDER
from drowzee_core.oracles.factchd_metrics import exp_match
from drowzee_core.oracles.verdicts import score_verdicts, truth_texts

GT = {
    "claims": [
        {"subject": "wd:Q1", "relation": "born_in_year", "object": "num:1901", "text": "Hirohito was born in 1901."}
    ]
}


def _pair(i: int, label: str, pattern: str) -> dict[str, Any]:
    return {"id": f"p{i}", "label": label, "pattern": pattern, "reason": f"{label}.\nbecause {i}", "ground_truth": GT}


def _verdict(i: int, label: str, degraded: bool = False) -> dict[str, Any]:
    return {"id": f"p{i}", "verdict": {"label": label, "explanation": f"{label}.\nbecause {i}", "degraded": degraded}}


def test_figures_baselines_and_similarity() -> None:
    pairs = [_pair(0, "FACTUAL", "a"), _pair(1, "NON-FACTUAL", "a"), _pair(2, "NON-FACTUAL", "b")]
    pairs.append(_pair(3, "FACTUAL", "b"))
    verdicts = [_verdict(0, "FACTUAL"), _verdict(1, "NON-FACTUAL"), _verdict(2, "FACTUAL", degraded=True)]
    verdicts.append(_verdict(3, "FACTUAL") | {"verdict": {"label": "FACTUAL", "explanation": "Quite other words."}})
    seen: list[list[str]] = []

    def similarity(explanation: str, truth: list[str]) -> tuple[float, float]:
        seen.append(truth)
        return 0.5, 0.25

    judged, typed = score_verdicts([*pairs, *verdicts], similarity)
    rows, summary = [r.model_dump() for r in judged], typed.model_dump()  # as the files have them
    assert typed.overall.verifier.num == 4 and typed.by_pattern is not None and typed.by_source is None
    assert "by_source" not in summary and all("node_sim" in r for r in rows)
    assert [r["parsed_label"] for r in rows] == ["FACTUAL", "NON-FACTUAL", "FACTUAL", "FACTUAL"]
    overall = summary["overall"]
    assert overall["verifier"]["acc"]["value"] == pytest.approx(0.75)
    assert overall["degraded"] == 1 and overall["errors"] == 0
    assert {b["name"] for b in overall["baselines"]} >= {"always FACTUAL", "always NON-FACTUAL"}
    assert overall["graph_oracle"] == {"rows": 4, "node_sim": 0.5, "edge_sim": 0.25}
    assert set(summary["by_pattern"]) == {"a", "b"}
    assert summary["by_pattern"]["a"]["verifier"]["acc"]["value"] == pytest.approx(1.0)
    assert seen[0] == ["Hirohito was born in 1901."]
    assert rows[0]["exp_match"] == pytest.approx(round(exp_match(pairs[0]["reason"], pairs[0]["reason"]), 5))
    assert rows[3]["exp_match"] < rows[0]["exp_match"]


def test_join_says_what_is_wrong() -> None:
    with pytest.raises(DrowzeeError, match="have no verdict"):
        score_verdicts([_pair(0, "FACTUAL", "a"), _pair(1, "FACTUAL", "a"), _verdict(0, "FACTUAL")])
    with pytest.raises(DrowzeeError, match="name no pair"):
        score_verdicts([_pair(0, "FACTUAL", "a"), _verdict(0, "FACTUAL"), _verdict(9, "FACTUAL")])
    with pytest.raises(DrowzeeError, match="give the pairs file and the verdicts file"):
        score_verdicts([_pair(0, "FACTUAL", "a")])


def test_truth_texts_of_a_pair_without_ground_truth_is_empty() -> None:
    assert truth_texts({"id": "x"}) == []


def test_figures_per_decision_and_older_verdicts_without_one() -> None:
    pairs = [_pair(i, "FACTUAL" if i % 2 else "NON-FACTUAL", "a") for i in range(6)]
    verdicts = [
        _verdict(0, "NON-FACTUAL") | {"verdict": {"label": "NON-FACTUAL", "decision": "refuted"}},
        _verdict(1, "FACTUAL") | {"verdict": {"label": "FACTUAL", "decision": "supported"}},
        _verdict(2, "FACTUAL") | {"verdict": {"label": "FACTUAL", "decision": "undecided"}},
        _verdict(3, "FACTUAL") | {"verdict": {"label": "FACTUAL", "decision": "undecided"}},
        _verdict(4, "NON-FACTUAL"),  # written before verdicts recorded a decision
        {"id": "p5", "error": "in:6: missing field 'response'"},
    ]
    judged, typed = score_verdicts([*pairs, *verdicts])
    rows, summary = [r.model_dump() for r in judged], typed.model_dump()
    assert "graph_oracle" not in summary["overall"] and not any("node_sim" in r for r in rows)  # no similarity given
    assert [r["decision"] for r in rows] == ["refuted", "supported", "undecided", "undecided", OLDER, "error"]
    figs = summary["overall"]["decisions"]
    assert figs["decisions"] == {"supported": 1, "refuted": 1, "unsupported": 0, "undecided": 2, OLDER: 1, "error": 1}
    assert figs["coverage"]["value"] == 0.5 and figs["coverage"]["n"] == 4
    assert figs["accuracy"]["decided"]["verifier"]["value"] == 1.0
    assert figs["accuracy"]["undecided"]["verifier"]["value"] == 0.5
    assert figs["accuracy"]["all"]["verifier"]["value"] == pytest.approx(round(4 / 6, 4))
    assert summary["by_pattern"]["a"]["decisions"] == figs
