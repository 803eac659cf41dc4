"""Markdown tables of a `drowzee verifier report --json-out` file: per-decision figures before and now, ECE.

Run: .venv/bin/python bench/manager_tables.py report.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from drowzee_core.oracles.decisions import show_interval


def _row(name: str, when: str, f: dict[str, Any]) -> str:
    acc = f["accuracy"]
    counts = ", ".join(f"{k} {v}" for k, v in f["decisions"].items() if v)
    cells = [
        name,
        when,
        str(f["rows"]),
        counts,
        show_interval(f["coverage"]),
        show_interval(acc["decided"]["verifier"]),
        show_interval(acc["all"]["verifier"]),
        show_interval(acc["all"]["always_factual"]),
        show_interval(acc["all"]["always_non_factual"]),
        f"{f['ece']:.3f}",
    ]
    return "| " + " | ".join(cells) + " |"


def main() -> None:
    """Print the tables."""
    report = json.loads(Path(sys.argv[1]).read_text("utf-8"))
    head = (
        "| rows | Manager | n | decisions | coverage | accuracy on decided | accuracy, all rows"
        " | always FACTUAL | always NON-FACTUAL | ECE |"
    )
    lines = [head, "| " + " | ".join(["---"] * 10) + " |"]
    for name, entry in report["groups"].items():
        for when in ("before", "now"):
            if when in entry:
                lines.append(_row(name, when, entry[when]))
    lines += ["", "| confidence bin | rows | mean confidence | accuracy |", "| --- | --- | --- | --- |"]
    for when in ("before", "now"):
        for b in report["groups"]["all"].get(when, {}).get("reliability", []):
            lines.append(
                f"| {when} {b['low']:.2f}-{b['high']:.2f} | {b['rows']} | {b['confidence']:.3f} | {b['accuracy']:.3f} |"
            )
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
