"""`drowzee verifier mix | run | fit | report`: build the Manager's dev mix, run it, fit, and measure.

```bash
drowzee generate factchd --n 300 --seed 11 --split dev --out dev.jsonl
drowzee verifier mix --generated dev.jsonl --train ../shared/data/train --out mix.jsonl
drowzee verifier run mix.jsonl --out runs.jsonl --no-guardian          # resumable
drowzee verifier run mix.jsonl --out guardian.jsonl --guardian-only    # the Guardian on the same pairs
drowzee verifier fit runs.jsonl --guardian-runs guardian.jsonl --out agents/verifier/calibration.json
drowzee verifier report runs.jsonl --guardian-runs guardian.jsonl --before old.json --json-out report.json
```
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer

from cli.output import JsonOpt, KbOpt, emit_json, err, fail, track
from drowzee_core.errors import DrowzeeError

verifier_app = typer.Typer(help="The Verdict Manager: its dev mix, fit and figures.", no_args_is_help=True)

GuardianRunsOpt = Annotated[
    Path | None, typer.Option("--guardian-runs", help="Runs of a --guardian-only pass whose Guardian labels to use.")
]


@verifier_app.command("mix")
def mix(
    generated: Annotated[
        list[Path], typer.Option("--generated", help="Our generated DEV pairs (--split dev); repeat for other styles.")
    ],
    out: Annotated[Path, typer.Option("--out", help="Where to write the mix (JSONL of Query-Response pairs).")],
    train: Annotated[Path, typer.Option("--train", help="The human-written train data folder.")] = Path(
        "../shared/data/train"
    ),
    seed: Annotated[int, typer.Option("--seed")] = 0,
    as_json: JsonOpt = False,
) -> None:
    """Build the dev mix: generated pairs and human-written claims, with and without evidence."""
    from drowzee_core.records.jsonl import write_jsonl
    from drowzee_core.records.pair import QRPair
    from drowzee_core.records.provenance import input_files, provenance
    from drowzee_core.records.readers import read_records
    from finetune.manager_mix import GENERATED_ITEMS, SOURCES, build_mix

    try:
        pairs = build_mix([p for path in generated for p in read_records(path, QRPair)], train, seed)
    except (DrowzeeError, OSError) as exc:
        raise fail(DrowzeeError(str(exc))) from exc
    counts: dict[str, int] = {}
    for p in pairs:
        key = f"{(p.meta or {}).get('mix_source')}:{(p.meta or {}).get('evidence_mode')}:{(p.meta or {}).get('half')}"
        counts[key] = counts.get(key, 0) + 1
    params = {"generated_items": GENERATED_ITEMS, "sources": {s.name: s.n for s in SOURCES}, "train": str(train)}
    files = [*generated, *(train / s.path for s in SOURCES)]
    meta = provenance("drowzee verifier mix", params, seed=seed, inputs=input_files(files), counts=counts)
    try:
        write_jsonl(pairs, out, meta)
    except OSError as exc:
        raise fail(DrowzeeError(str(exc))) from exc
    if as_json:
        emit_json({"out": str(out), "pairs": len(pairs), "counts": counts})
    else:
        err.print(f"wrote {len(pairs)} pairs to {out}: {counts}")


@verifier_app.command("run")
def run(
    pairs: Annotated[Path, typer.Argument(help="The dev mix (`drowzee verifier mix`).")],
    out: Annotated[Path, typer.Option("--out", help="Runs JSONL; runs already there are kept (resume).")],
    no_guardian: Annotated[bool, typer.Option("--no-guardian", help="Leave the Guardian out.")] = False,
    guardian_only: Annotated[
        bool, typer.Option("--guardian-only", help="Only the Guardian (no KB, no Seeker).")
    ] = False,
    limit: Annotated[int | None, typer.Option("--limit", min=1)] = None,
    kb: KbOpt = None,
) -> None:
    """Run every source on each pair of the mix and keep what each said."""
    from agents.verifier.fit import run_mix
    from agents.verifier.runner import Verifier
    from agents.verifier.settings import VerifierSettings
    from drowzee_core.records.pair import QRPair
    from drowzee_core.records.readers import read_records

    try:
        rows = list(read_records(pairs, QRPair))[:limit]
        only = {"use_kb": False, "use_seeker": False} if guardian_only else {}
        explicit = {"kb": kb, "manager": "aggregate", "use_guardian": False if no_guardian else None, **only}
        settings = VerifierSettings.load(explicit)
        with Verifier(settings) as verifier, track("running the mix", len(rows)) as done:
            runs = run_mix(verifier, rows, out, done)
    except (DrowzeeError, OSError, ValueError) as exc:
        raise fail(DrowzeeError(str(exc))) from exc
    err.print(f"{len(runs)} runs in {out}")


def _runs(path: Path, guardian: Path | None) -> list[object]:
    from agents.verifier.fit import merge_guardian, read_runs

    runs = read_runs(path)
    if not runs:
        raise DrowzeeError(f"{path} holds no runs; run `drowzee verifier run` first")
    return list(merge_guardian(runs, read_runs(guardian))) if guardian is not None else list(runs)


@verifier_app.command("fit")
def fit(
    runs: Annotated[Path, typer.Argument(help="Runs of the dev mix (`drowzee verifier run`).")],
    out: Annotated[Path, typer.Option("--out", help="Where to write the calibration JSON.")] = Path(
        "agents/verifier/calibration.json"
    ),
    guardian_runs: GuardianRunsOpt = None,
    guardian_from: Annotated[
        Path | None,
        typer.Option(
            "--guardian-from",
            help="Without --guardian-runs: keep the Guardian's dev reliability from this earlier calibration"
            " (its model and the mix unchanged; recorded in `fitted_on`).",
        ),
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Fit the Manager on the fit half of the runs: judge threshold, reliabilities, lean, confidences."""
    from agents.verifier.aggregation import Calibration
    from agents.verifier.calibrate import carried, fit_manager
    from agents.verifier.fit import ManagerRun
    from drowzee_core.records.provenance import atomic_write_text, file_sha256

    try:
        loaded = [r for r in _runs(runs, guardian_runs) if isinstance(r, ManagerRun)]
        source: dict[str, object] = {"runs_file": runs.name, "sha256": file_sha256(runs)}
        if guardian_runs is not None:
            source["guardian_runs"] = {"file": guardian_runs.name, "sha256": file_sha256(guardian_runs)}
        cal = fit_manager(loaded, source)
        if guardian_from is not None:
            earlier = Calibration.model_validate_json(guardian_from.read_text(encoding="utf-8"))
            why = "the Guardian was not rerun: its model and the mix's items are those of the earlier fit"
            cal = carried(cal, earlier, "guardian", why)
        atomic_write_text(out, cal.model_dump_json(indent=2) + "\n")
    except (DrowzeeError, OSError, ValueError) as exc:
        raise fail(DrowzeeError(str(exc))) from exc
    if as_json:
        emit_json(cal.model_dump(mode="json"))
    else:
        judge = f"judge thresholds {cal.judge_threshold} (supports) and {cal.judge_reject_threshold} (rejects)"
        err.print(f"wrote {out}: {judge}, counted {cal.counted}")


