"""One-token answers of a served adapter from its ONNX export: the Guardian's forward pass without torch.

The Guardian asks the local model server for one token with its top logprobs (one forward pass). With
torch, a fresh server worker spends most of its first request importing torch, transformers and peft
(about 6 s on 2 cores) before it reads a word. An export made once by `drowzee models export`
(`drowzee_core.llm.onnx_export`) holds the adapter merged into its base as one onnxruntime graph:
token ids in, the raw logits of the next token out. It loads in about 1 s with the base's own
`tokenizer.json`, and a forward pass on 2 cores takes about half the time of the torch one.

An export lives in `<home>/models/onnx/<adapter>-<first 12 hex of the adapter's weights sha256>/`, so a
retrained adapter never meets an old export. Its manifest records what made it and how far its logprobs
were from the torch model's on probe prompts (the export is refused above `MAX_LOGPROB_DIFF`).
"""

from __future__ import annotations

import json
import logging
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.local import Adapter, weights_sha256
from drowzee_core.llm.openai_logprobs import logprob_entry

log = logging.getLogger(__name__)

MODEL_FILE = "model.onnx"
DATA_FILE = "model.onnx.data"
TOKENIZER_FILE = "tokenizer.json"
MANIFEST_FILE = "manifest.json"
MAX_LOGPROB_DIFF = 1e-3
"""Largest difference from the torch model's next-token logprobs an export may have on its probes."""


def export_dir(adapter: Adapter) -> Path:
    """Where the export of `adapter` lives (named by the adapter's weights, so a new adapter needs a new one)."""
    return home() / "models" / "onnx" / f"{adapter.name}-{weights_sha256(adapter.path)[:12]}"


def find_export(adapter: Adapter) -> Path | None:
    """The finished export of `adapter`, or None when `drowzee models export` has not made it."""
    folder = export_dir(adapter)
    return folder if (folder / MANIFEST_FILE).is_file() else None


@dataclass
class NextTokenModel:
    """An export loaded: the onnxruntime session, the tokenizer and the manifest."""

    session: Any
    tokenizer: Any
    manifest: dict[str, Any]

    @classmethod
    def load(cls, folder: Path) -> NextTokenModel:
        """Load the export in `folder` (the graph was optimised when it was made; nothing is optimised again)."""
        import onnxruntime as ort
        from tokenizers import Tokenizer

        try:
            manifest = json.loads((folder / MANIFEST_FILE).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise DrowzeeError(f"{folder} holds no readable ONNX export ({exc}); run `drowzee models export`") from exc
        options = ort.SessionOptions()
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_BASIC
        # Idle threads sleep instead of spinning: the verifier's own work shares these cores.
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        with ThreadPoolExecutor(max_workers=1) as pool:  # the tokenizer is read while the graph loads
            tokenizer = pool.submit(Tokenizer.from_file, str(folder / TOKENIZER_FILE))
            session = ort.InferenceSession(str(folder / MODEL_FILE), options, providers=["CPUExecutionProvider"])
            return cls(session=session, tokenizer=tokenizer.result(), manifest=manifest)

    def encode(self, text: str) -> list[int]:
        """The prompt's token ids, special tokens (the base's BOS) added as its transformers tokenizer adds them."""
        return list(self.tokenizer.encode(text).ids)

    def decode(self, token_id: int, skip_special_tokens: bool = False) -> str:
        """One token's text."""
        return str(self.tokenizer.decode([token_id], skip_special_tokens=skip_special_tokens))

    def next_logprobs(self, ids: list[int]) -> Any:
        """Log-softmax (float64) of the next token's logits after the prompt `ids`: a 1-D numpy array."""
        import numpy as np

        (logits,) = self.session.run(None, {"input_ids": np.asarray([ids], dtype=np.int64)})
        row = logits[0].astype(np.float64)
        shifted = row - row.max()
        return shifted - np.log(np.exp(shifted).sum())

    def answer(self, text: str, top: int) -> tuple[int, str, float, list[dict[str, Any]], int]:
        """The greedy next token of the prompt `text`.

        Args:
            text: The rendered prompt.
            top: How many alternatives to list (0 to 20), most probable first.

        Returns:
            (token id, its text without special tokens, its logprob, the OpenAI `top_logprobs` entries,
            prompt tokens).

        """
        import numpy as np

        ids = self.encode(text)
        logprobs = self.next_logprobs(ids)
        token = int(np.argmax(logprobs))
        best: list[int] = np.argsort(-logprobs, kind="stable")[:top].tolist() if top > 0 else []
        alternatives = [logprob_entry(self.decode(i), float(logprobs[i])) for i in best]
        return token, self.decode(token, skip_special_tokens=True), float(logprobs[token]), alternatives, len(ids)


__all__ = ["MAX_LOGPROB_DIFF", "NextTokenModel", "export_dir", "find_export"]
