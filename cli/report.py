"""`drowzee report`: a Markdown + HTML hallucination report with heatmaps, in an output folder.

The folder gets one sidecar, `OUT/meta.json` (producer `report`): the options, the scored files'
sha256, the KB fingerprint their sidecars agree on, and counts (rows, models, files written).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from cli.output import JsonOpt, command_params, emit_json, err, fail
from drowzee_core.errors import DrowzeeError


def report(
    ctx: typer.Context,
    inputs: Annotated[list[Path], typer.Argument(help="Scored Drowzee rows (from `drowzee score drowzee --out`).")],
    out: Annotated[Path, typer.Option("--out", file_okay=False, help="Folder for report.md, report.html, PNGs.")],
    title: Annotated[str, typer.Option("--title")] = "Hallucination report",
    as_json: JsonOpt = False,
) -> None:
    """Write a Markdown + HTML hallucination report with heatmaps per model x domain / rule."""
    from drowzee_core.oracles.inputs import read_rows
    from drowzee_core.oracles.report import write_report
    from drowzee_core.records.provenance import (
        DIR_SIDECAR,
        input_files,
        provenance,
        upstream_fingerprint,
        write_sidecar,
    )

    try:
        rows = [r for p in inputs for r in read_rows(p)]
        if not rows or "class" not in rows[0]:
            raise DrowzeeError("report needs scored rows: run `drowzee score drowzee ANSWERS --out SCORED.jsonl` first")
        models = write_report(rows, out, title)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    files = sorted(p.name for p in out.iterdir() if p.is_file() and p.name != DIR_SIDECAR)
    meta = provenance(
        "report",
        command_params(ctx),
        kb_fingerprint=upstream_fingerprint(inputs),
        inputs=input_files(inputs),
        counts={"rows": len(rows), "models": sorted(models), "files": files},
    )
    write_sidecar(out, meta)
    if as_json:
        emit_json({m: s.overall.model_dump() for m, s in models.items()} | {"out": str(out)})
    else:
        err.print(f"report for {len(models)} model(s), {len(rows)} rows -> {out / 'report.md'}")
