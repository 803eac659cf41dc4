"""`drowzee batch`: verify a file of Query-Response pairs into a durable, resumable JSONL of verdicts.

The engine is `agents.batch.engine` (local, `--concurrency` threads) or `agents.batch.ray_engine` (`--engine ray`).
The summary (counts, verdict distribution, decisions, metrics when rows carry labels (per decision too:
coverage, accuracy on decided and undecided rows beside the constant baselines), degraded rows, rows per
second, model tokens and cost per role, cache hits) is printed and written to `OUT.meta.json`.
"""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal

import typer

from cli.output import KbOpt, command_params, err, fail, progress, table
from cli.verify import NoOpt, PolicyOpt, UndecidedOpt, left_out, verifier_settings
from drowzee_core.errors import DrowzeeError

if TYPE_CHECKING:
    from agents.batch.engine import Tally
    from agents.verifier.accounting import CallStats

EXIT_OK, EXIT_ROWS_FAILED, EXIT_USAGE = 0, 1, 2
"""Exit codes: every row checked; some rows are error records; the run could not start or stopped."""


def summary(
    tally: Tally, calls: CallStats, checked: int, seconds: float, repaired: int, resumed: int
) -> dict[str, Any]:
    """The run's summary: what the output holds, how fast this run went, and what its model calls cost."""
    counts = dict(tally.counts)
    return {
        "rows": tally.rows,
        "verdicts": {k: counts.get(k, 0) for k in ("FACTUAL", "NON-FACTUAL")},
        "decisions": dict(tally.decisions),
        "errors": counts.get("error", 0),
        "degraded": counts.get("degraded", 0),
        "resumed_rows": resumed,
        "repaired_bytes": repaired,
        "this_run": {
            "rows": checked,
            "seconds": round(seconds, 2),
            "rows_per_s": round(checked / seconds, 3) if seconds else None,
        },
        "metrics": tally.metrics(),
        "calls": calls.model_dump(mode="json"),
    }


def _show(out: Path, data: dict[str, Any]) -> None:
    from drowzee_core.oracles.decisions import DECISION_COLUMNS, counts_line, coverage_line, decision_rows

    run = data["this_run"]
    err.print(
        f"wrote {data['rows']} rows to {out}: {data['verdicts']['FACTUAL']} FACTUAL, "
        f"{data['verdicts']['NON-FACTUAL']} NON-FACTUAL, {data['errors']} errors, {data['degraded']} degraded"
        f" ({run['rows']} this run in {run['seconds']} s"
        + (f", {run['rows_per_s']} rows/s)" if run["rows_per_s"] else ")"),
        markup=False,
    )
    if data["decisions"]:
        err.print(f"decisions: {counts_line(data['decisions'])}", markup=False)
    roles = data["calls"].get("roles", {})
    if roles:
        table(
            "model calls this run",
            ("role", "calls", "cache hits", "input tokens", "output tokens", "cost USD"),
            [
                (r, u["calls"], u["cache_hits"], u["input_tokens"], u["output_tokens"], f"{u['cost_usd']:.4f}")
                for r, u in sorted(roles.items())
            ],
        )
    m = data["metrics"]
    if m:
        v = m["verifier"]
        table(
            f"against the rows' labels ({m['rows']} rows; 95 % intervals)",
            ("", "FactCls", "accuracy", "macro-F1"),
            [(f["name"], *(_ci(f[k]) for k in ("factcls", "acc", "macro_f1"))) for f in [v, *m["baselines"]]],
        )
        if "decisions" in m:
            table(f"per decision: {coverage_line(m['decisions'])}", DECISION_COLUMNS, decision_rows(m["decisions"]))


def _ci(fig: dict[str, Any]) -> str:
    return f"{fig['value']:.3f} [{fig['low']:.3f}, {fig['high']:.3f}]"


