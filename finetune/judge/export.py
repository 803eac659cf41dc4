"""Export and load the judge adapter: peft weights + head, and `judge_manifest.json` written by code.

The manifest is named `judge_manifest.json`, not `manifest.json`, because the model server scans
adapter folders for `manifest.json` to serve generative LoRA adapters; the judge runs in-process.
Two kinds share the manifest: the cross-encoder (`adapter_model.safetensors`) and the alignment
model (`align_weights.json`). It records the base, the data sources with their fingerprints, the config, the
calibration, the measured figures, the code version and the weights' sha256.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from drowzee_core.llm.judge.calibrate import Calibration, fit_calibration
from drowzee_core.llm.judge.chunk import score_inputs
from drowzee_core.llm.judge.cross_encoder import BASE_NAME, CrossEncoder, base_path
from drowzee_core.llm.judge.manifest import JUDGE_MANIFEST, WEIGHTS, JudgeModel
from drowzee_core.records.judge import JudgeExample, Support
from drowzee_core.records.provenance import atomic_write_text, code_version, file_sha256, make_readable
from finetune.judge.evaluate import summarize
from finetune.judge.train import JudgeTrainConfig, JudgeTrainResult


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


def recalibrate(
    adapter: Path, dev: Sequence[JudgeExample], band_share: float, fitted_on: dict[str, Any]
) -> tuple[Path, dict[str, Any]]:
    """Fit an exported judge's calibration anew on `dev` and rewrite its manifest (the weights stay).

    The manifest keeps its training record and says when and on what it was recalibrated.
    """
    from drowzee_core.llm.judge.manifest import read_manifest
    from drowzee_core.llm.judge.scoring import LocalJudge

    manifest = read_manifest(adapter)
    judge = LocalJudge(adapter)
    cal, metrics = calibrate_on_dev(judge.model, dev, band_share, fitted_on)
    fields = {k: v for k, v in manifest.items() if k not in _WRITTEN}
    previous = {"calibration": manifest["calibration"], "metrics": manifest.get("metrics")}
    fields |= {"calibration": cal.model_dump(), "metrics": metrics, "recalibrated_from": previous}
    return write_manifest(adapter, str(manifest["kind"]), str(manifest["weights_file"]), fields), metrics


_WRITTEN = frozenset(
    {"name", "kind", "base_model", "base_weights_sha256", "code_version", "code_dirty", "weights_file"}
    | {"weights_sha256", "created"}
)
"""Manifest fields `write_manifest` writes itself."""


__all__ = [
    "calibrate_on_dev",
    "export_judge",
    "recalibrate",
    "score_dev",
    "write_manifest",
]
