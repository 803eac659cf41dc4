"""`drowzee models list | serve | export`: the local OpenAI-compatible model server and its ONNX exports."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from cli.output import JsonOpt, emit_json, err, fail
from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError

models_app = typer.Typer(help="The local OpenAI-compatible model server.", no_args_is_help=True)


NO_EXPORT = "none (`drowzee models export` makes it)"


@models_app.command("list")
def models_list(as_json: JsonOpt = False) -> None:
    """The models the local server serves: base models (converted yet?) and LoRA adapters (where from)."""
    from drowzee_core.llm.launch import healthy
    from drowzee_core.llm.local import BASE_MODELS, find_adapters
    from drowzee_core.llm.next_token import find_export

    try:
        adapters = find_adapters()
    except DrowzeeError as exc:
        raise fail(exc) from exc
    rows: list[dict[str, Any]] = [
        {"name": n, "kind": "base", "package": s.package, "converted": (home() / "models" / n / "config.json").exists()}
        for n, s in BASE_MODELS.items()
    ]
    rows += [
        {
            "name": a.name,
            "kind": "adapter",
            "base": a.base,
            "path": str(a.path),
            "metrics": a.manifest.get("metrics", {}),
            "onnx_export": str(export) if (export := find_export(a)) is not None else None,
        }
        for a in adapters.values()
    ]
    if as_json:
        emit_json({"models": rows, "server_up": healthy()})
    else:
        for r in rows:
            where = (
                f"({r['package']})  {'converted' if r['converted'] else 'not converted yet'}"
                if r["kind"] == "base"
                else f"LoRA on {r['base']}  {r['path']}\n    ONNX export: {r['onnx_export'] or NO_EXPORT}"
            )
            err.print(f"{r['name']}  {where}")
        err.print("server: " + ("up" if healthy() else "not running"))


@models_app.command("serve")
def models_serve(
    port: Annotated[int, typer.Option("--port", min=1024, max=65535)] = 8765,
    adapters: Annotated[list[Path] | None, typer.Option("--adapter", help="Extra adapter folder (repeatable).")] = None,
) -> None:
    """Run the local OpenAI-compatible server in the foreground on 127.0.0.1 (Ctrl-C stops it)."""
    from drowzee_core.llm.server import serve

    try:
        serve(port=port, adapters=adapters)
    except DrowzeeError as exc:
        raise fail(exc) from exc


@models_app.command("export")
def models_export(
    names: Annotated[
        list[str] | None, typer.Argument(help="Adapters to export (default: every served adapter).")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Export again even when an export exists.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Export adapters to ONNX once, so the server answers their one-token requests (the Guardian) without torch.

    Each export is checked against the torch model and kept under <home>/models/onnx/; an adapter
    exported already is skipped. A running server loads new exports when it starts again.
    """
    from drowzee_core.llm.local import find_adapters
    from drowzee_core.llm.next_token import find_export
    from drowzee_core.llm.onnx_export import export_next_token

    try:
        adapters = find_adapters()
        unknown = sorted(set(names or []) - set(adapters))
        if unknown:
            raise DrowzeeError(f"no adapter named {unknown}; adapters: {sorted(adapters)}")
        rows = []
        for name in names or sorted(adapters):
            existed = find_export(adapters[name]) is not None and not force
            folder = export_next_token(adapters[name], force=force)
            rows.append({"adapter": name, "path": str(folder), "made": not existed})
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json({"exports": rows})
        return
    for r in rows:
        err.print(f"{r['adapter']}  {'exported to' if r['made'] else 'up to date:'} {r['path']}")
