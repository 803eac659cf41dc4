"""Retrieval without models or network: the hybrid corpus (bm25s + a fake encoder) and user documents."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray

from drowzee_core.records.verdict import EvidenceSource
from drowzee_core.retrieval import (
    Corpus,
    CorpusError,
    SparseIndex,
    load_documents,
    split_passages,
)
from drowzee_core.retrieval.corpus import fuse
from tests.unit.retrieval_fakes import SENTENCES, BagOfWords, passages


# ------------------------------------------------------------------ corpus
def test_bm25_finds_the_matching_sentence_and_scores_are_sorted() -> None:
    corpus = Corpus([SparseIndex.build(passages(SENTENCES))], dense_weight=0.0)
    hits = corpus.search("What is the capital of Germany?", k=3)
    assert hits[0].text == "Berlin is the capital of Germany."
    assert hits[0].id == "t:1" and hits[0].ref == "ref1" and hits[0].source == EvidenceSource.CORPUS
    scores = [h.score for h in hits]
    assert all(s is not None for s in scores) and scores == sorted(scores, reverse=True)  # type: ignore[type-var]
    assert corpus.search("zebra quantum", k=3) == []  # no shared term: nothing, not arbitrary passages


def test_dense_rerank_orders_bm25_candidates_by_cosine() -> None:
    encoder = BagOfWords()
    index = SparseIndex.build(passages(SENTENCES))
    query = "Which river flows through Paris?"
    candidates = [p for p, _ in index.top(query, 50)]
    vecs = BagOfWords().encode([query, *(p.text for p in candidates)])
    by_cosine = [candidates[i].id for i in np.argsort(-(vecs[1:] @ vecs[0]), kind="stable")]
    dense = Corpus([index], encoder, dense_weight=1.0).search(query, k=3)
    assert encoder.calls == [[query, *(p.text for p in candidates)]]  # query first, then the BM25 candidates
    assert [h.id for h in dense] == by_cosine[:3]


class Favours:
    """An encoder under which only texts containing `word` resemble the query."""

    def __init__(self, word: str) -> None:
        self.word = word

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        rows = [[1.0, 0.0]] + [[1.0, 0.0] if self.word in t else [0.0, 1.0] for t in texts[1:]]
        return np.array(rows, dtype=np.float32)


def test_dense_weight_mixes_the_two_rankings() -> None:
    index = SparseIndex.build(passages(SENTENCES))
    query = "capital of France"
    sparse = Corpus([index], dense_weight=0.0).search(query, k=2)
    assert [h.id for h in sparse] == ["t:0", "t:1"]  # BM25: Paris first
    dense = Corpus([index], Favours("Berlin"), dense_weight=1.0).search(query, k=2)
    assert [h.id for h in dense] == ["t:1", "t:0"] and dense[0].score == 1.0
    mixed = Corpus([index], Favours("Berlin"), dense_weight=0.5).search(query, k=2)
    bm = {p.id: s for p, s in index.top(query, 5)}
    assert mixed[0].id == "t:1" and mixed[0].score == pytest.approx(0.5 + 0.5 * bm["t:1"] / bm["t:0"], abs=1e-6)


def test_fuse_is_the_documented_mix() -> None:
    bm25 = np.array([4.0, 2.0, 0.0])
    cos = np.array([0.1, 0.9, 0.5])
    np.testing.assert_allclose(fuse(bm25, cos, 0.5), [0.55, 0.7, 0.25])
    np.testing.assert_allclose(fuse(bm25, cos, 0.0), [1.0, 0.5, 0.0])
    assert fuse(np.zeros(0), np.zeros(0), 0.5).shape == (0,)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dense_weight": 1.5}, "dense_weight"),
        ({"dense_weight": 0.5}, "encoder"),
        ({"dense_weight": 0.0, "candidates": 0}, "candidates"),
    ],
)
def test_corpus_settings_are_checked(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(CorpusError, match=message):
        Corpus([SparseIndex.build(passages(SENTENCES))], **kwargs)


def test_search_arguments_are_checked() -> None:
    corpus = Corpus([SparseIndex.build(passages(SENTENCES))], dense_weight=0.0)
    with pytest.raises(CorpusError, match="`k`"):
        corpus.search("capital", k=0)
    with pytest.raises(CorpusError, match="empty"):
        corpus.search("   ", k=3)


def test_sparse_index_round_trips(tmp_path: Path) -> None:
    index = SparseIndex.build(passages(SENTENCES))
    index.save(tmp_path)
    again = SparseIndex.load(tmp_path)
    assert list(again.passages) == index.passages
    assert [p.id for p, _ in again.top("capital France", 3)] == [p.id for p, _ in index.top("capital France", 3)]


# ------------------------------------------------------------------ documents
def test_documents_are_split_and_bad_files_reported(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.txt").write_text("One. Two. Three. Four.\n\nA new paragraph.", "utf-8")
    (tmp_path / "sub" / "b.md").write_text("# Title\n\nLyon is a city in France.", "utf-8")
    (tmp_path / "c.jsonl").write_text('{"text": "Jsonl line one."}\nnot json\n{"title": "no text"}\n', "utf-8")
    (tmp_path / "bad.txt").write_bytes(b"caf\xe9 au lait")  # latin-1, not UTF-8
    (tmp_path / "big.txt").write_text("x" * 200, "utf-8")
    (tmp_path / "image.png").write_bytes(b"\x89PNG")
    with caplog.at_level(logging.WARNING):
        found, report = load_documents(tmp_path, sentences=3, max_file_bytes=100)
    texts = [p.text for p in found]
    assert texts == [
        "One. Two. Three.",
        "Four.",
        "A new paragraph.",
        "Jsonl line one.",
        "# Title",
        "Lyon is a city in France.",
    ]
    assert [p.id for p in found][:2] == ["doc:a.txt#0", "doc:a.txt#1"] and found[-1].id == "doc:sub/b.md#1"
    assert found[3].ref == f"{tmp_path / 'c.jsonl'}:1" and found[0].ref == str(tmp_path / "a.txt")
    skipped = dict(report.skipped)
    assert "not UTF-8" in skipped[str(tmp_path / "bad.txt")]
    assert "too big" in skipped[str(tmp_path / "big.txt")]
    assert "unsupported type .png" in skipped[str(tmp_path / "image.png")]
    assert "not JSON" in skipped[f"{tmp_path / 'c.jsonl'}:2"] and "`text`" in skipped[f"{tmp_path / 'c.jsonl'}:3"]
    assert report.files == 3 and report.passages == 6
    for where in skipped:
        assert where in caplog.text  # every skip is logged by name


def test_long_sentences_are_cut_and_missing_folder_is_an_error(tmp_path: Path) -> None:
    parts = split_passages("word " * 600, sentences=2, max_chars=100)
    assert len(parts) > 1 and all(len(p) <= 205 for p in parts)  # two pieces of <= 100 chars each
    with pytest.raises(CorpusError, match="does not exist"):
        load_documents(tmp_path / "nope")


def test_corpus_over_documents_folder(tmp_path: Path) -> None:
    (tmp_path / "notes.md").write_text("Lyon is the third largest city of France. It lies on the Rhone.", "utf-8")
    (tmp_path / "bad.txt").write_bytes(b"\xff\xfe\x00")
    corpus = Corpus.open(documents=tmp_path, dense_weight=0.0)
    assert corpus.report is not None and len(corpus.report.skipped) == 1
    hit = corpus.search("largest city Lyon", k=1)[0]
    assert hit.id == "doc:notes.md#0" and hit.source == EvidenceSource.CORPUS
    with pytest.raises(CorpusError, match="needs a KB"):
        Corpus.open()
