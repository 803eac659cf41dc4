"""`drowzee train judge` and `drowzee eval judge`: the grounded judge (evidence supports the response?)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from drowzee_core.cli.output import JsonOpt, command_params, emit_json, err, fail, kv, track
from drowzee_core.errors import DrowzeeError

LimitOpt = Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N rows.")]


def _examples(path: Path, limit: int | None) -> list[Any]:
    from pydantic import ValidationError

    from drowzee_core.oracles.inputs import read_rows
    from drowzee_core.records.judge import JudgeExample

    rows = read_rows(path)[:limit]
    if not rows:
        raise DrowzeeError(f"{path} has no examples")
    try:
        return [JudgeExample.model_validate(r) for r in rows]
    except ValidationError as exc:
        raise DrowzeeError(f"{path} does not hold JudgeExample rows (`drowzee generate judge`): {exc}") from exc


def _data_card(path: Path, examples: list[Any]) -> dict[str, Any]:
    from collections import Counter

    from drowzee_core.records.provenance import file_sha256
    from finetune.judge.data import fingerprint

    return {
        "file": path.name,
        "sha256": file_sha256(path),
        "fingerprint": fingerprint(examples),
        "examples": len(examples),
        "by_source": dict(sorted(Counter(ex.source for ex in examples).items())),
        "by_label": dict(sorted(Counter(str(ex.label) for ex in examples).items())),
    }


def train_judge(
    data: Annotated[Path, typer.Option("--data", help="Training JudgeExamples (JSONL).")],
    dev: Annotated[Path, typer.Option("--dev", help="OUR generated dev JudgeExamples: calibration is fitted here.")],
    out: Annotated[Path, typer.Option("--out", help="Adapter folder to write.")],
    max_steps: Annotated[int, typer.Option("--max-steps", min=1)] = 1000,
    max_minutes: Annotated[float | None, typer.Option("--max-minutes", help="Stop training after this long.")] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1)] = 16,
    learning_rate: Annotated[float, typer.Option("--lr")] = 1e-3,
    max_length: Annotated[int, typer.Option("--max-length", min=32, max=512)] = 128,
    lora_r: Annotated[int, typer.Option("--lora-r", min=1)] = 16,
    first_layer: Annotated[int, typer.Option("--first-layer", help="LoRA on layers >= this (0-5).")] = 2,
    save_steps: Annotated[int, typer.Option("--save-steps", min=1)] = 100,
    band_share: Annotated[float, typer.Option("--band-share", help="Share of dev inside the abstention band.")] = 0.1,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    limit: LimitOpt = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted run in --out.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Fine-tune the judge cross-encoder, calibrate it on the dev split and export it with its manifest."""
    import shutil

    from finetune.judge.export import calibrate_on_dev, export_judge
    from finetune.judge.model import LoraSpec
    from finetune.judge.train import JudgeTrainConfig
    from finetune.judge.train import train_judge as run

    try:
        cfg = JudgeTrainConfig(
            max_length=max_length,
            batch_size=batch_size,
            learning_rate=learning_rate,
            max_steps=max_steps,
            max_minutes=max_minutes,
            save_steps=save_steps,
            band_share=band_share,
            seed=seed,
            lora=LoraSpec(r=lora_r, alpha=2 * lora_r, first_layer=first_layer),
        )
        if not resume and (out / "adapter_config.json").exists():
            raise DrowzeeError(f"{out} already holds an adapter; choose another --out or delete it")
        train, dev_set = _examples(data, limit), _examples(dev, None)
        cards = {"train": _data_card(data, train), "dev": _data_card(dev, dev_set)}
        with track("training the judge", max_steps) as done:
            enc, result = run(train, cfg, out, resume=resume, on_step=lambda step, _loss: done(step))
        with track("calibrating on dev", None):
            cal, metrics = calibrate_on_dev(enc, dev_set, band_share, {"file": dev.name, **cards["dev"]})
        manifest = export_judge(enc, out, cfg, result, cal, cards, metrics)
        shutil.rmtree(out / "checkpoints", ignore_errors=True)  # the run finished: nothing left to resume
    except DrowzeeError as exc:
        raise fail(exc) from exc
    summary = vars(result) | {"out": str(out), "manifest": str(manifest), "dev": metrics["dev"]}
    if as_json:
        emit_json(summary)
    else:
        err.print(
            f"{result.steps} steps ({result.examples_per_second} examples/s, {result.seconds:.0f}s);"
            f" dev balanced accuracy {metrics['dev']['balanced_accuracy']} {metrics['dev']['ci95']} -> {out}"
        )


def eval_judge(
    ctx: typer.Context,
    data: Annotated[Path, typer.Option("--data", help="JudgeExamples, QRPairs or external JSONL rows.")],
    evidence_field: Annotated[str, typer.Option("--evidence-field", help="The rows' evidence field.")] = "evidence",
    adapter: Annotated[Path | None, typer.Option("--adapter", help="A judge adapter folder (default: role)")] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Scored rows (JSONL, with a sidecar).")] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1)] = 32,
    limit: LimitOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Balanced accuracy (95 % interval, constant baselines) and pairs/s of the judge on labelled rows."""
    import time

    from drowzee_core.llm.judge import judge_for
    from drowzee_core.records.jsonl import write_jsonl
    from drowzee_core.records.provenance import input_files, provenance
    from finetune.judge.evaluate import length_matched, read_inputs, summarize

    try:
        inputs = read_inputs(data, evidence_field, limit)
        judge = judge_for(adapter=adapter)
        scores = []
        t0 = time.monotonic()
        with track(f"judging {data.name}", len(inputs)) as done:
            for start in range(0, len(inputs), batch_size):
                part = inputs[start : start + batch_size]
                scores += judge.score([(i.query, i.response, i.evidence) for i in part])
                done(len(scores))
        seconds = time.monotonic() - t0
        labelled = [k for k, i in enumerate(inputs) if i.gold is not None]
        if not labelled:
            raise DrowzeeError(f"{data} has no labelled rows to measure against")
        p = [s.p_supported for s in scores]
        summary = summarize(
            [bool(inputs[k].gold) for k in labelled],
            [p[k] for k in labelled],
            judge.threshold,
            [scores[k].decision is not None for k in labelled],
        )
        summary |= {
            "data": str(data),
            "threshold": judge.threshold,
            "seconds": round(seconds, 2),
            "inputs_per_second": round(len(inputs) / max(seconds, 1e-9), 2),
            "length_matched": length_matched(inputs, p, judge.threshold),
        }
        if out is not None:
            rows = [i.row | s.model_dump(mode="json") for i, s in zip(inputs, scores, strict=True)]
            params = command_params(ctx, adapter=str(adapter) if adapter else "role:judge")
            write_jsonl(rows, out, provenance("eval.judge", params, inputs=input_files([data]), counts=summary))
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json(summary)
    else:
        kv(f"judge on {data.name}", {k: v for k, v in summary.items() if k != "baselines"})


__all__ = ["eval_judge", "train_judge"]
