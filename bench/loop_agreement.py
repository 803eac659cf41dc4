"""The verifier's agreement with Drowzee's published labels, from `drowzee benchmark --answers` runs, split honestly.

    python bench/loop_agreement.py RUN_DIR [RUN_DIR ...]

For each run (one recorded model), the answer-level figures (the Yes / No alone against the gold answer)
over: all rows; rows whose case carried its evidence triples (the verifier got the facts), split by
where they came from (the model's own file, or - where that file lost them - another model's file of the
same question), and rows that had none; and rows outside the one question template whose gold label is
contradicted by the question's own evidence ("X's parent does not include Y", gold "Yes." while the
evidence holds `[Y, child, X]`; `peer_answers.gold_contradicted`). The audit is printed (how many such
questions, how many contradicted), so the exclusion rests on the data, not on the verifier's output.
Every figure stands beside the constant baselines on the same rows, with 95 % bootstrap intervals.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from agents.loop.metrics import LoopRow, block
from drowzee_core.records.peer_answers import gold_contradicted as contradicted


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
    audit = [contradicted(cases[r.id]) for r in rows]
    template = sum(a is not None for a in audit)
    bad = sum(bool(a) for a in audit)
    keep: Callable[[LoopRow], bool] = lambda r: contradicted(cases[r.id]) is not True  # noqa: E731
    has_facts: Callable[[LoopRow], bool] = lambda r: bool(cases[r.id].get("evidence"))  # noqa: E731
    # the file's own triples, or a sibling file's of the same question (peer_answers.sibling_evidence)
    own: Callable[[LoopRow], bool] = lambda r: cases[r.id].get("evidence_from", r.model) == r.model  # noqa: E731
    models = sorted({r.model for r in rows})
    return [
        f"### {', '.join(models)} ({run})",
        "",
        f'Template audit: {template} rows ask "X\'s parent does not include Y"; in {bad} of them the gold'
        ' "Yes." is contradicted by the question\'s own evidence (Y is a parent of X).',
        "",
        "| rows | n | agreement [95 % CI] | F1 [95 % CI] | always flag | never flag |",
        "| --- | ---: | ---: | ---: | ---: | ---: |",
        line("all", rows),
        line("evidence supplied", [r for r in rows if has_facts(r)]),
        line("evidence from this model's file", [r for r in rows if has_facts(r) and own(r)]),
        line("evidence from another model's file of the question", [r for r in rows if has_facts(r) and not own(r)]),
        line("no evidence", [r for r in rows if not has_facts(r)]),
        line("all, without the contradicted gold labels", [r for r in rows if keep(r)]),
        line("evidence supplied, without them", [r for r in rows if has_facts(r) and keep(r)]),
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
