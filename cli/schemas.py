"""`drowzee schemas`: JSON Schemas of the public records (`drowzee_core.records.schemas`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.output import JsonOpt, emit_json, err
from drowzee_core.records.schemas import PUBLIC_RECORDS, export, stale

schemas_app = typer.Typer(help="JSON Schemas of the public records.", no_args_is_help=True)


@schemas_app.command("export")
def export_schemas(
    out: Annotated[Path, typer.Option("--out", file_okay=False, help="Folder of the schema files.")] = Path(
        "docs/schemas"
    ),
    check: Annotated[
        bool, typer.Option("--check", help="Write nothing; exit 1 naming the schemas that are missing or stale.")
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Write `<name>.schema.json` for every public record (qa_case, qr_pair, verdict, ...)."""
    if check:
        names = stale(out)
        if as_json:
            emit_json({"out": str(out), "stale": names})
        elif names:
            err.print(f"stale schemas in {out}: {', '.join(names)}; run `drowzee schemas export`", markup=False)
        else:
            err.print(f"all {len(PUBLIC_RECORDS)} schemas in {out} are up to date", markup=False)
        if names:
            raise typer.Exit(1)
        return
    paths = export(out)
    if as_json:
        emit_json({"out": str(out), "written": [p.name for p in paths]})
    else:
        err.print(f"wrote {len(paths)} schemas to {out}", markup=False)
