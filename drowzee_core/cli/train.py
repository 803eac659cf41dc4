"""`drowzee train guardian` and `drowzee eval guardian`: LoRA-tune the Truth Guardian and measure it."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from drowzee_core.cli.output import JsonOpt, command_params, emit_json, err, fail, progress
from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError

train_app = typer.Typer(help="Train models on generated data.", no_args_is_help=True)
eval_app = typer.Typer(help="Evaluate trained models on generated data.", no_args_is_help=True)

DataOpt = Annotated[Path, typer.Option("--data", help="FactCHD-style pairs (JSONL), e.g. `drowzee generate factchd`.")]
LimitOpt = Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N pairs.")]


def _pairs(data: Path, limit: int | None) -> list[dict[str, Any]]:
    from drowzee_core.oracles.inputs import read_rows

    rows = read_rows(data)[:limit]
    if not rows:
        raise DrowzeeError(f"{data} has no pairs")
    return rows


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
    as_json: JsonOpt = False,
) -> None:
    """LoRA-tune a base model into a Guardian: FACTUAL / NON-FACTUAL + explanation."""
    from dataclasses import asdict

    from finetune.config import TrainConfig
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
        result = train(
            _pairs(data, limit), cfg, target, resume=resume, keep_checkpoints=keep_checkpoints, data_name=data.name
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
    ctx: typer.Context,
    data: DataOpt,
    out: Annotated[Path, typer.Option("--out", help="One judged row per pair (JSONL).")],
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
        bool, typer.Option("--update-manifest", help="Record the metrics in the adapter.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """FactCls / ExpMatch (per pattern and overall) of a Guardian: an adapter, a base model, or the role."""
    from drowzee_core.llm.local import find_adapters, read_adapter
    from drowzee_core.llm.roles import chat_model, load_role
    from drowzee_core.llm.runner import AnswerCache
    from drowzee_core.llm.server import ensure_local_server, free_port, stop_server
    from drowzee_core.records.provenance import input_files, provenance
    from finetune.data import MODES, pick_shots
    from finetune.evaluate import STOP, eval_cases, evaluate

    proc = None
    try:
        if adapter and base:
            raise DrowzeeError("give --adapter (a trained Guardian) or --base (a baseline), not both")
        if mode not in MODES[:2]:
            raise DrowzeeError(f"--mode must be guardian or judge, got {mode!r}")
        if shots and not shots_from:
            raise DrowzeeError("--shots needs --shots-from FILE (training pairs, never the test pairs)")
        pairs = _pairs(data, limit)
        pool = pick_shots(_pairs(shots_from, None), shots) if shots and shots_from else []
        overrides: dict[str, Any] = {"max_tokens": max_tokens, "model": base}
        fingerprint = ""
        if adapter:
            info = read_adapter(adapter)
            port = free_port()
            proc = ensure_local_server(port=port, adapters=[adapter])
            overrides |= {"base_url": f"http://127.0.0.1:{port}/v1", "model": info.name}
            fingerprint = str(info.manifest.get("weights_sha256", ""))
        cfg = load_role("guardian", overrides)
        if not adapter and cfg.is_local:
            served = find_adapters().get(cfg.model)
            fingerprint = str(served.manifest.get("weights_sha256", "")) if served else ""
        client = chat_model(cfg, stop=STOP)
        cases = eval_cases(pairs, mode, pool)
        endpoint = "local-adapter" if adapter else cfg.base_url  # a private server's port changes every run
        model_id = f"{endpoint}|{cfg.model}|{fingerprint}|{cfg.temperature}|{cfg.max_tokens}|{STOP}"
        cache = AnswerCache(home() / "cache" / "answers.sqlite")
        meta = provenance(
            "eval.guardian", command_params(ctx, model_id=model_id), inputs=input_files([data, shots_from])
        )
        with progress() as prog:
            task = prog.add_task(f"{cfg.model}: judging", total=len(cases))
            summary, stats = evaluate(
                cases, client, model_id, cfg.model, cache, out, meta, on_batch=lambda n: prog.update(task, advance=n)
            )
        cache.close()
        if update_manifest and adapter:
            _record(adapter, data, shots, summary)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    finally:
        if proc is not None:
            stop_server(proc)
    result = {
        "model": cfg.model,
        "adapter": str(adapter) if adapter else None,
        "shots": shots,
        "mode": mode,
        "pairs": len(cases),
        "metrics": summary,
        "failed": stats.failed,
        "prompt_tokens": stats.prompt_tokens,
        "completion_tokens": stats.completion_tokens,
        "seconds": round(stats.seconds, 1),
        "out": str(out),
    }
    if as_json:
        emit_json(result)
    else:
        overall = summary["all"]
        err.print(
            f"{cfg.model}: FactCls {overall['factcls']}, ExpMatch {overall['exp_match']},"
            f" acc {overall['acc']} on {len(cases)} pairs ({stats.failed} failed) -> {out}"
        )
    if stats.failed:
        raise typer.Exit(1)


def _record(adapter: Path, data: Path, shots: int, summary: dict[str, Any]) -> None:
    from drowzee_core.llm.local import read_adapter
    from finetune.train import write_manifest

    manifest = read_adapter(adapter).manifest
    manifest.setdefault("metrics", {})[f"{data.name}{'' if not shots else f'@{shots}shot'}"] = summary["all"]
    write_manifest(adapter, manifest)
