"""Export and load the judge adapter: peft weights + head, and `judge_manifest.json` written by code.

The manifest is named `judge_manifest.json`, not `manifest.json`, because the model server scans
adapter folders for `manifest.json` to serve generative LoRA adapters; the judge runs in-process.
Two kinds share the manifest: the cross-encoder (`adapter_model.safetensors`) and the alignment
model (`align_weights.json`). It records the base, the data sources with their fingerprints, the config, the
calibration, the measured figures, the code version and the weights' sha256.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.judge import JudgeExample, Support
from drowzee_core.records.provenance import atomic_write_text, code_version, file_sha256, make_readable
from finetune.judge.calibrate import Calibration, fit_calibration
from finetune.judge.chunk import score_inputs
from finetune.judge.evaluate import summarize
from finetune.judge.model import BASE_NAME, CrossEncoder, base_path
from finetune.judge.train import JudgeTrainConfig, JudgeTrainResult

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


def write_manifest(out: Path, kind: str, weights_file: str, fields: dict[str, Any]) -> Path:
    """Write `out/judge_manifest.json` for a model of `kind` whose weights are `out/weights_file`."""
    make_readable(out / weights_file)
    commit, dirty = code_version()
    manifest = {
        "name": "judge",
        "kind": kind,
        "base_model": BASE_NAME,
        "base_weights_sha256": file_sha256(base_path() / "model.safetensors"),
        **fields,
        "code_version": commit,
        "code_dirty": dirty,
        "weights_file": weights_file,
        "weights_sha256": file_sha256(out / weights_file),
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    path = out / JUDGE_MANIFEST
    atomic_write_text(path, json.dumps(manifest, indent=2, sort_keys=True) + "\n")
    return path


def export_judge(
    enc: CrossEncoder,
    out: Path,
    config: JudgeTrainConfig,
    result: JudgeTrainResult,
    calibration: Calibration,
    data: dict[str, Any],
    metrics: dict[str, Any],
) -> Path:
    """Save the cross-encoder adapter to `out` and write its manifest; returns the manifest path."""
    out.mkdir(parents=True, exist_ok=True)
    enc.model.save_pretrained(str(out))
    (out / "README.md").unlink(missing_ok=True)  # peft's blank model card; the manifest says what this is
    fields = {
        "max_length": config.max_length,
        "data": data,
        "config": json.loads(json.dumps(asdict(config))),
        "training": asdict(result),
        "calibration": calibration.model_dump(),
        "metrics": metrics,
    }
    return write_manifest(out, "cross-encoder", WEIGHTS, fields)


def score_dev(model: JudgeModel, dev: Sequence[JudgeExample]) -> list[float]:
    """Raw response logits of dev examples through the serving path (chunks, claims)."""
    return [
        s.logit
        for s in score_inputs(
            [(ex.query, ex.response, ex.evidence) for ex in dev],
            model.logits,
            model.token_count,
            model.max_length,
            split=model.split_claims,
            joiner=model.joiner,
        )
    ]


def calibrate_on_dev(
    model: JudgeModel, dev: Sequence[JudgeExample], band_share: float, fitted_on: dict[str, Any]
) -> tuple[Calibration, dict[str, Any]]:
    """Fit the calibration on the dev split and measure the calibrated judge there (per source too)."""
    logits = score_dev(model, dev)
    gold = [ex.label == Support.SUPPORTED for ex in dev]
    cal = fit_calibration(logits, gold, band_share, fitted_on)
    p = cal.prob(logits)
    decided = [cal.decide(float(x)) is not None for x in p]
    metrics = {"dev": summarize(gold, p.tolist(), cal.threshold, decided)}
    by_source: dict[str, list[int]] = {}
    for i, ex in enumerate(dev):
        by_source.setdefault(ex.recipe or ex.source, []).append(i)
    metrics["dev_by_recipe"] = {
        k: summarize([gold[i] for i in v], [float(p[i]) for i in v], cal.threshold, [decided[i] for i in v])
        for k, v in sorted(by_source.items())
        if len(v) >= 10
    }
    return cal, metrics


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
    return Path(__file__).resolve().parents[1] / "adapters" / "judge"


__all__ = [
    "JUDGE_MANIFEST",
    "KINDS",
    "JudgeModel",
    "calibrate_on_dev",
    "export_judge",
    "judge_weights_sha256",
    "read_manifest",
    "score_dev",
    "shipped_judge_dir",
    "write_manifest",
]
