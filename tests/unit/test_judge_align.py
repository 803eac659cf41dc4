"""The alignment judge's pure parts: features, pairs read back from chunks, the perceptron's weights file."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.judge.align import CHUNK_JOIN, SEP, WEIGHTS, AlignJudgeModel, Perceptron, make_pair, pair_of
from drowzee_core.llm.judge.align_features import FEATURES, PairText, content, features, names, order_agreement, words
from drowzee_core.llm.judge.chunk import score_inputs

DIM = 8


def unit(*rows: list[float]) -> np.ndarray:
    a = np.array(rows, dtype=np.float32).reshape(len(rows), -1)
    return a / np.linalg.norm(a, axis=1, keepdims=True)


def feats(pair: PairText) -> dict[str, float]:
    """Features with fixed embeddings: the lexical columns are what these tests read."""
    n = len(pair.sentences)
    sv = unit(*[[1.0] + [0.0] * (DIM - 1)] * max(n, 1))[:n]
    stmt = unit([1.0] + [0.0] * (DIM - 1))[0]
    row = features(pair, stmt, sv, stmt, unit([1.0] * DIM), unit([1.0] * DIM))
    assert len(row) == len(FEATURES)
    return dict(zip(FEATURES, row, strict=True))


def test_words_keep_numbers_and_names_skip_sentence_starts() -> None:
    assert words("Paris had 2,148,271 people in 2020.") == ["paris", "had", "2,148,271", "people", "in", "2020"]
    assert content(words("The capital of France is Paris")) == ["capital", "france", "paris"]
    assert names("The capital of France is Paris. Lyon is not.") == ["france", "paris"]


def test_order_agreement_tells_a_swap() -> None:
    claim = content(words("Warsaw is the capital of Poland"))
    assert order_agreement(claim, words("Warsaw is the capital of Poland.")) == 1.0
    assert order_agreement(claim, words("Poland is the capital of Warsaw.")) == -1.0
    assert order_agreement(claim, words("Nothing shared here.")) == 0.0


def test_a_bare_answer_is_read_with_its_question() -> None:
    pair = PairText("What is the capital of France?", "Lyon.", ["Paris is the capital of France."])
    assert pair.short and pair.statement.startswith("What is the capital of France?")
    f = feats(pair)
    assert f["short_answer"] == 1.0 and f["answer_in_best"] == 0.0 and f["query_in_best"] == 1.0
    right = feats(PairText("What is the capital of France?", "Paris.", ["Paris is the capital of France."]))
    assert right["answer_in_best"] == 1.0
    no = feats(PairText("Is Paris the capital of France?", "No, that is wrong.", ["Paris is the capital of France."]))
    assert no["answer_no"] == 1.0 and no["answer_yes"] == 0.0
    long = PairText("What is it?", "Paris is the capital of France and its largest city.", [])
    assert not long.short and long.statement == long.claim


def test_a_full_sentence_claim_is_read_without_its_question() -> None:
    evidence = ["The Matrix is a 1999 science fiction film written and directed by the Wachowskis."]
    claim = "The Matrix is a science fiction film."
    asked = feats(PairText("Could you inform me what genre The Matrix movie belongs to?", claim, evidence))
    assert asked == feats(PairText("", claim, evidence))


def test_numbers_names_and_negation_are_checked_against_the_evidence() -> None:
    ev = ["The population of Kalabo is 18477.", "Kalabo is located in Zambia."]
    f = feats(PairText("", "The population of Kalabo is 19468.", ev))
    assert f["numbers_in_claim"] == 1.0 and f["numbers_missing_chunk"] == 1.0
    g = feats(PairText("", "Kalabo is located in Angola.", ev))
    assert g["names_missing_chunk"] == 1.0 and g["numbers_in_claim"] == 0.0
    h = feats(PairText("", "Kalabo is not located in Zambia.", ev))
    assert h["claim_negated"] == 1.0 and h["negation_mismatch"] == 1.0
    empty = feats(PairText("", "Kalabo is in Zambia.", []))
    assert empty["sent_cos_max"] == 0.0 and empty["content_in_chunk"] == 0.0


def test_pairs_are_read_back_from_the_chunks_score_inputs_builds() -> None:
    seen: list[PairText] = []

    def logit_fn(firsts: list[str], seconds: list[str]) -> list[float]:
        seen.extend(pair_of(a, b) for a, b in zip(firsts, seconds, strict=True))
        return [0.0] * len(firsts)

    evidence = ["Paris | capital of | France", "Lyon is a city. It lies on the Rhone."]
    score_inputs([("Where?", "Paris.", evidence)], logit_fn, lambda t: len(t.split()), 512, False, CHUNK_JOIN)
    assert seen == [make_pair("Where?", "Paris.", evidence)]
    assert seen[0].sentences == ["Paris | capital of | France", "Lyon is a city.", "It lies on the Rhone."]
    assert pair_of(f"Q?{SEP}A.", "x").query == "Q?" and pair_of("A.", "x").query == ""


def test_perceptron_weights_round_trip_and_match_sklearn(tmp_path: Path) -> None:
    from sklearn.neural_network import MLPClassifier
    from sklearn.preprocessing import StandardScaler

    rng = np.random.default_rng(0)
    x = rng.normal(size=(2000, len(FEATURES)))
    y = (x[:, 0] + x[:, 3] > 0).astype(int)
    p = Perceptron.fit(x, y, (8,), seed=0)
    assert ((p.logits(x) > 0) == y).mean() > 0.9
    scaler = StandardScaler().fit(x)
    mlp = MLPClassifier((8,), alpha=1e-3, max_iter=500, early_stopping=True, n_iter_no_change=20, random_state=0)
    mlp.fit(scaler.transform(x), y)
    prob = mlp.predict_proba(scaler.transform(x))[:, 1]
    assert np.allclose(1 / (1 + np.exp(-p.logits(x))), prob, atol=1e-6)

    (tmp_path / WEIGHTS).write_text(json.dumps(p.to_json()))
    again = AlignJudgeModel.load(tmp_path).perceptron  # the encoder is built lazily only by the judge
    assert np.allclose(again.logits(x), p.logits(x))
    bad = p.to_json() | {"features": ["other"]}
    with pytest.raises(DrowzeeError, match="other features"):
        Perceptron.from_json(bad)
    with pytest.raises(DrowzeeError, match="not an alignment judge"):
        AlignJudgeModel.load(tmp_path / "nowhere")
