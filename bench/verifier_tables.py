"""Markdown tables of a `bench/verifier.py --json-out` report, as docs/verifier.md shows them.

    python bench/verifier_tables.py REPORT.json [REPORT.json ...]

Per report: the rows table (all, then each pattern / grounding / category / source, with the constant
baselines on the same rows), the ablation by sources, the timing line, degraded verdicts and errors,
and for the Drowzee answers the per-model audit table.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any


def _fig(m: dict[str, Any] | None) -> str:
    if not m:
        return "-"
    return f"{m['value']:.3f} [{m['low']:.3f}, {m['high']:.3f}]"


def _row(name: str, block: dict[str, Any]) -> str:
    v = block["verifier"]
    base = {b["name"].split(" (")[0]: b for b in block["baselines"]}
    never, always = base["always NON-FACTUAL"], base["always FACTUAL"]
    consts = f"{never['acc']['value']:.3f} / {never['factcls']['value']:.3f} | {always['acc']['value']:.3f}"
    return f"| {name} | {v['num']} | {_fig(v['factcls'])} | {_fig(v['acc'])} | {_fig(v.get('exp_match'))} | {consts} |"


def render(report: dict[str, Any]) -> str:
    """The report's tables as markdown."""
    s = report["summary"]
    out = [
        "| rows | n | FactCls | accuracy | ExpMatch | always NON-FACTUAL: acc / FactCls | always FACTUAL: acc |",
        "| --- | --- | --- | --- | --- | --- | --- |",
        _row("**all**", s["overall"]),
    ]
    for group, blocks in s.items():
        if group == "overall":
            continue
        label = group.removeprefix("by_")
        out += [_row(f"{label}: {name}", block) for name, block in sorted(blocks.items())]
    decisions = s["overall"].get("decisions")
    if decisions:
        from drowzee_core.oracles.decisions import DECISION_COLUMNS, counts_line, coverage_line, decision_rows

        out += ["", f"Decisions: {counts_line(decisions['decisions'])}. {coverage_line(decisions)}.", ""]
        out += ["| " + " | ".join(DECISION_COLUMNS) + " |", "| " + " | ".join(["---"] * len(DECISION_COLUMNS)) + " |"]
        out += ["| " + " | ".join(row) + " |" for row in decision_rows(decisions)]
    out += [
        "",
        "| sources | FactCls | accuracy | coverage | accuracy on decided |",
        "| --- | --- | --- | --- | --- |",
    ]
    out += [
        f"| {a['sources']} | {a['factcls']} | {a['acc']} | {a.get('coverage', '-')} | {a.get('acc_decided', '-')} |"
        for a in report["ablation"]
    ]
    t = report["timing"]
    nodes = ", ".join(f"{k} {v}" for k, v in sorted(t["per_node"].items()))
    out += [
        "",
        f"Timing: {t['seconds_per_pair']} s per pair (median {t.get('median_seconds', '-')}, p95"
        f" {t.get('p95_seconds', '-')}; {t['pairs_per_minute']} pairs/min); per node (s): {nodes}.",
        "",
        f"Degraded verdicts: {s['overall'].get('degraded', 0)}, errors: {s['overall'].get('errors', 0)}",
    ]
    if report.get("audit"):
        out += ["", "| model | rows | n | accuracy [95 % CI] | majority acc |", "| --- | --- | ---: | ---: | ---: |"]
        out += [
            f"| {a['model']} | {a['rows']} | {a['n']} | {a['acc']} | {a['majority_acc']:.3f} |" for a in report["audit"]
        ]
    return "\n".join(out)


def main() -> None:
    """Print each report's tables."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+", type=Path)
    args = ap.parse_args()
    for path in args.reports:
        report = json.loads(path.read_text("utf-8"))
        sys.stdout.write(
            f"<!-- {path.name}: {report['set']}, evidence {report['evidence']}, policy {report['policy']} -->\n"
        )
        sys.stdout.write(render(report) + "\n\n")


if __name__ == "__main__":
    main()
