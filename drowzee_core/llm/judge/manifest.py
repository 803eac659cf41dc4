"""The judge adapter folder as the serving path reads it: `judge_manifest.json`, checked against the weights.

The manifest is named `judge_manifest.json`, not `manifest.json`, because the model server scans
adapter folders for `manifest.json` to serve generative LoRA adapters; the judge runs in-process.
It is written by `finetune.judge.export` (training) and read here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, Protocol

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.judge.cross_encoder import BASE_NAME
from drowzee_core.records.provenance import file_sha256

JUDGE_MANIFEST = "judge_manifest.json"
WEIGHTS = "adapter_model.safetensors"
KINDS = {"cross-encoder": WEIGHTS, "align": "align_weights.json"}
"""The judge kinds and the weights file each keeps (model (a) and model (c) of docs/judge.md)."""


class JudgeModel(Protocol):
    """What the serving path needs of a judge model (the cross-encoder and the alignment model)."""

    max_length: int
    joiner: str
    split_claims: bool

    @property
    def tokens_read(self) -> int:
        """Word pieces read so far."""
        ...

    def logits(self, firsts: Sequence[str], seconds: Sequence[str]) -> Iterable[float]:
        """Support logits of (query [SEP] claim, evidence chunk) pairs."""
        ...

    def token_count(self, text: str) -> int:
        """Word pieces of `text`."""
        ...


def read_manifest(adapter: Path) -> dict[str, Any]:
    """The judge manifest of folder `adapter`, checked: kind, base and the weights' sha256."""
    path = adapter / JUDGE_MANIFEST
    if not path.is_file():
        raise DrowzeeError(f"{adapter} has no {JUDGE_MANIFEST}; export a judge with `drowzee train judge`")
    try:
        manifest: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as exc:
        raise DrowzeeError(f"{path} is not valid JSON: {exc}") from exc
    kind = manifest.get("kind")
    if kind not in KINDS or manifest.get("base_model") != BASE_NAME:
        raise DrowzeeError(
            f"{path}: expected a judge of kind {sorted(KINDS)} on {BASE_NAME},"
            f" got {kind!r} on {manifest.get('base_model')!r}"
        )
    weights = adapter / str(manifest.get("weights_file") or KINDS[kind])
    if not weights.is_file() or file_sha256(weights) != manifest.get("weights_sha256"):
        raise DrowzeeError(f"{weights} does not match its manifest's sha256; re-export the judge")
    return manifest


def judge_weights_sha256(adapter: Path) -> str:
    """The sha256 of a judge folder's weights file (read from its checked manifest)."""
    return str(read_manifest(adapter)["weights_sha256"])


def shipped_judge_dir() -> Path:
    """The judge adapter that ships in the repository (`finetune/adapters/judge/`)."""
    from drowzee_core.llm.local import shipped_adapters_dir

    return shipped_adapters_dir() / "judge"


__all__ = [
    "JUDGE_MANIFEST",
    "KINDS",
    "WEIGHTS",
    "JudgeModel",
    "judge_weights_sha256",
    "read_manifest",
    "shipped_judge_dir",
]
