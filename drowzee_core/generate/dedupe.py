"""Near-duplicate removal by cosine similarity of sentence embeddings (as FactCHD filtered its pairs)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from numpy.typing import NDArray

from drowzee_core.errors import DrowzeeError

DEFAULT_THRESHOLD = 0.95


def keep_distinct(vectors: NDArray[np.float32], threshold: float = DEFAULT_THRESHOLD, block: int = 1024) -> list[int]:
    """Indices of the rows to keep: a row is dropped when its cosine with an earlier *kept* row is >= threshold.

    Rows must be unit length. Greedy in input order, so the first of a group of near-duplicates stays.
    """
    if not 0.0 < threshold <= 1.0:
        raise DrowzeeError(f"the near-duplicate threshold must be in (0, 1], got {threshold}")
    n = len(vectors)
    kept: list[int] = []
    kept_vecs = np.zeros((0, vectors.shape[1] if n else 0), dtype=np.float32)
    for start in range(0, n, block):
        chunk = vectors[start : start + block]
        prior = chunk @ kept_vecs.T if len(kept_vecs) else np.zeros((len(chunk), 0), dtype=np.float32)
        inner = chunk @ chunk.T
        chosen: list[int] = []
        for i in range(len(chunk)):
            if prior.shape[1] and float(prior[i].max()) >= threshold:
                continue
            if chosen and float(inner[i, chosen].max()) >= threshold:
                continue
            chosen.append(i)
        kept.extend(start + i for i in chosen)
        kept_vecs = np.vstack([kept_vecs, chunk[chosen]]) if len(kept_vecs) else chunk[chosen]
    return kept


def deduper(
    encode: Callable[[Sequence[str]], NDArray[np.float32]], threshold: float = DEFAULT_THRESHOLD
) -> Callable[[list[str]], list[int]]:
    """A function from texts to the indices of those that are not near-duplicates of earlier ones."""

    def run(texts: list[str]) -> list[int]:
        return keep_distinct(encode(texts), threshold)

    return run
