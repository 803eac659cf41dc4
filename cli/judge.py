"""`drowzee train judge` and `drowzee eval judge`: the grounded judge (evidence supports the response?)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.output import JsonOpt, command_params, emit_json, err, fail, kv, track
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
    out: Annotated[Path, typer.Option("--out", help="Judge folder to write.")],
    model: Annotated[
        str, typer.Option("--model", help="`align` (alignment features + perceptron, shipped) or `cross-encoder`.")
    ] = "align",
    hidden: Annotated[str, typer.Option("--hidden", help="align: hidden layer sizes, comma-separated.")] = "64,32",
    split_claims: Annotated[
        bool, typer.Option("--split-claims", help="align: score each response sentence as its own claim.")
    ] = False,
    max_steps: Annotated[int, typer.Option("--max-steps", min=1, help="cross-encoder: optimizer steps.")] = 1000,
    max_minutes: Annotated[
        float | None, typer.Option("--max-minutes", help="cross-encoder: stop after this long.")
    ] = None,
    batch_size: Annotated[int, typer.Option("--batch-size", min=1)] = 16,
    learning_rate: Annotated[float, typer.Option("--lr")] = 1e-3,
    max_length: Annotated[
        int | None,
        typer.Option("--max-length", min=32, max=2048, help="Word pieces per window (align 512, cross-encoder 128)."),
    ] = None,
    lora_r: Annotated[int, typer.Option("--lora-r", min=1)] = 16,
    first_layer: Annotated[int, typer.Option("--first-layer", help="LoRA on layers >= this (0-5).")] = 2,
    save_steps: Annotated[int, typer.Option("--save-steps", min=1)] = 100,
    band_share: Annotated[float, typer.Option("--band-share", help="Share of dev inside the abstention band.")] = 0.1,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    limit: LimitOpt = None,
    add_from: Annotated[
        list[Path] | None,
        typer.Option(
            "--add-from",
            help="A finished `drowzee benchmark` run: its confirmed hallucinations and as many right answers,"
            " judged against their cases' facts, join the training data (repeatable).",
        ),
    ] = None,
    resume: Annotated[
        bool, typer.Option("--resume", help="cross-encoder: continue an interrupted run in --out.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Train the judge (alignment model or cross-encoder), calibrate it on dev, export it with its manifest."""
    from drowzee_core.llm.judge.manifest import JUDGE_MANIFEST

    try:
        sizes = tuple(int(x) for x in hidden.split(",") if x.strip())
    except ValueError:
        raise fail(DrowzeeError(f"--hidden must be comma-separated integers, got {hidden!r}")) from None
    try:
        if model not in ("align", "cross-encoder"):
            raise DrowzeeError(f"--model must be `align` or `cross-encoder`, got {model!r}")
        if not resume and ((out / "adapter_config.json").exists() or (out / JUDGE_MANIFEST).exists()):
            raise DrowzeeError(f"{out} already holds a judge; choose another --out or delete it")
        train, dev_set = _examples(data, limit), _examples(dev, None)
        cards: dict[str, Any] = {"train": _data_card(data, train), "dev": _data_card(dev, dev_set)}
        if add_from:
            from finetune.loop_data import loop_judge_examples

            added = []
            for run in add_from:
                examples, record = loop_judge_examples(run, seed)
                train += examples
                added.append(record.model_dump() | {"examples": len(examples)})
                err.print(f"--add-from {run}: {len(examples)} examples ({record.hallucinations} hallucinations)")
            cards["added"] = added
        fitted_on = {"file": dev.name, **cards["dev"]}
        if model == "align":
            summary = _train_align(
                train, dev_set, cards, fitted_on, out, sizes, split_claims, max_length, band_share, seed
            )
        else:
            summary = _train_cross_encoder(
                train,
                dev_set,
                cards,
                fitted_on,
                out,
                resume,
                {
                    "max_length": max_length or 128,
                    "batch_size": batch_size,
                    "learning_rate": learning_rate,
                    "max_steps": max_steps,
                    "max_minutes": max_minutes,
                    "save_steps": save_steps,
                    "band_share": band_share,
                    "seed": seed,
                    "lora_r": lora_r,
                    "first_layer": first_layer,
                },
            )
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json(summary)
    else:
        dev_m = summary["dev"]
        err.print(f"{model}: dev balanced accuracy {dev_m['balanced_accuracy']} {dev_m['ci95']} -> {out}")


