"""`drowzee kb build | load | stats`: the knowledge base and its provenance sidecar.

The KB file gets one sidecar, `KB.meta.json`: `kb build` writes it fresh; `kb load` adds to the KB
in place, so it rewrites the sidecar for the new content (fingerprint, the loaded file's sha256,
counts of the load) and keeps the earlier records under `history`.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from cli.output import (
    JsonOpt,
    KbOpt,
    command_params,
    emit_json,
    err,
    fail,
    kv,
    names_help,
    progress,
    table,
)
from drowzee_core.config import default_kb_path
from drowzee_core.errors import DrowzeeError
from drowzee_core.logic.kb_formats import LOADERS, LoadOptions

kb_app = typer.Typer(help="Build, load and inspect the knowledge base.", no_args_is_help=True)


@kb_app.command("build")
def kb_build(ctx: typer.Context, kb: KbOpt = None, as_json: JsonOpt = False) -> None:
    """Build the bundled seed KB from registry packages (offline; about a minute)."""
    from drowzee_core.kb import sources as seed_sources
    from drowzee_core.kb.build import build_seed_kb
    from drowzee_core.kb.store import KBStore
    from drowzee_core.records.provenance import provenance, write_sidecar

    out = kb or default_kb_path()
    out.parent.mkdir(parents=True, exist_ok=True)
    with progress() as prog:
        chosen = seed_sources.SOURCES
        task = prog.add_task("building seed KB", total=len(chosen))

        def step(name: str, new: int, seconds: float) -> None:
            prog.update(task, advance=1, description=f"{name}: {new} triples ({seconds:.1f}s)")

        t0 = time.perf_counter()
        try:
            stats = build_seed_kb(out, sources=chosen, on_source=step)
            with KBStore(out) as store:
                fingerprint = store.fingerprint()
        except DrowzeeError as exc:
            raise fail(exc) from exc
    params = command_params(ctx, kb=out, sources=[s.name for s in chosen])
    write_sidecar(out, provenance("kb.build", params, kb_fingerprint=fingerprint, counts=stats.to_json()))
    data = stats.to_json() | {"path": str(out), "seconds": round(time.perf_counter() - t0, 1)}
    if as_json:
        emit_json(data)
    else:
        print_stats(data)


@kb_app.command("load")
def kb_load(
    ctx: typer.Context,
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="File of triples to add.")],
    fmt: Annotated[str, typer.Option("--format", help=f"Input format: {names_help(LOADERS)}.")],
    kb: KbOpt = None,
    domain: Annotated[str, typer.Option(help="Domain for rows that name none.")] = "general",
    relation: Annotated[str | None, typer.Option(help="wikidata-json: relation when the query has no ?p.")] = None,
    relations: Annotated[
        Path | None,
        typer.Option(
            "--relations",
            dir_okay=False,
            help="TOML declaring your relations (the bundled catalog's format: label, templates, logic).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Add triples from a file; bad rows are reported with file, line and reason, the rest load.

    With --relations, the file's relations are declared first (checked whole: a bad declaration loads
    nothing). A relation the data uses that nothing declares gets wording from its name and no logic.
    """
    from drowzee_core.kb.declarations import read_declarations
    from drowzee_core.kb.loading import finish_load, writer_for_load
    from drowzee_core.kb.store import KBStore
    from drowzee_core.logic.scratch import bundled_catalog
    from drowzee_core.records.provenance import input_files, provenance, read_sidecar, write_sidecar

    path = kb or default_kb_path()
    try:
        loader = LOADERS.get(fmt)
        declared = read_declarations(relations) if relations is not None else None
        with KBStore(path, create=True) as store:
            plan = writer_for_load(store, declared, bundled_catalog())
            report = loader(file, plan.writer, LoadOptions(domain=domain, relation=relation))
            finish_load(store, plan, report)
            fingerprint = store.fingerprint()
        before = read_sidecar(path)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    data = report.to_json() | {"declared": list(plan.declared), "kb": str(path)}
    record = provenance(
        "kb.load",
        command_params(ctx, kb=path),
        kb_fingerprint=fingerprint,
        inputs=input_files([file, *([relations] if relations else [])]),
        counts={k: v for k, v in data.items() if k not in ("errors", "kb", "undeclared", "declared")},
    )
    if before is not None:
        record.history = [*before.history, before.model_copy(update={"history": []})]
    write_sidecar(path, record)
    if as_json:
        emit_json(data)
    else:
        kv(f"loaded {file}", {k: v for k, v in data.items() if k not in ("errors", "undeclared", "declared")})
        if plan.declared:
            err.print(f"declared {len(plan.declared)} relations: {', '.join(plan.declared)}")
        if report.undeclared:
            err.print(
                f"[yellow]undeclared[/yellow] (wording from the name, no logic; declare them with --relations):"
                f" {', '.join(report.undeclared)}"
            )
        for e in report.errors[:50]:
            err.print(f"[yellow]rejected[/yellow] {escape(str(e))}")
        if len(report.errors) > 50:
            err.print(f"... and {len(report.errors) - 50} more (use --json for up to 1,000)")


@kb_app.command("relations")
def kb_relations(kb: KbOpt = None, as_json: JsonOpt = False) -> None:
    """The KB's relation catalog: each relation's label, logic, statement template and stored facts."""
    from drowzee_core.kb.declarations import declared_names, logic_of
    from drowzee_core.kb.store import KBStore

    try:
        with KBStore(kb or default_kb_path()) as store:
            catalog, counts, declared = store.catalog(), store.relation_counts(), set(declared_names(store.meta()))
    except DrowzeeError as exc:
        raise fail(exc) from exc
    rows = [
        {
            "name": r.name,
            "label": r.label,
            "logic": logic_of(r),
            "positive": r.positive,
            "facts": counts.get(r.name, 0),
            "declared": r.name in declared,
        }
        for r in catalog
    ]
    if as_json:
        emit_json({"relations": rows})
        return
    table(
        f"{len(rows)} relations",
        ("name", "label", "logic", "statement", "facts", "declared"),
        [(r["name"], r["label"], r["logic"], r["positive"], r["facts"], "yes" if r["declared"] else "") for r in rows],
    )


@kb_app.command("stats")
def kb_stats(kb: KbOpt = None, as_json: JsonOpt = False) -> None:
    """Counts of triples, entities, relations, temporal facts, per domain and source."""
    from drowzee_core.kb.store import KBStore

    try:
        with KBStore(kb or default_kb_path()) as store:
            data = store.stats().to_json()
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json(data)
    else:
        print_stats(data)


def print_stats(data: dict[str, object]) -> None:
    """KB counts as a key/value table plus one table per domain and per source."""
    kv("knowledge base", {k: v for k, v in data.items() if not isinstance(v, dict)})
    for key in ("domains", "sources"):
        sub = data.get(key)
        if isinstance(sub, dict):
            table(key, (key[:-1], "triples"), sorted(sub.items()))
