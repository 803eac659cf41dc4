"""The Truth Seeker's search tools: KB facts, local corpus (bm25s + MiniLM), and DuckDuckGo web search.

Each search returns `list[EvidenceItem]` with a stable provisional id (`kb:<s>|<r>|<o>`, `doc:<path>#<n>`,
`web:<url>`) that the caller replaces with the id an explanation cites. `KBFacts` reads facts about
linked entities straight from SQL; `Corpus` ranks the KB's verbalized facts and user documents; `WebSearch`
is off unless enabled and raises `WebSearchError` on any failure; `JsonCache` is the generic persistent
cache its results (and later model or proof calls) go in. Heavy libraries load on first search.
"""

from drowzee_core.retrieval.cache import CachedValue, CacheError, JsonCache, cache_key
from drowzee_core.retrieval.corpus import Corpus, Encoder, SparseIndex, kb_index, kb_passages
from drowzee_core.retrieval.documents import CorpusError, LoadReport, Passage, load_documents, split_passages
from drowzee_core.retrieval.kbfacts import KBFact, KBFacts
from drowzee_core.retrieval.web import TextSearchClient, WebSearch, WebSearchError

__all__ = [
    "CacheError",
    "CachedValue",
    "Corpus",
    "CorpusError",
    "Encoder",
    "JsonCache",
    "KBFact",
    "KBFacts",
    "LoadReport",
    "Passage",
    "SparseIndex",
    "TextSearchClient",
    "WebSearch",
    "WebSearchError",
    "cache_key",
    "kb_index",
    "kb_passages",
    "load_documents",
    "split_passages",
]
