"""The Truth Seeker's search tools: a plain `SearchTools` for the deterministic Seeker, LangChain tools for a model.

Both paths validate their arguments with the same pydantic models (query <= 500 characters, k <= 20,
at most 10 entity names), so a tool-calling model and direct code hit the same limits. A LangChain tool
answers with `content_and_artifact`: the content is the evidence as `[id] text` lines for the model,
the artifact the `EvidenceItem` list for the graph. Failures are not swallowed here: a `WebSearchError`
or `ToolUnavailableError` reaches the node, which records a degraded opinion.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from langchain_core.tools import BaseTool, StructuredTool
from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import EvidenceItem
from drowzee_core.retrieval.corpus import Corpus
from drowzee_core.retrieval.kbfacts import KBFacts
from drowzee_core.retrieval.web import WebSearch

MAX_QUERY_CHARS = 500
MAX_K = 20
MAX_ENTITIES = 10


class ToolUnavailableError(DrowzeeError):
    """A search tool was called that this run has not configured (no KB, no corpus, web off)."""


class SearchArgs(BaseModel):
    """Arguments of a text search (local corpus or web)."""

    model_config = ConfigDict(extra="forbid")

    query: str = Field(min_length=1, max_length=MAX_QUERY_CHARS, description="What to look for: a claim or question.")
    k: int = Field(default=5, ge=1, le=MAX_K, description="How many results to return.")


class KBLookupArgs(BaseModel):
    """Arguments of a KB lookup: the entities whose facts to list."""

    model_config = ConfigDict(extra="forbid")

    entities: list[str] = Field(
        min_length=1, max_length=MAX_ENTITIES, description="Entity names or KB keys, e.g. ['France', 'Paris']."
    )
    k: int = Field(default=10, ge=1, le=MAX_K, description="How many facts to return.")


def render(items: list[EvidenceItem]) -> str:
    """Evidence as `[id] text` lines, the way a model reads it (`no results` when empty)."""
    return "\n".join(f"[{e.id}] {e.text}" for e in items) if items else "no results"


@dataclass
class SearchTools:
    """The configured searches; a search left as None is unavailable and says so when called."""

    kb: KBFacts | None = None
    corpus: Corpus | None = None
    web: WebSearch | None = None

    def kb_facts(self, entities: list[str], k: int = 10) -> list[EvidenceItem]:
        """Facts about the named entities (each name resolved by key, label or alias)."""
        args = KBLookupArgs(entities=entities, k=k)
        if self.kb is None:
            raise ToolUnavailableError("KB lookup is not configured: give the Seeker a KB (--kb PATH)")
        ids = [eid for name in args.entities for eid in self.kb.store.resolve(name, limit=3)]
        return self.kb.about(ids, args.k)

    def corpus_search(self, query: str, k: int = 5) -> list[EvidenceItem]:
        """Passages of the local corpus (KB facts and user documents) for `query`."""
        args = SearchArgs(query=query, k=k)
        if self.corpus is None:
            raise ToolUnavailableError("corpus search is not configured: build a Corpus (KB and/or --corpus DIR)")
        return self.corpus.search(args.query, args.k)

    def web_search(self, query: str, k: int = 5) -> list[EvidenceItem]:
        """Web results for `query` (only when web search is enabled)."""
        args = SearchArgs(query=query, k=k)
        if self.web is None or not self.web.enabled:
            raise ToolUnavailableError("web search is off; enable it with --web")
        return self.web.search(args.query, args.k)

    def langchain_tools(self) -> list[BaseTool]:
        """LangChain tools for the searches that are configured (web only when enabled)."""

        def kb_lookup(entities: list[str], k: int = 10) -> tuple[str, list[EvidenceItem]]:
            items = self.kb_facts(entities, k)
            return render(items), items

        def corpus(query: str, k: int = 5) -> tuple[str, list[EvidenceItem]]:
            items = self.corpus_search(query, k)
            return render(items), items

        def web(query: str, k: int = 5) -> tuple[str, list[EvidenceItem]]:
            items = self.web_search(query, k)
            return render(items), items

        tools: list[BaseTool] = []
        if self.kb is not None:
            tools.append(_tool(kb_lookup, "kb_lookup", "Facts the knowledge base states about entities.", KBLookupArgs))
        if self.corpus is not None:
            tools.append(_tool(corpus, "corpus_search", "Search the local corpus (KB facts, documents).", SearchArgs))
        if self.web is not None and self.web.enabled:
            tools.append(_tool(web, "web_search", "Search the web (DuckDuckGo) for a claim or question.", SearchArgs))
        return tools


def _tool(
    func: Callable[..., tuple[str, list[EvidenceItem]]], name: str, description: str, schema: type[BaseModel]
) -> BaseTool:
    return StructuredTool.from_function(
        func=func,
        name=name,
        description=description,
        args_schema=schema,
        response_format="content_and_artifact",
    )


__all__ = ["KBLookupArgs", "SearchArgs", "SearchTools", "ToolUnavailableError", "render"]
