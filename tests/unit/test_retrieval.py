"""Retrieval tools without models or network: corpus, documents, cache, web (fake client), KB facts, tools."""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from numpy.typing import NDArray
from pydantic import ValidationError

from agents.tools import SearchTools, ToolUnavailableError
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import EvidenceSource
from drowzee_core.retrieval import (
    Corpus,
    CorpusError,
    JsonCache,
    KBFacts,
    Passage,
    SparseIndex,
    WebSearch,
    WebSearchError,
    cache_key,
    load_documents,
    split_passages,
)
from drowzee_core.retrieval.corpus import fuse
from tests.conftest import make_store

SENTENCES = [
    "Paris is the capital of France.",
    "Berlin is the capital of Germany.",
    "The Rhine flows through Germany and the Netherlands.",
    "Mount Everest is the highest mountain on Earth.",
    "The Seine flows through Paris.",
]


class BagOfWords:
    """A deterministic stand-in for MiniLM: hashed word counts, unit length."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        self.calls.append(list(texts))
        out = np.zeros((len(texts), 64), dtype=np.float32)
        for i, text in enumerate(texts):
            for word in text.lower().replace(".", " ").replace("?", " ").split():
                out[i, int(hashlib.md5(word.encode()).hexdigest(), 16) % 64] += 1.0
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)


def passages(texts: Sequence[str]) -> list[Passage]:
    return [Passage(f"t:{i}", t, f"ref{i}", EvidenceSource.CORPUS) for i, t in enumerate(texts)]


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
    assert again.passages == index.passages
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


# ------------------------------------------------------------------ cache
def test_cache_hit_miss_and_persistence(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    with JsonCache(path) as cache:
        assert cache.get("web", {"q": "a", "k": 2}) is None
        cache.put("web", {"q": "a", "k": 2}, [{"x": 1}])
        hit = cache.get("web", {"k": 2, "q": "a"})  # key order does not matter
        assert hit is not None and hit.value == [{"x": 1}] and hit.created <= time.time()
        assert cache.get("web", {"q": "a", "k": 3}) is None and cache.get("model", {"q": "a", "k": 2}) is None
        assert cache.get("web", {"q": "a", "k": 2}, max_age_s=60) is not None
        cache.put("web", {"q": "none"}, None)
        stored_none = cache.get("web", {"q": "none"})
        assert stored_none is not None and stored_none.value is None  # a stored null is a hit, not a miss
    with JsonCache(path) as reopened:
        again = reopened.get("web", {"q": "a", "k": 2})
        assert again is not None and again.value == [{"x": 1}] and len(reopened) == 2
    assert cache_key("web", {"a": 1, "b": 2}) == cache_key("web", {"b": 2, "a": 1}) != cache_key("web", {"a": 1})


def test_cache_max_age(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with JsonCache(tmp_path / "c.sqlite") as cache:
        cache.put("t", {"p": 1}, 1)
        now = time.time()
        monkeypatch.setattr(time, "time", lambda: now + 100)
        assert cache.get("t", {"p": 1}, max_age_s=50) is None
        assert cache.get("t", {"p": 1}, max_age_s=500) is not None and cache.get("t", {"p": 1}) is not None


def test_cache_rejects_non_json(tmp_path: Path) -> None:
    with JsonCache(tmp_path / "c.sqlite") as cache:
        with pytest.raises(DrowzeeError, match="JSON"):
            cache.put("t", {"p": 1}, {1, 2})
        with pytest.raises(DrowzeeError, match="JSON"):
            cache.get("t", {"p": object()})


# ------------------------------------------------------------------ web
class FakeDDGS:
    """Replays canned results, or raises; records its calls."""

    def __init__(self, results: list[dict[str, Any]] | None = None, error: Exception | None = None) -> None:
        self.results = results or []
        self.error = error
        self.calls: list[tuple[str, dict[str, Any]]] = []

    def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
        self.calls.append((query, kwargs))
        if self.error is not None:
            raise self.error
        return self.results[: kwargs["max_results"]]


RESULTS = [
    {"title": "Paris - Wikipedia", "href": "https://en.wikipedia.org/wiki/Paris", "body": "Paris is the capital."},
    {"title": "France", "href": "https://example.org/fr", "body": ""},
]


def test_web_search_results_and_cache(tmp_path: Path) -> None:
    client = FakeDDGS(RESULTS)
    web = WebSearch(enabled=True, client=client, cache=JsonCache(tmp_path / "web.sqlite"))
    items = web.search("capital of France", k=2)
    assert [i.id for i in items] == ["web:https://en.wikipedia.org/wiki/Paris", "web:https://example.org/fr"]
    assert items[0].text == "Paris - Wikipedia: Paris is the capital." and items[1].text == "France"
    assert items[0].source == EvidenceSource.WEB and items[0].ref == "https://en.wikipedia.org/wiki/Paris"
    assert client.calls == [("capital of France", {"max_results": 2, "region": "wt-wt"})]
    assert web.search("capital of France", k=2) == items and len(client.calls) == 1  # cache hit, no request
    web.search("capital of France", k=1)
    assert len(client.calls) == 2  # other parameters: a miss


def test_web_search_is_off_by_default() -> None:
    client = FakeDDGS(RESULTS)
    with pytest.raises(WebSearchError, match="off"):
        WebSearch(client=client).search("anything")
    assert client.calls == []


def test_web_failures_raise_with_reason_and_are_not_cached(tmp_path: Path) -> None:
    from ddgs.exceptions import RatelimitException, TimeoutException

    cache = JsonCache(tmp_path / "web.sqlite")
    for error, reason in [
        (RatelimitException("202 Ratelimit"), "rate-limited"),
        (TimeoutException("read timeout"), "timed out"),
        (OSError("Network is unreachable"), "offline"),
    ]:
        web = WebSearch(enabled=True, client=FakeDDGS(error=error), cache=cache)
        with pytest.raises(WebSearchError, match=reason):
            web.search("capital of France")
    assert len(cache) == 0
    malformed = WebSearch(enabled=True, client=FakeDDGS([{"title": "no link"}]))
    with pytest.raises(WebSearchError, match="href"):
        malformed.search("capital of France")
    with pytest.raises(WebSearchError, match="`k`"):
        WebSearch(enabled=True, client=FakeDDGS()).search("q", k=21)


# ------------------------------------------------------------------ KB facts
def test_kb_facts_about_entities_linking_first_and_capped() -> None:
    store = make_store(
        [
            ("France", "has_capital", "Paris"),
            ("Paris", "located_in", "France"),
            ("Lyon", "located_in", "France"),
            ("Marseille", "located_in", "France"),
            ("Germany", "has_capital", "Berlin"),
        ]
    )
    facts = KBFacts(store)
    ids = store.resolve("Paris") + store.resolve("France")
    items = facts.about(ids, limit=3)
    assert [i.text for i in items][:2] == ["The capital of France is Paris.", "Paris is located in France."]
    assert len(items) == 3 and all(i.source == EvidenceSource.KB for i in items)
    assert items[0].id == "kb:France|has_capital|Paris" and items[0].ref == "France|has_capital|Paris"
    assert facts.about(ids, limit=3) == items  # deterministic
    assert all("Berlin" not in i.text for i in facts.about(ids, limit=50))
    with pytest.raises(DrowzeeError, match="`limit`"):
        facts.about(ids, limit=0)
    assert facts.about([], limit=5) == []


# ------------------------------------------------------------------ tools
def test_tools_validate_arguments_and_report_unavailable() -> None:
    corpus = Corpus([SparseIndex.build(passages(SENTENCES))], dense_weight=0.0)
    tools = SearchTools(corpus=corpus, web=WebSearch(client=FakeDDGS(RESULTS)))
    assert [t.name for t in tools.langchain_tools()] == ["corpus_search"]  # web is off, no KB
    tool = tools.langchain_tools()[0]
    with pytest.raises(ValidationError):
        tool.invoke({"query": "x" * 501})
    with pytest.raises(ValidationError):
        tool.invoke({"query": "capital", "k": 21})
    with pytest.raises(ValidationError):
        tools.corpus_search("", k=3)
    msg = tool.invoke(
        {"type": "tool_call", "id": "c1", "name": "corpus_search", "args": {"query": "capital of Germany"}}
    )
    assert msg.content.splitlines()[0] == "[t:1] Berlin is the capital of Germany."
    assert msg.artifact[0].id == "t:1"
    with pytest.raises(ToolUnavailableError, match="--web"):
        tools.web_search("capital")
    with pytest.raises(ToolUnavailableError, match="KB"):
        tools.kb_facts(["Paris"])


def test_tools_kb_and_web_paths() -> None:
    store = make_store([("France", "has_capital", "Paris")])
    tools = SearchTools(kb=KBFacts(store), web=WebSearch(enabled=True, client=FakeDDGS(RESULTS)))
    assert {t.name for t in tools.langchain_tools()} == {"kb_lookup", "web_search"}
    assert [i.text for i in tools.kb_facts(["Paris"])] == ["The capital of France is Paris."]
    with pytest.raises(ValidationError):
        tools.kb_facts([f"e{i}" for i in range(11)])
    assert tools.web_search("capital", k=1)[0].source == EvidenceSource.WEB
