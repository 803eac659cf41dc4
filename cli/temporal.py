"""`drowzee temporal`: check MTL queries against events, ask one, generate temporal questions.

`check` and `generate` write JSONL with a sidecar `OUT.meta.json` (producers `temporal.check` and
`temporal.generate`); the KB fingerprint is recorded when the events come from the KB.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from cli.output import (
    JsonOpt,
    KbOpt,
    command_params,
    console,
    emit_json,
    err,
    fail,
    kb_fingerprint,
    kv,
    progress,
)
from drowzee_core.config import default_kb_path
from drowzee_core.errors import DrowzeeError
from drowzee_core.logic.events import EventTable
from drowzee_core.logic.temporal import TemporalEngine, default_horizon

temporal_app = typer.Typer(
    help="Metric Temporal Logic over year intervals: check queries, ask one, generate questions.",
    no_args_is_help=True,
)

FactsOpt = Annotated[
    Path | None,
    typer.Option(
        "--facts",
        exists=True,
        dir_okay=False,
        help="Drowzee fact file (begin/end facts). Without it, events come from the KB's facts with years.",
    ),
]
HorizonOpt = Annotated[
    tuple[int, int] | None,
    typer.Option(
        "--horizon",
        help="Years [A, B] over which negation complements and open-ended KB facts hold through B."
        " Default: 0 to the current year for KB events, the authors' 0 2024 with --facts.",
    ),
]


def horizon_or_default(horizon: tuple[int, int] | None, facts: Path | None) -> tuple[int, int]:
    """The --horizon given, else the default for the event source (see `default_horizon`)."""
    return horizon if horizon is not None else default_horizon(facts is not None)


def engine_for(facts: Path | None, kb: Path | None, horizon: tuple[int, int] | None) -> TemporalEngine:
    """A temporal engine over the fact file's or the KB's events, with the horizon (or its default)."""
    hz = horizon_or_default(horizon, facts)
    return TemporalEngine(load_events(facts, kb, hz[1]), hz)


def load_events(facts: Path | None, kb: Path | None, open_end: int) -> EventTable:
    """Events from a fact file, or else from the KB (a fact with no end year holds through `open_end`)."""
    from drowzee_core.kb.store import KBStore
    from drowzee_core.logic.events import events_from_kb, load_fact_file

    if facts is not None:
        table = load_fact_file(facts)
    else:
        with KBStore(kb or default_kb_path()) as store:
            table = events_from_kb(store, open_end)
    for p in table.problems[:3]:
        err.print(f"[yellow]skipped[/yellow] {escape(p)}", highlight=False)
    if len(table.problems) > 3:
        err.print(f"... and {len(table.problems) - 3} more")
    return table


@temporal_app.command("check")
def check(
    ctx: typer.Context,
    queries: Annotated[
        Path,
        typer.Option(
            "--queries",
            exists=True,
            dir_okay=False,
            help="JSONL; each line has `mtl` in Drowzee syntax: `formula, YEAR`.",
        ),
    ],
    out: Annotated[Path, typer.Option("--out", dir_okay=False, help="Output JSONL (input + truth + intervals).")],
    facts: FactsOpt = None,
    kb: KbOpt = None,
    horizon: HorizonOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Decide every query's truth at its year; each output line adds `truth` and `intervals`."""
    from drowzee_core.logic.temporal_check import check_file
    from drowzee_core.records.provenance import input_files, provenance, write_sidecar

    try:
        engine = engine_for(facts, kb, horizon)
        with progress() as prog:
            task = prog.add_task("checking", total=None)
            summary = check_file(
                engine, queries, out, lambda done, total: prog.update(task, completed=done, total=total)
            )
        fingerprint = None if facts is not None else kb_fingerprint(kb)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    resolved = {} if facts is not None else {"kb": kb or default_kb_path()}
    with out.open(encoding="utf-8") as fh:
        lines = sum(1 for _ in fh)  # one per query, then the summary line
    tallies = {k: v for k, v in summary.items() if k != "disagreements"} | {
        "disagreements": len(summary["disagreements"]),
        "rows": lines,
    }
    record = provenance(
        "temporal.check",
        command_params(ctx, **resolved),
        kb_fingerprint=fingerprint,
        inputs=input_files([queries, facts]),
        counts=tallies,
    )
    write_sidecar(out, record)
    if as_json:
        emit_json(summary)
        return
    kv(f"checked {queries} -> {out}", {k: v for k, v in summary.items() if k != "disagreements"})
    if summary["disagreements"]:
        shown = ", ".join(str(n) for n in summary["disagreements"][:30])
        err.print(f"[yellow]disagreements with `res` on lines:[/yellow] {shown}")


