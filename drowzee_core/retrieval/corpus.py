"""Local corpus search: bm25s over passages, then a dense re-rank of the BM25 candidates with MiniLM.

Two kinds of passages: the KB's verbalized facts (one sentence per stored triple; the index is built
once per KB and kept under `<DROWZEE_CACHE>/index/<kb fingerprint>/`, so a changed KB gets a new one)
and user documents (`--corpus DIR`, indexed in memory). A search takes the BM25 top `candidates` of
each index, embeds the query and those passages, and ranks them by
`dense_weight * cosine + (1 - dense_weight) * bm25 / best bm25 among the candidates`.
With `dense_weight=0` no embedding model is loaded and the ranking is BM25 alone.
"""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import time
from collections.abc import Sequence
from functools import cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np
from numpy.typing import NDArray

from drowzee_core.config import home
from drowzee_core.kb.store import KBStore
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource
from drowzee_core.retrieval.documents import CorpusError, LoadReport, Passage, load_documents
from drowzee_core.retrieval.kbfacts import iter_facts

log = logging.getLogger(__name__)

INDEX_FORMAT = 1
"""Bumped when the saved KB index layout or its tokenization changes (old folders are then rebuilt)."""
MAX_K = 100


class Encoder(Protocol):
    """Sentence embeddings: one unit-length row per text (`drowzee_core.llm.embeddings.embedder()` is one)."""

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embeddings of `texts`."""
        ...


@cache
def _stemmer() -> Any:
    from drowzee_core.nlp import nltk_module

    nltk_module()  # the package without scipy.stats and scikit-learn, which the stemmer never needs
    from nltk.stem.snowball import SnowballStemmer

    return SnowballStemmer("english")


def _tokenize(texts: Sequence[str], *, ids: bool) -> Any:
    import bm25s

    stem = _stemmer().stem
    return bm25s.tokenize(
        list(texts), stopwords="en", stemmer=lambda ws: [stem(w) for w in ws], return_ids=ids, show_progress=False
    )


class SparseIndex:
    """A bm25s index over passages."""

    def __init__(self, passages: Sequence[Passage], retriever: Any) -> None:
        self.passages = passages
        self.retriever = retriever

    @classmethod
    def build(cls, passages: list[Passage]) -> SparseIndex:
        """Index `passages` (at least one)."""
        import bm25s

        if not passages:
            raise CorpusError("cannot index an empty list of passages")
        retriever = bm25s.BM25()
        retriever.index(_tokenize([p.text for p in passages], ids=True), show_progress=False)
        return cls(passages, retriever)

    def top(self, query: str, k: int) -> list[tuple[Passage, float]]:
        """The best `k` passages with a positive BM25 score, best first."""
        tokens = _tokenize([query], ids=False)
        if not tokens[0]:
            return []
        docs, scores = self.retriever.retrieve(tokens, k=min(k, len(self.passages)), show_progress=False)
        return [(self.passages[int(d)], float(s)) for d, s in zip(docs[0], scores[0], strict=True) if s > 0]

    def save(self, folder: Path) -> None:
        """Write the index and its passages to `folder`."""
        self.retriever.save(str(folder), show_progress=False)
        with (folder / "passages.jsonl").open("w", encoding="utf-8") as fh:
            for p in self.passages:
                fh.write(json.dumps([p.id, p.text, p.ref, p.source.value], ensure_ascii=False) + "\n")

    @classmethod
    def load(cls, folder: Path) -> SparseIndex:
        """Read an index written by `save`."""
        import bm25s

        passages = LazyPassages((folder / "passages.jsonl").read_bytes())
        return cls(passages, bm25s.BM25.load(str(folder), show_progress=False))


class LazyPassages(Sequence[Passage]):
    """The passages of a saved index, each decoded from its JSON line on first access.

    A KB index holds one passage per triple (~185k for the seed KB): decoding them all takes ~0.8 s,
    while a search reads a few dozen.
    """

    def __init__(self, data: bytes) -> None:
        self._lines = data.splitlines()
        self._done: dict[int, Passage] = {}

    def __len__(self) -> int:
        return len(self._lines)

    def _one(self, i: int) -> Passage:
        got = self._done.get(i)
        if got is None:
            r = json.loads(self._lines[i])
            got = self._done[i] = Passage(r[0], r[1], r[2], EvidenceSource(r[3]))
        return got

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._one(j) for j in range(*i.indices(len(self)))]
        return self._one(range(len(self))[i])  # negative indexes and bounds as a list has them


def kb_passages(store: KBStore) -> list[Passage]:
    """One passage per stored triple, verbalized with the catalog's templates."""
    specs = {spec.name: spec for spec in store.catalog()}
    out: list[Passage] = []
    for fact in iter_facts(store.db):
        spec = specs.get(fact.relation)
        if spec is None:
            raise CorpusError(f"relation {fact.relation!r} of triple {fact.triple_id} is not in the KB's catalog")
        out.append(Passage(f"kb:{fact.ref}", fact.text(spec), fact.ref, EvidenceSource.KB))
    return out


