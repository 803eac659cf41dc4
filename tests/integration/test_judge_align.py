"""The alignment judge with the real MiniLM: the encoder's bounded memo, and the shipped judge on our own cases."""

from __future__ import annotations

import numpy as np
import pytest

import drowzee_core.llm.judge.align as align
from drowzee_core.llm.judge import LocalJudge
from drowzee_core.llm.judge.align_features import PairText

pytestmark = pytest.mark.integration


def test_the_memo_stays_bounded_and_answers_stay_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    enc = align.Encoder()
    texts = [f"Sentence number {i} about Paris." for i in range(12)]
    fresh = enc.encode(texts)
    monkeypatch.setattr(align, "MEMO_LIMIT", 5)
    again = align.Encoder()
    got = again.encode(texts[:4]) | again.encode(texts[4:])  # the second call starts the memo over
    assert len(again._memo) <= 8
    for t in texts:
        assert np.allclose(got[t][0], fresh[t][0], atol=1e-5) and got[t][2].shape == fresh[t][2].shape
    rows = align.pair_features(again, [PairText("", t, texts[:3]) for t in texts])  # more texts than the limit
    assert rows.shape == (12, len(align.FEATURES)) and np.isfinite(rows).all()


def test_the_shipped_judge_reads_numbers_names_order_and_bare_answers() -> None:
    judge = LocalJudge()
    assert judge.kind == "align"
    ev = ["The population of Kalabo is 18477.", "Kalabo is located in Zambia.", "Lusaka is the capital of Zambia."]
    q = "Where is Kalabo located?"
    cases = [
        (q, "Kalabo is located in Zambia.", True),
        (q, "Kalabo is located in Angola.", False),
        ("", "The population of Kalabo is 18477.", True),
        ("", "The population of Kalabo is 19468.", False),
        (q, "Zambia.", True),
        (q, "Angola.", False),
        ("Is Lusaka the capital of Zambia?", "Yes.", True),
        ("Is Lusaka the capital of Zambia?", "No, that is wrong.", False),
    ]
    scores = judge.score([(a, b, ev) for a, b, _ in cases])
    for (query, response, supported), s in zip(cases, scores, strict=True):
        assert (s.p_supported >= judge.threshold) == supported, (query, response, s)
