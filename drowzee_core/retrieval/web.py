"""DuckDuckGo web search through the `ddgs` package: off by default, results cached in SQLite.

A failed search (offline, rate-limited, timed out, anything the client raises, or a malformed answer)
raises `WebSearchError` with the reason, so the caller records a degraded opinion; an empty list only
ever means the search ran and found nothing. Successful answers are cached by (query, k, region), so a
repeated question costs no request; failures are never cached.
"""

from __future__ import annotations

import logging
from typing import Any, Protocol

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource
from drowzee_core.retrieval.cache import JsonCache

log = logging.getLogger(__name__)

TOOL = "web.ddgs.text"
"""Cache tool name of a web search."""
MAX_K = 20
MAX_QUERY_CHARS = 500


class WebSearchError(DrowzeeError):
    """The web search could not run or failed; the message says why (off, offline, rate-limited...)."""


class TextSearchClient(Protocol):
    """What `WebSearch` needs from a client: `ddgs.DDGS().text`."""

    def text(self, query: str, **kwargs: Any) -> list[dict[str, Any]]:
        """Search results as dicts with `title`, `href` and `body`."""
        ...


def _reason(exc: Exception) -> str:
    """A short, specific reason for a failed search."""
    try:
        from ddgs.exceptions import RatelimitException, TimeoutException
    except ImportError:  # a fake client in tests may run without ddgs
        return f"failed: {type(exc).__name__}: {exc}"
    if isinstance(exc, RatelimitException):
        return f"rate-limited by the search provider ({exc}); wait and retry, or rely on the local corpus"
    if isinstance(exc, TimeoutException):
        return f"timed out ({exc}); check the network or raise the timeout"
    return f"failed (offline or provider error): {type(exc).__name__}: {exc}"


class WebSearch:
    """Web search results as evidence items; must be enabled explicitly (`enabled=True`, `--web`)."""

    def __init__(
        self,
        *,
        enabled: bool = False,
        client: TextSearchClient | None = None,
        cache: JsonCache | None = None,
        region: str = "wt-wt",
        timeout_s: int = 10,
    ) -> None:
        if timeout_s < 1:
            raise WebSearchError(f"`timeout_s` must be >= 1, got {timeout_s}")
        self.enabled = enabled
        self._client = client
        self.cache = cache
        self.region = region
        self.timeout_s = timeout_s

    def _get_client(self) -> TextSearchClient:
        if self._client is None:
            try:
                from ddgs import DDGS
            except ImportError as exc:
                raise WebSearchError(f"web search needs the `ddgs` package ({exc}); `pip install ddgs`") from exc
            self._client = DDGS(timeout=self.timeout_s)
        return self._client

    def search(self, query: str, k: int = 5) -> list[EvidenceItem]:
        """Up to `k` web results for `query`, in the provider's order; raises `WebSearchError` on failure."""
        if not self.enabled:
            raise WebSearchError("web search is off; enable it with --web (or WebSearch(enabled=True))")
        query = query.strip()
        if not query or len(query) > MAX_QUERY_CHARS:
            raise WebSearchError(f"`query` must have 1 to {MAX_QUERY_CHARS} characters, got {len(query)}")
        if not 1 <= k <= MAX_K:
            raise WebSearchError(f"`k` must be in [1, {MAX_K}], got {k}")
        params = {"query": query, "k": k, "region": self.region}
        if self.cache is not None and (hit := self.cache.get(TOOL, params)) is not None:
            log.debug("web search cache hit for %r", query)
            return [EvidenceItem.model_validate(item) for item in hit.value]
        try:
            raw = self._get_client().text(query, max_results=k, region=self.region)
        except Exception as exc:  # boundary: any client failure becomes a recorded reason, never []
            raise WebSearchError(f"web search for {query!r} {_reason(exc)}") from exc
        items = self._items(query, raw)[:k]
        if self.cache is not None:
            self.cache.put(TOOL, params, [item.model_dump(mode="json") for item in items])
        return items

    @staticmethod
    def _items(query: str, raw: object) -> list[EvidenceItem]:
        if not isinstance(raw, list):
            raise WebSearchError(f"web search for {query!r} returned {type(raw).__name__}, not a list of results")
        items: list[EvidenceItem] = []
        for rank, row in enumerate(raw):
            href = row.get("href") if isinstance(row, dict) else None
            if not isinstance(href, str) or not href:
                raise WebSearchError(f"web search for {query!r}: result {rank} has no `href` ({row!r:.200})")
            title = str(row.get("title") or "").strip()
            body = str(row.get("body") or "").strip()
            text = f"{title}: {body}" if title and body else title or body
            items.append(EvidenceItem(id=f"web:{href}", source=EvidenceSource.WEB, text=text, score=None, ref=href))
        return items


__all__ = ["MAX_K", "MAX_QUERY_CHARS", "TOOL", "TextSearchClient", "WebSearch", "WebSearchError"]