@verifier_app.command("report")
def report(
    runs: Annotated[Path, typer.Argument(help="Runs of the dev mix (`drowzee verifier run`).")],
    calibration: Annotated[Path, typer.Option("--calibration", help="The calibration to measure.")] = Path(
        "agents/verifier/calibration.json"
    ),
    before: Annotated[Path | None, typer.Option("--before", help="An earlier calibration to compare with.")] = None,
    guardian_runs: GuardianRunsOpt = None,
    json_out: Annotated[Path | None, typer.Option("--json-out", help="Also write the figures here.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Figures on the check half: coverage, accuracy decided / overall, constants, ECE, per source."""
    from agents.verifier.aggregation import Calibration
    from agents.verifier.calibrate import report as make_report
    from agents.verifier.fit import ManagerRun
    from drowzee_core.oracles.decisions import counts_line, coverage_line

    try:
        loaded = [r for r in _runs(runs, guardian_runs) if isinstance(r, ManagerRun)]
        cal = Calibration.model_validate_json(calibration.read_text("utf-8"))
        old = Calibration.model_validate_json(before.read_text("utf-8")) if before is not None else None
        figures = make_report(loaded, cal, old)
    except (DrowzeeError, OSError, ValueError) as exc:
        raise fail(DrowzeeError(str(exc))) from exc
    if json_out is not None:
        json_out.write_text(json.dumps(figures, indent=2) + "\n", "utf-8")
    if as_json:
        emit_json(figures)
        return
    for name, entry in figures["groups"].items():
        now = entry["now"]
        err.print(f"[bold]{name}[/bold]: {counts_line(now['decisions'])}; ECE {now['ece']}")
        err.print(f"  {coverage_line(now)}")


__all__ = ["verifier_app"]
