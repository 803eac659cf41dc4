"""`drowzee derive` and `drowzee prove`: reasoning over the KB in Prolog (they print; they write no files)."""

from __future__ import annotations

import time
from typing import Annotated

import typer

from cli.output import JsonOpt, KbOpt, console, emit_json, fail, load_reasoner, progress, table
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.enums import ProofStatus


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
    conflicts = reasoner.partition_conflicts()
    data = {
        "triples_loaded": reasoner.triples,
        "load_seconds": round(load_s, 3),
        "families": families,
        "partition_conflicts": [list(c) for c in conflicts],
    }
    if as_json:
        emit_json(data)
    else:
        rows = [
            (f, "on demand" if v["facts"] is None else v["facts"], v.get("seconds", "-")) for f, v in families.items()
        ]
        table("derivation", ("family", "facts", "seconds"), rows)
        console.print(f"partition conflicts: {len(conflicts) or 'none'}")
        for s, r, a, b in conflicts:
            console.print(f"[yellow]partition conflict[/yellow] {s} {r} both {a} and {b}")


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
