"""`drowzee`: build and inspect the knowledge base, derive facts, prove claims, generate tests."""

from __future__ import annotations

import logging
import time
from enum import StrEnum
from pathlib import Path
from typing import Annotated

import typer

from drowzee_core.cli.evaluate import models_app, report, run_llm, score
from drowzee_core.cli.generate import generate_app
from drowzee_core.cli.output import (
    JsonOpt,
    KbOpt,
    console,
    emit_json,
    err,
    fail,
    kv,
    load_reasoner,
    progress,
    table,
)
from drowzee_core.cli.schemas import schemas_app
from drowzee_core.cli.temporal import temporal_app
from drowzee_core.cli.train import eval_app, train_app
from drowzee_core.config import default_kb_path
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.enums import ProofStatus

app = typer.Typer(help="Drowzee Triangulator: provable fact-conflicting hallucination tests.", no_args_is_help=True)
kb_app = typer.Typer(help="Build, load and inspect the knowledge base.", no_args_is_help=True)
app.add_typer(kb_app, name="kb")
app.add_typer(temporal_app, name="temporal")
app.add_typer(generate_app, name="generate")
app.add_typer(models_app, name="models")
app.add_typer(train_app, name="train")
app.add_typer(eval_app, name="eval")
app.add_typer(schemas_app, name="schemas")
app.command("run-llm")(run_llm)
app.command("score")(score)
app.command("report")(report)


class Format(StrEnum):
    """Input formats of `drowzee kb load`."""

    CSV = "csv"
    JSONL = "jsonl"
    PROLOG = "prolog"
    WIKIDATA_JSON = "wikidata-json"


@app.callback()
def _main(verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Log progress details.")] = False) -> None:
    level = logging.INFO if verbose else logging.WARNING
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")


@kb_app.command("build")
def kb_build(kb: KbOpt = None, as_json: JsonOpt = False) -> None:
    """Build the bundled seed KB from registry packages (offline; about a minute)."""
    from drowzee_core.kb.build import build_seed_kb
    from drowzee_core.kb.sources import SOURCES

    out = kb or default_kb_path()
    out.parent.mkdir(parents=True, exist_ok=True)
    with progress() as prog:
        task = prog.add_task("building seed KB", total=len(SOURCES))

        def step(name: str, new: int, seconds: float) -> None:
            prog.update(task, advance=1, description=f"{name}: {new} triples ({seconds:.1f}s)")

        t0 = time.perf_counter()
        try:
            stats = build_seed_kb(out, on_source=step)
        except DrowzeeError as exc:
            raise fail(exc) from exc
    data = stats.to_json() | {"path": str(out), "seconds": round(time.perf_counter() - t0, 1)}
    if as_json:
        emit_json(data)
    else:
        _print_stats(data)


@kb_app.command("load")
def kb_load(
    file: Annotated[Path, typer.Argument(exists=True, dir_okay=False, help="File of triples to add.")],
    fmt: Annotated[Format, typer.Option("--format", help="Input format.")],
    kb: KbOpt = None,
    domain: Annotated[str, typer.Option(help="Domain for rows that name none.")] = "general",
    relation: Annotated[str | None, typer.Option(help="wikidata-json: relation when the query has no ?p.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Add triples from a file; bad rows are reported with file, line and reason, the rest load."""
    from drowzee_core.kb.catalog import Catalog
    from drowzee_core.kb.loaders import load_csv, load_jsonl, load_wikidata_json
    from drowzee_core.kb.store import KBStore
    from drowzee_core.kb.writer import KBWriter

    path = kb or default_kb_path()
    try:
        store = KBStore(path, create=True)
        catalog = store.catalog() if store.relation_ids() else Catalog.from_toml()
        writer = KBWriter(store, catalog, auto_relations=True)
        if fmt is Format.CSV:
            report = load_csv(file, writer, domain)
        elif fmt is Format.JSONL:
            report = load_jsonl(file, writer, domain)
        elif fmt is Format.WIKIDATA_JSON:
            report = load_wikidata_json(file, writer, relation, domain)
        else:
            from drowzee_core.logic.engine import PrologEngine
            from drowzee_core.logic.prolog_facts import load_prolog_facts

            report = load_prolog_facts(file, writer, PrologEngine(), domain)
        store.close()
    except DrowzeeError as exc:
        raise fail(exc) from exc
    data = report.to_json() | {"kb": str(path)}
    if as_json:
        emit_json(data)
    else:
        kv(f"loaded {file}", {k: v for k, v in data.items() if k != "errors"})
        for e in report.errors[:50]:
            err.print(f"[yellow]rejected[/yellow] {e}")
        if len(report.errors) > 50:
            err.print(f"... and {len(report.errors) - 50} more (use --json for up to 1,000)")


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
        _print_stats(data)


def _print_stats(data: dict[str, object]) -> None:
    kv("knowledge base", {k: v for k, v in data.items() if not isinstance(v, dict)})
    for key in ("domains", "sources"):
        sub = data.get(key)
        if isinstance(sub, dict):
            table(key, (key[:-1], "triples"), sorted(sub.items()))


@app.command("derive")
def derive(kb: KbOpt = None, as_json: JsonOpt = False) -> None:
    """Derive every materializable fact (symmetric, inverse, transitive, composite) and time each family."""
    try:
        t0 = time.perf_counter()
        reasoner = load_reasoner(kb)
        load_s = time.perf_counter() - t0
        with progress() as prog:
            task = prog.add_task("deriving", total=None)
            runs = reasoner.derive(lambda fam: prog.update(task, description=f"deriving {fam}"))
    except DrowzeeError as exc:
        raise fail(exc) from exc
    families: dict[str, dict[str, object]] = {
        str(r.family): {"facts": r.facts, "seconds": round(r.seconds, 3)} for r in runs
    }
    families["negation"] = {"facts": None, "mode": "on_demand", "note": "decided per query by `prove`"}
    families["same_object"] = {"facts": None, "mode": "on_demand", "note": "decided per query by `prove`"}
    data = {"triples_loaded": reasoner.triples, "load_seconds": round(load_s, 3), "families": families}
    if as_json:
        emit_json(data)
    else:
        rows = [
            (f, "on demand" if v["facts"] is None else v["facts"], v.get("seconds", "-")) for f, v in families.items()
        ]
        table("derivation", ("family", "facts", "seconds"), rows)


@app.command("prove")
def prove(
    subject: Annotated[str, typer.Argument(help="Entity key or label.")],
    relation: Annotated[str, typer.Argument(help="Relation name or label, e.g. located_in.")],
    obj: Annotated[str, typer.Argument(metavar="OBJECT", help="Entity key or label.")],
    kb: KbOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Prove a claim: supported / contradicted (with the proof) or unknown."""
    try:
        verdict = load_reasoner(kb).prove(subject, relation, obj)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    if as_json:
        emit_json(verdict.to_json())
        return
    colour = {ProofStatus.SUPPORTED: "green", ProofStatus.CONTRADICTED: "red"}.get(verdict.status, "yellow")
    console.print(f"[{colour}]{verdict.status}[/{colour}]  {subject} {verdict.relation} {obj}")
    for line in verdict.lines():
        console.print("  " + line, markup=False)
