"""Pure parts of the grounded judge: chunking, claims, aggregation, calibration, metrics, readers."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.judge.calibrate import fit_calibration
from drowzee_core.llm.judge.chunk import evidence_sentences, pack_chunks, score_inputs, split_claims, window_budget
from drowzee_core.records.judge import Support
from finetune.judge.evaluate import balanced_accuracy_ci, length_matched, summarize, to_inputs


def words(text: str) -> int:
    return len(text.split())


@pytest.mark.parametrize(
    ("sentences", "budget", "expected"),
    [
        (["a b", "c d", "e f"], 4, ["a b c d", "e f"]),
        (["a b c d e f"], 3, ["a b c d e f"]),  # too long for a window: a chunk of its own
        (["a", "b c d e", "f"], 4, ["a", "b c d e", "f"]),
        ([], 5, [""]),
    ],
)
def test_pack_chunks(sentences: list[str], budget: int, expected: list[str]) -> None:
    assert pack_chunks(sentences, budget, words) == expected


def test_pack_chunks_rejects_empty_budget() -> None:
    with pytest.raises(ValueError, match="budget"):
        pack_chunks(["a"], 0, words)


def test_evidence_and_claims() -> None:
    assert evidence_sentences([["Paris", "capital of", "France"], " x ", ""]) == ["Paris | capital of | France", "x"]
    assert evidence_sentences("one text") == ["one text"]
    assert split_claims("Lyon") == ["Lyon"]
    assert split_claims("Curie was born in 1867. She died in 1934.") == ["Curie was born in 1867.", "She died in 1934."]
    assert window_budget(128, 20) == 105
    assert window_budget(64, 100) == 32


def test_score_inputs_takes_best_chunk_and_lowest_claim() -> None:
    calls: list[int] = []

    def fake(firsts: Sequence[str], seconds: Sequence[str]) -> list[float]:
        calls.append(len(firsts))
        # support = how many evidence words the claim shares with the chunk
        return [
            float(len(set(f.lower().replace(".", "").split()) & set(s.split())))
            for f, s in zip(firsts, seconds, strict=True)
        ]

    def tokens(text: str) -> int:  # 20 "tokens" a word, so a 103-token window leaves 60: three words
        return 20 * words(text)

    evidence = ["alpha beta", "gamma delta", "alpha gamma epsilon"]
    out = score_inputs([("", "Alpha gamma. Delta zeta.", evidence), ("q", "omega", [])], fake, tokens, 103)
    assert len(calls) == 1  # one batch for everything
    first, second = out
    # chunks of 3 words beside each claim: "alpha beta" / "gamma delta" / "alpha gamma epsilon"
    assert first.claim_logits == [2.0, 1.0]
    assert first.logit == 1.0 and first.best_chunk == 1  # the second claim decides, on its "gamma delta" chunk
    assert second.logit == 0.0 and second.best_chunk == 0
    whole = score_inputs([("", "Alpha gamma. Delta zeta.", evidence)], fake, tokens, 103, split=False)[0]
    assert len(whole.claim_logits) == 1


def test_calibration_fits_and_abstains() -> None:
    rng = np.random.default_rng(0)
    gold = np.array([True] * 200 + [False] * 200)
    logits = np.where(gold, 1.0, -1.0) * 2 + rng.normal(0, 1.5, 400) + 3.0  # shifted: threshold must move
    cal = fit_calibration(logits, gold, band_share=0.1)
    p = cal.prob(logits)
    assert cal.a > 0
    assert abs(p.mean() - 0.5) < 0.05  # calibrated: mean probability ~ base rate
    inside = np.mean([cal.decide(float(x)) is None for x in p])
    assert 0.05 <= inside <= 0.1
    assert cal.band_low <= cal.threshold <= cal.band_high
    assert cal.decide(0.99) == Support.SUPPORTED and cal.decide(0.01) == Support.NOT_SUPPORTED
    assert fit_calibration(logits, gold, band_share=0.0).band_low == fit_calibration(logits, gold, 0.0).threshold
    with pytest.raises(DrowzeeError, match="both labels"):
        fit_calibration([0.1, 0.2], [True, True])
    with pytest.raises(DrowzeeError, match="band_share"):
        fit_calibration(logits, gold, band_share=1.0)
    with pytest.raises(DrowzeeError, match="would invert it"):  # a model that reads the labels backwards
        fit_calibration(-logits, gold)


def test_balanced_accuracy_and_baselines() -> None:
    gold = [True] * 30 + [False] * 10
    pred = [True] * 30 + [True] * 5 + [False] * 5
    value, low, high = balanced_accuracy_ci(gold, pred)
    assert value == pytest.approx(0.75)
    assert low is not None and high is not None and low < value < high
    res = summarize(gold, [1.0 if x else 0.0 for x in pred], 0.5, [True] * 40)
    assert res["balanced_accuracy"] == 0.75 and res["accuracy"] == pytest.approx(35 / 40)
    assert res["baselines"]["majority"] == {"label": "SUPPORTED", "accuracy": 0.75, "balanced_accuracy": 0.5}
    assert res["baselines"]["always_not_supported"]["accuracy"] == 0.25


def test_readers_map_labels_and_check_rows() -> None:
    rows = [
        {"id": "a", "query": "q", "response": "r", "evidence": ["e"], "label": "FACTUAL"},
        {"id": "b", "response": "r", "facts": "e", "label": "NOT_SUPPORTED"},
    ]
    ins = to_inputs(rows[:1])
    assert ins[0].gold is True and ins[0].query == "q"
    assert to_inputs(rows[1:], evidence_field="facts")[0].gold is False
    with pytest.raises(DrowzeeError, match="--evidence-field"):
        to_inputs(rows[1:])
    with pytest.raises(DrowzeeError, match="label must be"):
        to_inputs([rows[0] | {"label": "TRUE"}])
    with pytest.raises(DrowzeeError, match="no `response`"):
        to_inputs([{"id": "c", "evidence": []}])


def test_length_matched_pairs() -> None:
    rows = [
        {"query": "q1", "response": "Paris", "evidence": [], "label": "FACTUAL"},
        {"query": "q1", "response": "Lyon", "evidence": [], "label": "NON-FACTUAL"},
        {"query": "q2", "response": "Bern", "evidence": [], "label": "FACTUAL"},
        {"query": "q2", "response": "It was in Zurich that they met", "evidence": [], "label": "NON-FACTUAL"},
    ]
    res = length_matched(to_inputs(rows), [0.9, 0.2, 0.1, 0.8], 0.5)
    assert (res["pairs"], res["matched_pairs"]) == (2, 1)
    assert res["pairwise_accuracy"] == 1.0 and res["length_rule_pairwise_accuracy"] == 0.5
