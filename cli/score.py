"""`drowzee score KIND`: judge answer files with a registered scorer (`SCORERS`).

With `--out`, the judged rows are written as JSONL with a sidecar (producer `score.KIND`): the
options, the input files' sha256, the KB fingerprint their sidecars agree on, and the summary.
`drowzee score verdicts` also prints the per-decision figures (`drowzee_core.oracles.decisions`):
counts per decision, coverage, and accuracy on decided, undecided and all rows beside the baselines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from cli.output import JsonOpt, command_params, emit_json, err, fail, names_help, progress, table
from drowzee_core.errors import DrowzeeError
from drowzee_core.oracles.registry import EXTRACTORS, SCORERS, ScoreOptions


def score(
    ctx: typer.Context,
    kind: Annotated[str, typer.Argument(help=f"Scorer: {names_help(SCORERS)}.")],
    inputs: Annotated[list[Path], typer.Argument(help="Answer files (.json, .jsonl or .csv).")],
    out: Annotated[Path | None, typer.Option("--out", help="Write one judged record per input row (JSONL).")] = None,
    model: Annotated[str | None, typer.Option("--model", help="Model name for rows that have none.")] = None,
    match_threshold: Annotated[float, typer.Option("--match-threshold", min=0.0, max=1.0)] = 0.5,
    extractor: Annotated[
        str, typer.Option("--extractor", help=f"Response triples (drowzee): {names_help(EXTRACTORS)}.")
    ] = "spacy",
    no_synonyms: Annotated[
        bool,
        typer.Option("--no-synonyms", help="Drowzee: match nodes without WordNet synonyms (the summary records it)."),
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """Judge answers: Drowzee CO/OL/EI/EK, ERBench A/R/AR/H, FactCHD FactCls/ExpMatch."""
    from drowzee_core.oracles.inputs import read_rows
    from drowzee_core.records.jsonl import write_jsonl
    from drowzee_core.records.provenance import input_files, provenance, upstream_fingerprint

    try:
        entry = SCORERS.entry(kind)
        opts = ScoreOptions(match_threshold=match_threshold, extractor=extractor, synonyms=not no_synonyms)
        rows: list[dict[str, Any]] = []
        for path in inputs:
            rows.extend(r if r.get("model") or not model else r | {"model": model} for r in read_rows(path))
        with progress() as prog:
            task = prog.add_task("scoring", total=len(rows))
            judged, summary = entry.value(rows, opts, lambda k: prog.update(task, advance=k))
        if out:
            meta = provenance(
                entry.producer,
                command_params(ctx),
                kb_fingerprint=upstream_fingerprint(inputs),
                inputs=input_files(inputs),
                counts=summary,
            )
            write_jsonl(judged, out, meta)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json(summary)
        return
    overall = summary.get("overall", summary.get("all", summary))
    err.print(json.dumps(overall, indent=1), markup=False)
    if isinstance(overall, dict) and "decisions" in overall:
        _show_decisions(overall["decisions"])


def _show_decisions(figs: dict[str, Any]) -> None:
    """The per-decision figures as a line of counts and a table (coverage in its title)."""
    from drowzee_core.oracles.decisions import DECISION_COLUMNS, counts_line, coverage_line, decision_rows

    err.print(f"decisions: {counts_line(figs['decisions'])}", markup=False)
    table(f"per decision: {coverage_line(figs)}", DECISION_COLUMNS, decision_rows(figs))
