"""A statement as written in text: (subject, predicate, object), shared by extractors, linkers and oracles."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray


@dataclass(frozen=True, slots=True)
class Triple:
    """A (subject, predicate, object) statement as written in the text."""

    subject: str
    predicate: str
    object: str

    def text(self) -> str:
        """The triple as a plain sentence."""
        return f"{self.subject} {self.predicate} {self.object}"


Encoder = Callable[[Sequence[str]], NDArray[np.float32]]
"""Texts -> unit-normalised embedding rows (see `drowzee_core.llm.embeddings`)."""
