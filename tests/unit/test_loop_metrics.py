"""The closed loop's verifier-vs-oracle metrics on small hand-computed cases (pure)."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import accuracy_score, f1_score, precision_score, recall_score

from agents.loop.kinds import drowzee_answer_oracle, drowzee_oracle, erbench_oracle, factchd_oracle, ground_truth
from agents.loop.metrics import LoopRow, detection_stats, graph_oracle, loop_metrics


def row(i: int, hallucinated: bool | None, flagged: bool | None, **kw: object) -> LoopRow:
    return LoopRow(id=f"c{i}", hallucinated=hallucinated, flagged=flagged, **kw)  # type: ignore[arg-type]


# gold (hallucinated) 1 1 0 0 1, verifier flags 1 0 1 0 1: tp 2, fp 1, fn 1, tn 1
GOLD = [True, True, False, False, True]
FLAGS = [True, False, True, False, True]


def five() -> list[LoopRow]:
    rules = ["inverse", "inverse", "inverse", "negation", "negation"]
    return [row(i, g, f, rule=r, model="m") for i, (g, f, r) in enumerate(zip(GOLD, FLAGS, rules, strict=True))]


def test_detection_hand_computed() -> None:
    m = loop_metrics(five())
    o = m.overall
    assert (o.n, o.hallucinations, o.flagged) == (5, 3, 3)
    assert o.confusion == {"tp": 2, "fp": 1, "fn": 1, "tn": 1}
    v = o.verifier
    assert v is not None
    assert v.precision.value == pytest.approx(2 / 3, abs=1e-5)
    assert v.recall.value == pytest.approx(2 / 3, abs=1e-5)
    assert v.f1.value == pytest.approx(2 / 3, abs=1e-5)
    assert v.accuracy.value == pytest.approx(0.6)
    assert o.hallucination_rate is not None and o.hallucination_rate.value == pytest.approx(0.6)
    for fig in (v.precision, v.recall, v.f1, v.accuracy):
        assert fig.low <= fig.value <= fig.high
    assert m.misses == ["c1"] and m.false_alarms == ["c2"]


def test_matches_scikit_learn() -> None:
    rng = np.random.default_rng(3)
    gold, pred = rng.integers(0, 2, 40), rng.integers(0, 2, 40)
    p, r, f, a = detection_stats(pred, gold)
    assert p == pytest.approx(precision_score(gold, pred, zero_division=0))
    assert r == pytest.approx(recall_score(gold, pred, zero_division=0))
    assert f == pytest.approx(f1_score(gold, pred, zero_division=0))
    assert a == pytest.approx(accuracy_score(gold, pred))


def test_baselines_on_the_same_rows() -> None:
    always, never, majority = loop_metrics(five()).overall.baselines
    assert always.name == "always flag"
    assert (always.precision.value, always.recall.value, always.f1.value) == pytest.approx((0.6, 1.0, 0.75))
    assert always.accuracy.value == pytest.approx(0.6)
    assert (never.precision.value, never.recall.value, never.f1.value, never.accuracy.value) == (0, 0, 0, 0.4)
    assert majority.name == "majority (flag)" and majority.f1.value == pytest.approx(0.75)


def test_groups_and_exclusions() -> None:
    rows = [
        *five(),
        row(9, None, True, rule="inverse"),  # unparsed answer: no oracle label
        row(10, True, None, rule="inverse", verifier_error="bad row"),  # no verdict
        row(11, False, False, rule="negation", degraded=True, operator="Until"),
    ]
    m = loop_metrics(rows)
    assert (m.rows, m.evaluated, m.no_oracle_label, m.no_verdict, m.degraded) == (8, 6, 1, 1, 1)
    inv, neg = m.groups["rule"]["inverse"], m.groups["rule"]["negation"]
    assert (inv.n, inv.confusion) == (3, {"tp": 1, "fp": 1, "fn": 1, "tn": 0})
    assert (neg.n, neg.confusion) == (3, {"tp": 1, "fp": 0, "fn": 0, "tn": 2})
    assert neg.verifier is not None and neg.verifier.f1.value == 1.0
    until = m.groups["operator"]["Until"]  # one row: the interval is the value itself
    assert until.n == 1 and until.verifier is not None
    assert until.verifier.accuracy.low == until.verifier.accuracy.high == 1.0
    assert "domain" not in m.groups
    assert list(m.groups["model"]) == ["m"]


def test_graph_oracle_on_explanations() -> None:
    rows = [
        row(1, True, True, node_sim=0.9, edge_sim=0.85),
        row(2, True, True, node_sim=0.9, edge_sim=0.5),
        row(3, False, False, node_sim=0.3, edge_sim=0.1),
        row(4, False, False),
    ]
    g = graph_oracle(rows, threshold=0.8)
    assert (g.rows, g.node_sim, g.edge_sim, g.cites_facts) == (3, 0.7, 0.4833, 0.3333)
    assert (g.detected_rows, g.detected_cites_facts) == (2, 0.5)


def test_empty() -> None:
    m = loop_metrics([row(1, None, None)])
    assert m.evaluated == 0 and m.overall.verifier is None and m.graph_oracle.rows == 0


@pytest.mark.parametrize(
    ("judged", "expected"),
    [
        ({"parsed_answer": "yes", "class": "CO"}, False),
        ({"parsed_answer": "unsure", "class": "CO"}, False),  # "I don't know" is CO
        ({"parsed_answer": "no", "class": "OL"}, True),
        ({"parsed_answer": "no", "class": "EK"}, True),
        ({"parsed_answer": None, "class": "EK"}, None),  # unparsed: counted apart
        ({"parsed_answer": "yes", "class": None}, None),  # reasoning not readable
    ],
)
def test_drowzee_oracle(judged: dict[str, object], expected: bool | None) -> None:
    assert drowzee_oracle(judged) is expected


def test_other_oracles_and_facts() -> None:
    assert erbench_oracle({"parsed_answer": "no", "answer_correct": False}) is True
    assert erbench_oracle({"parsed_answer": "unsure", "answer_correct": False}) is False
    assert erbench_oracle({"parsed_answer": None}) is None
    assert factchd_oracle({"label": "NON-FACTUAL"}) is True and factchd_oracle({}) is None
    assert ground_truth({"facts": [("a", "r", "b")]}) == [["a", "r", "b"]]
    assert ground_truth({"evidence": [["a", "r", "b"]]}) == [["a", "r", "b"]]
    assert ground_truth({"facts": ["In 1990 X held."]}) == ["In 1990 X held."]


@pytest.mark.parametrize(
    ("judged", "expected"),
    [
        ({"parsed_answer": "yes", "answer_correct": True, "class": "OL"}, False),  # right answer, weak reasoning
        ({"parsed_answer": "no", "answer_correct": False, "class": "EI"}, True),
        ({"parsed_answer": "unsure", "answer_correct": False, "class": "CO"}, None),  # no Yes / No to judge
        ({"parsed_answer": None, "answer_correct": False}, None),
    ],
)
def test_drowzee_answer_oracle(judged: dict[str, object], expected: bool | None) -> None:
    assert drowzee_answer_oracle(judged) is expected


def test_answer_level_agreement_per_model() -> None:
    # reasoning-level: all three hallucinate; answer level: only c1 (model a) and c3 (model b) are wrong
    rows = [
        row(1, True, True, answer_wrong=True, model="a"),
        row(2, True, False, answer_wrong=False, model="a"),
        row(3, True, True, answer_wrong=True, model="b"),
        row(4, False, False, answer_wrong=None, model="b"),  # no committed answer: left out of answer level
    ]
    m = loop_metrics(rows)
    assert m.overall.verifier is not None and m.overall.verifier.accuracy.value == pytest.approx(3 / 4)
    levels = m.answer_level
    assert set(levels) == {"all", "model=a", "model=b"}
    assert (levels["all"].n, levels["all"].hallucinations) == (3, 2)
    assert levels["all"].verifier is not None and levels["all"].verifier.accuracy.value == 1.0
    assert levels["model=a"].n == 2 and levels["model=b"].n == 1
    assert loop_metrics([row(1, True, True)]).answer_level == {}
