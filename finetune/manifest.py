"""Adapter manifests, written only by code: training export and `eval guardian --update-manifest`.

Evaluation metrics are recorded under a key naming the data file by name *and* sha256 and the slice
evaluated (`--limit`), with the generation settings beside them, so a figure can always be traced to
the exact pairs and run that produced it. `check_adapter` compares an adapter folder with its manifest
(weights sha256, LoRA config, base model) and names every mismatch.
"""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

from drowzee_core.llm.local import MANIFEST, weights_sha256

log = logging.getLogger(__name__)
# The adapter_config.json fields that restate the training config (peft name -> TrainConfig name).
LORA_FIELDS = {"r": "lora_r", "lora_alpha": "lora_alpha", "lora_dropout": "lora_dropout"}


def file_sha256(path: Path) -> str:
    """sha256 of a file's bytes."""
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def metrics_key(data_name: str, sha256: str, limit: int | None, shots: int = 0) -> str:
    """`test.jsonl@sha256:0123abcd4567[:20]+4shot`: data file name, content hash prefix, slice, shots."""
    key = f"{data_name}@sha256:{sha256[:12]}[{':' + str(limit) if limit else ':'}]"
    return key + (f"+{shots}shot" if shots else "")


def write_manifest(folder: Path, manifest: dict[str, Any]) -> None:
    """Write `manifest.json` atomically."""
    tmp = folder / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(manifest, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    tmp.replace(folder / MANIFEST)


def read_manifest(folder: Path) -> dict[str, Any]:
    """The manifest of an adapter folder."""
    data: dict[str, Any] = json.loads((folder / MANIFEST).read_text(encoding="utf-8"))
    return data


def record_metrics(folder: Path, key: str, entry: dict[str, Any]) -> None:
    """Store one evaluation under `key`; drop entries that do not name their data by sha256.

    Entries without `data.sha256` cannot be traced to the pairs they were measured on (the first
    manifests had such entries, written by hand); they are removed with a warning.
    """
    if "data" not in entry or "sha256" not in entry["data"]:
        raise ValueError("a metrics entry needs data.sha256")
    manifest = read_manifest(folder)
    metrics = manifest.get("metrics") or {}
    for old in [k for k, v in metrics.items() if "sha256" not in (v.get("data") or {})]:
        log.warning("dropping metrics %r from %s: it does not name its data by sha256", old, folder / MANIFEST)
        del metrics[old]
    metrics[key] = entry
    manifest["metrics"] = dict(sorted(metrics.items()))
    write_manifest(folder, manifest)


def check_adapter(folder: Path) -> list[str]:
    """Mismatches between an adapter folder and its manifest (empty when they agree)."""
    manifest = read_manifest(folder)
    peft = json.loads((folder / "adapter_config.json").read_text(encoding="utf-8"))
    config = manifest.get("config", {})
    problems = []
    actual = weights_sha256(folder)
    if manifest.get("weights_sha256") != actual:
        problems.append(f"weights_sha256: manifest {manifest.get('weights_sha256')}, file {actual}")
    for peft_key, cfg_key in LORA_FIELDS.items():
        if peft.get(peft_key) != config.get(cfg_key):
            problems.append(f"{peft_key}: adapter_config {peft.get(peft_key)}, manifest config {config.get(cfg_key)}")
    if sorted(peft.get("target_modules") or []) != sorted(config.get("target_modules") or []):
        problems.append(
            f"target_modules: adapter_config {peft.get('target_modules')}, manifest {config.get('target_modules')}"
        )
    if not (peft.get("base_model_name_or_path") == manifest.get("base_model") == config.get("base")):
        problems.append(
            f"base: adapter_config {peft.get('base_model_name_or_path')}, manifest {manifest.get('base_model')},"
            f" config {config.get('base')}"
        )
    train_cfg = folder / "train_config.json"
    if train_cfg.is_file() and json.loads(train_cfg.read_text(encoding="utf-8")) != config:
        problems.append("train_config.json differs from the manifest's config")
    return problems
