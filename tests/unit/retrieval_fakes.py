"""Fakes the retrieval tests share: a few sentences and a deterministic bag-of-words encoder."""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from drowzee_core.records.verdict import EvidenceSource
from drowzee_core.retrieval import Passage

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
        unit: NDArray[np.float32] = out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-9)
        return unit


def passages(texts: Sequence[str]) -> list[Passage]:
    return [Passage(f"t:{i}", t, f"ref{i}", EvidenceSource.CORPUS) for i, t in enumerate(texts)]