def kb_index(store: KBStore, cache_root: Path | None = None, fingerprint: str | None = None) -> SparseIndex:
    """The KB's index: loaded from `<cache_root>/<fingerprint>/` when built before, else built and saved there.

    `cache_root` defaults to `<DROWZEE_CACHE>/index`; `fingerprint` to `store.fingerprint()`.
    """
    root = cache_root if cache_root is not None else home() / "index"
    fp = fingerprint or store.fingerprint()
    folder = root / fp
    meta_path = folder / "meta.json"
    if meta_path.exists():
        meta = json.loads(meta_path.read_text("utf-8"))
        if meta.get("format") == INDEX_FORMAT and meta.get("kb_fingerprint") == fp:
            started = time.perf_counter()
            index = SparseIndex.load(folder)
            log.info(
                "KB index %s: loaded %d passages in %.1fs", folder, len(index.passages), time.perf_counter() - started
            )
            return index
        log.warning("KB index %s has format %s (want %s): rebuilding", folder, meta.get("format"), INDEX_FORMAT)
    started = time.perf_counter()
    index = SparseIndex.build(kb_passages(store))
    seconds = time.perf_counter() - started
    root.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{fp}.", dir=root))
    try:
        index.save(tmp)
        meta = {"format": INDEX_FORMAT, "kb_fingerprint": fp, "passages": len(index.passages), "build_s": seconds}
        (tmp / "meta.json").write_text(json.dumps(meta, indent=1), "utf-8")
        if folder.exists():
            shutil.rmtree(folder)
        os.replace(tmp, folder)  # atomic: a reader sees the old folder or the whole new one
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    log.info("KB index %s: built %d passages in %.1fs", folder, len(index.passages), seconds)
    return index


def fuse(bm25: NDArray[np.float64], cosine: NDArray[np.float64], dense_weight: float) -> NDArray[np.float64]:
    """Hybrid scores: `dense_weight * cosine + (1 - dense_weight) * bm25 / max(bm25)`."""
    if len(bm25) == 0:
        return np.zeros(0)
    best = float(np.max(bm25))
    sparse = bm25 / best if best > 0 else np.zeros_like(bm25)
    return dense_weight * cosine + (1.0 - dense_weight) * sparse


class Corpus:
    """Hybrid search over one or more sparse indexes (the KB's facts, user documents)."""

    def __init__(
        self,
        indexes: Sequence[SparseIndex],
        encoder: Encoder | None = None,
        *,
        candidates: int = 50,
        dense_weight: float = 0.5,
    ) -> None:
        if not 0.0 <= dense_weight <= 1.0:
            raise CorpusError(f"`dense_weight` must be in [0, 1], got {dense_weight}")
        if not 1 <= candidates <= 1000:
            raise CorpusError(f"`candidates` must be in [1, 1000], got {candidates}")
        if dense_weight > 0 and encoder is None:
            raise CorpusError("a dense re-rank needs an `encoder` (e.g. `embedder()`); or set dense_weight=0")
        self.indexes = list(indexes)
        self.encoder = encoder
        self.candidates = candidates
        self.dense_weight = dense_weight
        self.report: LoadReport | None = None
        """What loading the user documents read and skipped (None without documents)."""

    @classmethod
    def open(
        cls,
        store: KBStore | None = None,
        documents: Path | None = None,
        *,
        encoder: Encoder | None = None,
        dense_weight: float = 0.5,
        candidates: int = 50,
        cache_root: Path | None = None,
    ) -> Corpus:
        """The corpus of a KB's facts and/or a documents folder; loads MiniLM unless `dense_weight` is 0."""
        if store is None and documents is None:
            raise CorpusError("a corpus needs a KB, a documents folder (--corpus DIR), or both")
        indexes = [kb_index(store, cache_root)] if store is not None else []
        report = None
        if documents is not None:
            passages, report = load_documents(documents)
            if passages:
                indexes.append(SparseIndex.build(passages))
            else:
                log.warning("corpus: no passages under %s (%d files skipped)", documents, len(report.skipped))
        if dense_weight > 0 and encoder is None:
            from drowzee_core.llm.embeddings import embedder

            encoder = embedder()
        corpus = cls(indexes, encoder, candidates=candidates, dense_weight=dense_weight)
        corpus.report = report
        return corpus

    def __len__(self) -> int:
        return sum(len(ix.passages) for ix in self.indexes)

    def search(self, query: str, k: int = 5) -> list[EvidenceItem]:
        """The `k` best passages for `query`, best first, each with its hybrid score."""
        if not 1 <= k <= MAX_K:
            raise CorpusError(f"`k` must be in [1, {MAX_K}], got {k}")
        if not query.strip():
            raise CorpusError("`query` is empty; pass the claim or question to search for")
        pool = [hit for ix in self.indexes for hit in ix.top(query, max(k, self.candidates))]
        if not pool:
            return []
        bm25 = np.array([s for _, s in pool], dtype=np.float64)
        if self.dense_weight > 0 and self.encoder is not None:
            vecs = self.encoder.encode([query, *(p.text for p, _ in pool)]).astype(np.float64)
            cosine = vecs[1:] @ vecs[0]
        else:
            cosine = np.zeros_like(bm25)
        scores = fuse(bm25, cosine, self.dense_weight)
        order = sorted(range(len(pool)), key=lambda i: (-scores[i], pool[i][0].id))
        return [pool[i][0].evidence(round(float(scores[i]), 6)) for i in order[:k]]


__all__ = ["INDEX_FORMAT", "MAX_K", "Corpus", "Encoder", "SparseIndex", "fuse", "kb_index", "kb_passages"]
