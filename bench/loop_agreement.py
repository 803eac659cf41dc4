"""The verifier's agreement with Drowzee's published labels, from `drowzee benchmark --answers` runs, split honestly.

    python bench/loop_agreement.py RUN_DIR [RUN_DIR ...]

For each run (one recorded model), the answer-level figures (the Yes / No alone against the gold answer)
over: all rows; rows whose case carried its evidence triples (the verifier got the facts); and rows that
had none. Every figure stands beside the constant baselines on the same rows, with 95 % bootstrap
intervals.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from agents.loop.metrics import LoopRow, block


def line(name: str, rows: Sequence[LoopRow]) -> str:
    """One row of figures: n, agreement, F1 and the constant baselines."""
    if len(rows) < 2:
        return f"| {name} | {len(rows)} | - | - | - | - |"
    b = block(rows, "answer_wrong")
    assert b.verifier is not None
    return (
        f"| {name} | {b.n} | {b.verifier.accuracy.show()} | {b.verifier.f1.show()} "
        f"| {b.baselines[0].accuracy.value:.3f} | {b.baselines[1].accuracy.value:.3f} |"
    )


def report(run: Path) -> list[str]:
    """The figures of one run folder as Markdown lines."""
    cases = {str(c["id"]): c for c in map(json.loads, (run / "cases.jsonl").read_text("utf-8").splitlines())}
    rows = [LoopRow.model_validate_json(x) for x in (run / "rows.jsonl").read_text("utf-8").splitlines()]
    rows = [r for r in rows if r.answer_wrong is not None and r.flagged is not None]
    has_facts: Callable[[LoopRow], bool] = lambda r: bool(cases[r.id].get("evidence"))  # noqa: E731
    models = sorted({r.model for r in rows})
    return [
        f"### {', '.join(models)} ({run})",
        "",
        "| rows | n | agreement [95 % CI] | F1 [95 % CI] | always flag | never flag |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        line("all", rows),
        line("evidence supplied", [r for r in rows if has_facts(r)]),
        line("no evidence", [r for r in rows if not has_facts(r)]),
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    """Print the tables; 2 when a folder is not a finished run."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("runs", nargs="+", type=Path)
    args = parser.parse_args(argv)
    out = []
    for run in args.runs:
        if not (run / "rows.jsonl").is_file() or not (run / "cases.jsonl").is_file():
            sys.stderr.write(f"{run} is not a finished `drowzee benchmark` run (no rows.jsonl / cases.jsonl)\n")
            return 2
        out += report(run)
    sys.stdout.write("\n".join(out) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
