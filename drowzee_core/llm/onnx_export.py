"""Make the one-token ONNX export of a served adapter (`drowzee models export`; see `next_token`).

The adapter is merged into its base (peft's `merge_and_unload`), the model is traced with eager attention
into a graph whose input is the prompt's token ids and whose output is the raw logits of the next token
only (`logits_to_keep=1`: the 262k-word output layer runs on one position), onnxruntime optimises that
graph once and saves it with its weights beside it, and the export is checked on probe prompts against
the model the torch path serves (the adapter unmerged, transformers' own attention): the token ids of the
base's raw `tokenizer.json` must equal its transformers tokenizer's, and the next-token logprobs may
differ by at most `MAX_LOGPROB_DIFF`. One probe is longer than the model's sliding attention window.

The folder is written under a temporary name and renamed when complete, so a stopped export leaves no
half folder that the server would load. This is build-time code: it imports torch, peft and onnx.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import time
from importlib.metadata import version
from pathlib import Path
from typing import Any
from unittest import mock

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.local import Adapter, base_dir, load_base, weights_sha256
from drowzee_core.llm.next_token import (
    DATA_FILE,
    MANIFEST_FILE,
    MAX_LOGPROB_DIFF,
    MODEL_FILE,
    TOKENIZER_FILE,
    NextTokenModel,
    export_dir,
)

log = logging.getLogger(__name__)

PROBES = (
    "Is the following answer FACTUAL or NON-FACTUAL?\nQuestion: What is the capital of Peru?\nAnswer: Lima.\n",
    "Label: ",
    " ".join(f"item {i} of a long list," for i in range(160)),  # past the 512-token sliding window
)
"""Prompts the export is checked on (made up here, no data of any set)."""


def _merged(adapter: Adapter) -> tuple[Any, Any]:
    """(model with the adapter merged into it, eager attention; the base's transformers tokenizer)."""
    from peft import PeftModel

    base, tokenizer = load_base(adapter.base)
    if getattr(tokenizer, "chat_template", None):
        raise DrowzeeError(f"{adapter.base} has a chat template; one-token exports serve models without one")
    merged = PeftModel.from_pretrained(base, str(adapter.path)).merge_and_unload().eval()
    merged.set_attn_implementation("eager")  # the ONNX exporter has no grouped-query SDPA
    return merged, tokenizer


def _served(adapter: Adapter) -> Any:
    """The model as the torch path serves it: the base with the adapter attached, not merged."""
    from peft import PeftModel

    base, _ = load_base(adapter.base)
    return PeftModel.from_pretrained(base, str(adapter.path)).eval()


def _trace(model: Any, tokenizer: Any, target: Path) -> None:
    """Trace `model` into `target`: token ids in, next-token logits out."""
    import torch
    from transformers import masking_utils

    class NextToken(torch.nn.Module):
        def __init__(self, inner: Any) -> None:
            super().__init__()
            self.inner = inner

        def forward(self, input_ids: Any) -> Any:
            return self.inner(input_ids=input_ids, use_cache=False, logits_to_keep=1).logits[:, -1, :].float()

    example = tokenizer(PROBES[0], return_tensors="pt")["input_ids"]
    # One unpadded prompt is never packed; the packing check uses `aten::diff`, which ONNX lacks.
    with torch.no_grad(), mock.patch.object(masking_utils, "find_packed_sequence_indices", return_value=None):
        torch.onnx.export(
            NextToken(model).eval(),
            (example,),
            str(target),
            input_names=["input_ids"],
            output_names=["logits"],
            dynamic_axes={"input_ids": {0: "batch", 1: "tokens"}, "logits": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )


def _optimise(raw: Path, folder: Path) -> None:
    """Let onnxruntime optimise the graph once and save it, weights in `DATA_FILE` beside it."""
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_EXTENDED
    options.optimized_model_filepath = str(folder / MODEL_FILE)
    options.add_session_config_entry("session.optimized_model_external_initializers_file_name", DATA_FILE)
    options.add_session_config_entry("session.optimized_model_external_initializers_min_size_in_bytes", "1024")
    ort.InferenceSession(str(raw), options, providers=["CPUExecutionProvider"])


def _check(folder: Path, adapter: Adapter, tokenizer: Any) -> float:
    """The largest logprob difference from the served torch model on `PROBES` (token ids must be equal)."""
    import numpy as np
    import torch

    exported = NextTokenModel.load(folder)
    served = _served(adapter)
    worst = 0.0
    for text in PROBES:
        ids = tokenizer(text)["input_ids"]
        if exported.encode(text) != list(ids):
            raise DrowzeeError(f"the raw tokenizer of {adapter.base} splits {text[:40]!r} unlike transformers")
        with torch.inference_mode():
            logits = served(input_ids=torch.tensor([ids])).logits[0, -1].double()
        reference = torch.log_softmax(logits, dim=-1).numpy()
        worst = max(worst, float(np.abs(exported.next_logprobs(list(ids)) - reference).max()))
    return worst


def export_next_token(adapter: Adapter, force: bool = False) -> Path:
    """Make (or find) the one-token export of `adapter`; its folder.

    Args:
        adapter: A served adapter (`find_adapters()[name]`).
        force: Make it again even when it exists.

    Raises:
        DrowzeeError: The base has a chat template, the tokenizers disagree, or the export's logprobs are
            further than `MAX_LOGPROB_DIFF` from the torch model's.

    """
    folder = export_dir(adapter)
    if (folder / MANIFEST_FILE).is_file() and not force:
        return folder
    tmp = folder.with_name(folder.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    tmp.mkdir(parents=True)
    started = time.monotonic()
    log.warning("exporting %s (on %s) to ONNX once; this takes about a minute", adapter.name, adapter.base)
    model, tokenizer = _merged(adapter)
    _trace(model, tokenizer, tmp / "raw.onnx")
    del model
    _optimise(tmp / "raw.onnx", tmp)
    (tmp / "raw.onnx").unlink()
    shutil.copyfile(base_dir(adapter.base) / TOKENIZER_FILE, tmp / TOKENIZER_FILE)
    (tmp / MANIFEST_FILE).write_text("{}", encoding="utf-8")  # loadable for the check; replaced below
    worst = _check(tmp, adapter, tokenizer)
    if worst > MAX_LOGPROB_DIFF:
        shutil.rmtree(tmp, ignore_errors=True)
        raise DrowzeeError(f"the ONNX export of {adapter.name} is {worst:.2g} from torch (limit {MAX_LOGPROB_DIFF})")
    manifest = {
        "produced_by": "drowzee models export (drowzee_core.llm.onnx_export)",
        "adapter": adapter.name,
        "base_model": adapter.base,
        "adapter_weights_sha256": weights_sha256(adapter.path),
        "max_logprob_diff_from_torch": worst,
        "probe_prompts": len(PROBES),
        "versions": {p: version(p) for p in ("torch", "transformers", "peft", "onnx", "onnxruntime")},
        "seconds": round(time.monotonic() - started, 1),
        "created": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }
    (tmp / MANIFEST_FILE).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    shutil.rmtree(folder, ignore_errors=True)
    tmp.rename(folder)
    for stale in folder.parent.iterdir():  # exports of earlier weights of this adapter
        if stale != folder and re.fullmatch(rf"{re.escape(adapter.name)}-[0-9a-f]{{12}}", stale.name):
            shutil.rmtree(stale, ignore_errors=True)
    log.info("exported %s to %s (largest logprob difference %.1e)", adapter.name, folder, worst)
    return folder


__all__ = ["PROBES", "export_next_token"]