def batch(
    ctx: typer.Context,
    inputs: Annotated[Path, typer.Argument(help="JSONL or CSV of pairs: id, query, response (+ evidence, label).")],
    out: Annotated[Path, typer.Option("--out", help="Output JSONL: one {row, id, verdict|error} per input row.")],
    evidence_field: Annotated[
        str | None, typer.Option("--evidence-field", help="Column that holds the evidence (default: none).")
    ] = None,
    columns: Annotated[
        str | None,
        typer.Option(
            "--columns",
            help="Map fields to your columns: query=Q,response=R,id=I,evidence=E,label=L (unmapped fields keep"
            " their names; evidence is read only when mapped).",
        ),
    ] = None,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="Check only the first N rows.")] = None,
    concurrency: Annotated[
        int, typer.Option("--concurrency", min=1, max=256, help="Pairs checked at once (threads, or Ray workers).")
    ] = 1,
    engine: Annotated[
        str, typer.Option("--engine", help="local (this process) or ray (ray.data workers; see README).")
    ] = "local",
    ray_address: Annotated[
        str | None,
        typer.Option("--ray-address", help="Ray cluster (ray://host:10001); default $RAY_ADDRESS or a local Ray."),
    ] = None,
    no_cache: Annotated[
        bool, typer.Option("--no-cache", help="Neither read nor write the cache of model, judge and proof calls.")
    ] = False,
    policy: PolicyOpt = None,
    undecided: UndecidedOpt = None,
    no_guardian: NoOpt = False,
    no_seeker: NoOpt = False,
    no_kb: NoOpt = False,
    kb: KbOpt = None,
    overwrite: Annotated[bool, typer.Option("--overwrite", help="Replace an existing --out file.")] = False,
    resume: Annotated[
        bool, typer.Option("--resume", help="Finish an interrupted run: keep --out's rows, check the rest.")
    ] = False,
) -> None:
    """Verify a file of pairs; every row gets one record, written durably as soon as it is final.

    Each line is `{"row", "id", "verdict"}`, or `{"row", "id", "error"}` for a row that cannot be
    checked (not UTF-8, not JSON, not an object, no response, over-long text, invalid evidence, a
    repeated id); the run goes on. `--resume` after a crash or kill finishes the run: each row ends up
    exactly once. Exit code 0: every row checked; 1: some rows are error records; 2: usage or input error.
    """
    from agents.batch.engine import Ledger, count_rows, parse_columns, plan, read_rows, run_local
    from agents.verifier.accounting import CallStats
    from agents.verifier.runner import Verifier
    from drowzee_core.records.provenance import input_files, provenance, read_sidecar, write_sidecar

    if engine not in ("local", "ray"):
        raise fail(DrowzeeError(f"--engine must be local or ray, got {engine!r}"))
    if resume and overwrite:
        raise fail(DrowzeeError("--resume keeps --out's rows and --overwrite replaces them; pass one of them"))
    if out.exists() and not (overwrite or resume):
        raise fail(DrowzeeError(f"{out} exists; pass --resume to finish that run or --overwrite to replace it"))
    if not inputs.is_file():
        raise fail(DrowzeeError(f"input {inputs} is not a file"))
    mode: Literal["local", "ray"] = "ray" if engine == "ray" else "local"
    try:
        cols = parse_columns(columns, evidence_field)
        settings = verifier_settings(
            kb=kb,
            policy=policy,
            undecided=undecided,
            cache=False if no_cache else None,
            **left_out(no_guardian, no_seeker, no_kb),
        )
        total = count_rows(inputs)
        total = min(total, limit) if total is not None and limit else total
        earlier = read_sidecar(out) if resume and out.exists() else None
        started = time.perf_counter()
        with Ledger(out, resume) as ledger, progress(rate=True) as prog:
            task = prog.add_task("verifying", total=total, completed=len(ledger.done.rows))
            before = len(ledger.done.rows)

            def tick() -> None:
                prog.update(task, completed=len(ledger.done.rows))

            items = plan(itertools.islice(read_rows(inputs), limit), ledger.done, cols)
            if mode == "ray":
                from agents.batch.ray_engine import run_ray

                calls = run_ray(
                    items, settings, ledger.write, concurrency=concurrency, address=ray_address, on_row=tick
                )
            else:
                with Verifier(settings) as verifier:
                    run_local(items, verifier.verify, ledger.write, concurrency, tick)
                    calls = verifier.services.call_stats()
            checked = len(ledger.done.rows) - before
        data = summary(ledger.tally, calls, checked, time.perf_counter() - started, ledger.repaired, ledger.resumed)
        if earlier is not None and isinstance(earlier.counts.get("calls_all_runs"), dict):
            data["calls_all_runs"] = (
                CallStats.model_validate(earlier.counts["calls_all_runs"]).merged(calls).model_dump(mode="json")
            )
        else:
            data["calls_all_runs"] = data["calls"]
        params = command_params(ctx, engine=mode)
        write_sidecar(out, provenance("batch", params, inputs=input_files([inputs]), counts=data))
    except (DrowzeeError, OSError) as exc:
        raise fail(DrowzeeError(str(exc))) from exc
    _show(out, data)
    if data["errors"]:
        raise typer.Exit(code=EXIT_ROWS_FAILED)
