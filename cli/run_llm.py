"""`drowzee run-llm`: send generated cases to a model role; answers go to JSONL with a sidecar.

The sidecar (producer `run-llm`) records the options and the resolved role (endpoint, model,
temperature, max tokens; never the API key), the cases file's sha256, and the KB fingerprint carried
over from the cases' own sidecar.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.output import JsonOpt, command_params, emit_json, err, fail, progress
from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError


def run_llm(
    ctx: typer.Context,
    cases: Annotated[Path, typer.Option("--cases", help="Generated cases (JSONL with `id` and `prompt`).")],
    out: Annotated[Path, typer.Option("--out", help="Answers: the cases plus `llm_answer` and token counts.")],
    role: Annotated[str, typer.Option("--role", help="Model role to send the prompts to.")] = "target",
    model: Annotated[str | None, typer.Option("--model", help="Override the role's model name.")] = None,
    base_url: Annotated[str | None, typer.Option("--base-url", help="Override the role's endpoint.")] = None,
    max_tokens: Annotated[int | None, typer.Option("--max-tokens", min=1, max=32768)] = None,
    timeout: Annotated[
        float | None,
        typer.Option(
            "--timeout", min=1, max=3600, help="Seconds per call before it is retried, then counted as failed."
        ),
    ] = None,
    roles: Annotated[Path | None, typer.Option("--roles", help="Role config TOML.")] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Only the first N cases.")] = None,
    concurrency: Annotated[int, typer.Option("--concurrency", min=1, max=64)] = 4,
    as_json: JsonOpt = False,
) -> None:
    """Send each case's prompt to a model role; cached and resumable (re-run to continue)."""
    from drowzee_core.llm.roles import chat_model, load_role
    from drowzee_core.llm.runner import AnswerCache, role_identity, run_cases
    from drowzee_core.oracles.inputs import read_rows
    from drowzee_core.records.provenance import input_files, provenance, upstream_fingerprint

    try:
        rows = read_rows(cases)[:limit]
        cfg = load_role(
            role, {"model": model, "base_url": base_url, "max_tokens": max_tokens, "timeout": timeout}, roles
        )
        client = chat_model(cfg)
        cache = AnswerCache(home() / "cache" / "answers.sqlite")
        identity = role_identity(cfg, client)  # weights of a local adapter + every generation parameter
        meta = provenance(
            "run-llm",
            command_params(ctx, resolved_role=cfg.model_dump(exclude={"api_key"})),
            kb_fingerprint=upstream_fingerprint([cases]),
            inputs=input_files([cases, roles]),
        )
        with progress() as prog:
            task = prog.add_task(f"{cfg.model}: answering", total=len(rows))
            stats = run_cases(
                rows,
                client,
                identity,
                cfg.model,
                cache,
                out,
                meta,
                concurrency=concurrency,
                on_batch=lambda n: prog.update(task, advance=n),
            )
        cache.close()
    except DrowzeeError as exc:
        raise fail(exc) from exc
    summary = {k: v for k, v in vars(stats).items() if k != "errors"} | {"errors": stats.errors[:20], "out": str(out)}
    if as_json:
        emit_json(summary)
    else:
        err.print(
            f"{stats.cases} cases: {stats.called} answered now, {stats.cached} from cache, {stats.failed} failed;"
            f" {stats.prompt_tokens} prompt + {stats.completion_tokens} completion tokens;"
            f" {stats.seconds:.1f}s -> {out}"
        )
    if stats.failed:
        raise typer.Exit(1)
