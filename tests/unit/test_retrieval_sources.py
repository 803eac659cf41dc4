"""Retrieval tools: the JSON cache, web search (a fake ddgs), KB facts about entities."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import EvidenceSource
from drowzee_core.retrieval import (
    JsonCache,
    KBFacts,
    WebSearch,
    WebSearchError,
    cache_key,
)
from tests.conftest import make_store


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
