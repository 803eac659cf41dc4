"""`drowzee train guardian` and `drowzee eval guardian`: LoRA-tune the Truth Guardian and measure it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.output import JsonOpt, console, emit_json, err, fail, progress
from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError

train_app = typer.Typer(help="Train models on generated data.", no_args_is_help=True)
eval_app = typer.Typer(help="Evaluate trained models on generated data.", no_args_is_help=True)

DataOpt = Annotated[Path, typer.Option("--data", help="FactCHD-style pairs (JSONL), e.g. `drowzee generate factchd`.")]
LimitOpt = Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N pairs.")]
EvalDataOpt = Annotated[
    Path,
    typer.Option(
        "--data",
        help="FactCHD-style pairs (JSONL), or a `drowzee benchmark` run folder (its confirmed hallucinations"
        " and as many right answers, as `--add-from` trains on them).",
    ),
]


@train_app.command("guardian")
def train_guardian(
    data: DataOpt,
    base: Annotated[
        str | None,
        typer.Option("--base", help="Base model: smollm2-135m (default), gemma3-270m, or a local HF folder."),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", help="Adapter folder (default: <home>/adapters/<name>).")] = None,
    config: Annotated[
        Path | None, typer.Option("--config", help="Training config JSON; options below override it.")
    ] = None,
    name: Annotated[str | None, typer.Option("--name", help="Served model name of the adapter.")] = None,
    modes: Annotated[
        list[str] | None, typer.Option("--mode", help="guardian, judge, arbitration (repeatable).")
    ] = None,
    max_steps: Annotated[int | None, typer.Option("--max-steps", min=1)] = None,
    batch_size: Annotated[int | None, typer.Option("--batch-size", min=1)] = None,
    learning_rate: Annotated[float | None, typer.Option("--lr")] = None,
    max_length: Annotated[int | None, typer.Option("--max-length", min=32)] = None,
    save_steps: Annotated[int | None, typer.Option("--save-steps", min=1)] = None,
    seed: Annotated[int | None, typer.Option("--seed")] = None,
    limit: LimitOpt = None,
    resume: Annotated[bool, typer.Option("--resume", help="Continue an interrupted run in --out.")] = False,
    keep_checkpoints: Annotated[bool, typer.Option("--keep-checkpoints")] = False,
    add_from: Annotated[
        list[Path] | None,
        typer.Option(
            "--add-from",
            help="A finished `drowzee benchmark` run: its confirmed hallucinations (and as many right answers)"
            " join the training pairs (repeatable; recorded in the manifest).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """LoRA-tune a base model into a Guardian: FACTUAL / NON-FACTUAL + explanation."""
    from dataclasses import asdict

    from finetune.config import TrainConfig
    from finetune.evaluate import read_pairs
    from finetune.train import train

    try:
        values: dict[str, Any] = asdict(TrainConfig.load(config)) if config else {}
        given = {
            "base": base,
            "name": name,
            "modes": modes,
            "max_steps": max_steps,
            "batch_size": batch_size,
            "learning_rate": learning_rate,
            "max_length": max_length,
            "save_steps": save_steps,
            "seed": seed,
        }
        values.update({k: v for k, v in given.items() if v is not None})
        cfg = TrainConfig.from_dict(values)
        target = out or home() / "adapters" / cfg.name
        if not resume and (target / "adapter_config.json").exists():
            raise DrowzeeError(f"{target} already holds an adapter; choose another --out or delete it")
        pairs, added = read_pairs(data, limit), []
        for run in add_from or []:
            from finetune.loop_data import loop_pairs

            more, record = loop_pairs(run, cfg.seed)
            pairs += more
            added.append(record.model_dump())
            err.print(f"--add-from {run}: {record.hallucinations} hallucinations + {record.correct} right answers")
        result = train(
            pairs,
            cfg,
            target,
            resume=resume,
            keep_checkpoints=keep_checkpoints,
            data_name=data.name,
            added=added,
        )
    except DrowzeeError as exc:
        raise fail(exc) from exc
    summary = vars(result) | {"out": str(target), "name": cfg.name, "base": cfg.base}
    if as_json:
        emit_json(summary)
    else:
        err.print(
            f"{result.steps} steps on {result.examples} examples in {result.seconds:.0f}s"
            f" ({result.tokens_per_second:.0f} tokens/s); train loss {result.train_loss},"
            f" eval loss {result.eval_loss} -> {target}"
        )


@eval_app.command("guardian")
def eval_guardian(
    data: EvalDataOpt,
    out: Annotated[Path, typer.Option("--out", help="One judged row per pair (JSONL), with OUT.meta.json.")],
    adapter: Annotated[Path | None, typer.Option("--adapter", help="Adapter folder, served on a private port.")] = None,
    base: Annotated[str | None, typer.Option("--base", help="A base model without adapter (the baselines).")] = None,
    shots: Annotated[int, typer.Option("--shots", min=0, max=16, help="Few-shot examples (0: zero-shot).")] = 0,
    shots_from: Annotated[
        Path | None, typer.Option("--shots-from", help="Pairs to draw few-shot examples from.")
    ] = None,
    mode: Annotated[
        str, typer.Option("--mode", help="Prompt format: guardian, or judge (with evidence).")
    ] = "guardian",
    max_tokens: Annotated[int, typer.Option("--max-tokens", min=1, max=4096)] = 160,
    limit: LimitOpt = None,
    update_manifest: Annotated[
        bool,
        typer.Option("--update-manifest", help="Record the figures in the adapter, keyed by data sha256 and limit."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """FactCls / ExpMatch / acc / macro-F1 with 95 % intervals beside the constant baselines."""
    from drowzee_core.oracles.stats import table
    from finetune.evaluate import EvalRequest, read_pairs, run_guardian_eval

    req = EvalRequest(data, out, adapter, base, shots, shots_from, mode, max_tokens, limit, update_manifest)
    try:
        with progress() as prog:
            task = prog.add_task("judging", total=len(read_pairs(data, limit)))
            report = run_guardian_eval(req, on_batch=lambda n: prog.update(task, advance=n))
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json(report.model_dump(mode="json"))
    else:
        console.print(table([report.figures, *report.baselines]), markup=False, soft_wrap=True)
        err.print(f"{report.pairs} pairs of {data} ({report.failed} failed) -> {out}", markup=False)
    if report.failed:
        raise typer.Exit(1)