def _train_align(
    train: list[Any],
    dev_set: list[Any],
    cards: dict[str, Any],
    fitted_on: dict[str, Any],
    out: Path,
    hidden: tuple[int, ...],
    split_claims: bool,
    max_length: int | None,
    band_share: float,
    seed: int,
) -> dict[str, Any]:
    from finetune.judge.align_train import AlignTrainConfig, export_align, fit_align
    from finetune.judge.export import calibrate_on_dev

    cfg = AlignTrainConfig(hidden, max_length or 512, split_claims, band_share, seed)
    with track("encoding and fitting", len(train)) as done:
        fitted, result = fit_align(train, cfg, on_progress=done)
    with track("calibrating on dev", None):
        cal, metrics = calibrate_on_dev(fitted, dev_set, band_share, fitted_on)
    manifest = export_align(fitted, out, cfg, result, cal, cards, metrics)
    return vars(result) | {"model": "align", "out": str(out), "manifest": str(manifest), "dev": metrics["dev"]}


def _train_cross_encoder(
    train: list[Any],
    dev_set: list[Any],
    cards: dict[str, Any],
    fitted_on: dict[str, Any],
    out: Path,
    resume: bool,
    opts: dict[str, Any],
) -> dict[str, Any]:
    import shutil

    from drowzee_core.llm.judge.cross_encoder import LoraSpec
    from finetune.judge.export import calibrate_on_dev, export_judge
    from finetune.judge.train import JudgeTrainConfig
    from finetune.judge.train import train_judge as run

    r = opts.pop("lora_r")
    cfg = JudgeTrainConfig(
        **{k: v for k, v in opts.items() if k != "first_layer"},
        lora=LoraSpec(r=r, alpha=2 * r, first_layer=opts["first_layer"]),
    )
    with track("training the judge", cfg.max_steps) as done:
        enc, result = run(train, cfg, out, resume=resume, on_step=lambda step, _loss: done(step))
    with track("calibrating on dev", None):
        cal, metrics = calibrate_on_dev(enc, dev_set, cfg.band_share, fitted_on)
    manifest = export_judge(enc, out, cfg, result, cal, cards, metrics)
    shutil.rmtree(out / "checkpoints", ignore_errors=True)  # the run finished: nothing left to resume
    return vars(result) | {"model": "cross-encoder", "out": str(out), "manifest": str(manifest), "dev": metrics["dev"]}


def calibrate_judge(
    adapter: Annotated[Path, typer.Option("--adapter", help="An exported judge folder (its manifest is rewritten).")],
    dev: Annotated[
        Path, typer.Option("--dev", help="Dev JudgeExamples: OUR generated dev split, or held-out rows of train/.")
    ],
    band_share: Annotated[float, typer.Option("--band-share", help="Share of dev inside the abstention band.")] = 0.1,
    as_json: JsonOpt = False,
) -> None:
    """Fit an exported judge's calibration anew on another dev set; the weights are kept as they are."""
    from finetune.judge.export import recalibrate

    try:
        dev_set = _examples(dev, None)
        if "peers" in dev.resolve().parts:
            raise DrowzeeError(f"{dev} is evaluation data (peers/): calibrate on our dev split or train/ rows")
        with track("calibrating on dev", None):
            manifest, metrics = recalibrate(
                adapter, dev_set, band_share, {"file": dev.name, **_data_card(dev, dev_set)}
            )
    except DrowzeeError as exc:
        raise fail(exc) from exc
    summary = {"manifest": str(manifest), "dev": metrics["dev"]}
    if as_json:
        emit_json(summary)
    else:
        err.print(f"recalibrated: dev balanced accuracy {metrics['dev']['balanced_accuracy']} -> {manifest}")


def eval_judge(
    ctx: typer.Context,
    data: Annotated[
        Path,
        typer.Option(
            "--data",
            help="JudgeExamples, QRPairs or external JSONL rows, or a `drowzee benchmark` run folder (its"
            " confirmed hallucinations and as many right answers, against their cases' facts).",
        ),
    ],
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
            from finetune.loop_data import data_files

            write_jsonl(
                rows, out, provenance("eval.judge", params, inputs=input_files(data_files(data)), counts=summary)
            )
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json(summary)
    else:
        kv(f"judge on {data.name}", {k: v for k, v in summary.items() if k != "baselines"})


__all__ = ["calibrate_judge", "eval_judge", "train_judge"]