@temporal_app.command("ask")
def ask(
    query: Annotated[
        str, typer.Argument(help="`formula, YEAR` in Drowzee syntax, e.g. 'Finally[1, 5](Atom(X)), 1900'.")
    ],
    facts: FactsOpt = None,
    kb: KbOpt = None,
    horizon: HorizonOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Answer one query: truth at the year, the years where the formula holds, and the facts used."""
    from drowzee_core.logic.mtl_syntax import parse_query

    try:
        q = parse_query(query)
        answer = engine_for(facts, kb, horizon).check(q)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    data = {
        "truth": answer.truth,
        "year": q.year,
        "intervals": [list(i) for i in answer.intervals],
        "events": [
            {"key": e.key, "label": e.label, "intervals": [list(i) for i in e.intervals], "facts": list(e.facts)}
            for e in answer.events
        ],
        "missing_events": answer.missing,
    }
    if as_json:
        emit_json(data)
        return
    colour = "green" if answer.truth else "red"
    console.print(f"[{colour}]{answer.truth}[/{colour}] at {q.year}; holds on {data['intervals'] or 'no year'}")
    for e in answer.events:
        console.print(f"  {e.label}: {list(e.intervals)}", markup=False)
        for f in e.facts[:6]:
            console.print(f"    {f}", markup=False)
    for m in answer.missing:
        console.print(f"  [yellow]unknown event[/yellow] {m} (never holds)")


@temporal_app.command("generate")
def generate(
    ctx: typer.Context,
    n: Annotated[int, typer.Option("--n", min=1, max=1_000_000, help="Number of questions (half true, half false).")],
    out: Annotated[Path, typer.Option("--out", dir_okay=False, help="Output JSONL, one case per line.")],
    seed: Annotated[int, typer.Option("--seed", help="Random seed; the same seed and events give the same cases.")] = 0,
    facts: FactsOpt = None,
    kb: KbOpt = None,
    horizon: HorizonOpt = None,
    operator: Annotated[
        list[str] | None,
        typer.Option(
            "--operator", help="Top-level operator(s), used in turn: Finally Globally Next Until Neg Conj Disj."
        ),
    ] = None,
    max_depth: Annotated[int, typer.Option("--max-depth", help="Operator nesting depth (1-6).")] = 2,
    max_window: Annotated[int, typer.Option("--max-window", help="Largest b of a window [a, b].")] = 20,
    as_json: JsonOpt = False,
) -> None:
    """Generate temporal yes/no questions with proven answers, intervals and the facts behind them."""
    from drowzee_core.generate.temporal_qa import TOP_OPERATORS, TemporalQAConfig, generate_temporal_qa
    from drowzee_core.records.jsonl import counts, write_jsonl
    from drowzee_core.records.provenance import input_files, provenance

    try:
        cfg = TemporalQAConfig(
            n=n, seed=seed, operators=tuple(operator or TOP_OPERATORS), max_depth=max_depth, max_window=max_window
        )
        engine = engine_for(facts, kb, horizon)
        with progress() as prog:
            task = prog.add_task("generating", total=n)
            cases = generate_temporal_qa(engine, cfg, progress=lambda done: prog.update(task, completed=done))
        fingerprint = None if facts is not None else kb_fingerprint(kb)
    except DrowzeeError as exc:
        raise fail(exc) from exc
    tallies = counts(cases, ("answer", "operator", "depth"))
    resolved = {} if facts is not None else {"kb": kb or default_kb_path()}
    meta = provenance(
        "temporal.generate",
        command_params(ctx, **resolved),
        seed=seed,
        kb_fingerprint=fingerprint,
        inputs=input_files([facts]),
        counts=tallies,
    )
    write_jsonl(cases, out, meta)
    if as_json:
        emit_json({"cases": len(cases), **tallies, "out": str(out)})
    else:
        for key, sub in tallies.items():
            err.print(f"{key}: " + ", ".join(f"{k} {v}" for k, v in sorted(sub.items())))
        err.print(f"wrote {len(cases)} cases to {out}")
