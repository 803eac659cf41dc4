"""Shared pieces of the `drowzee batch` robustness scripts: the command, the output records, comparison.

`bench/batch_faults.py` (SIGKILL and resume) and `bench/batch_malformed.py` (bad input rows) run the
real CLI as a subprocess and read its output file back; this module holds what both need.
"""

from __future__ import annotations

import json
import logging
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger("bench.batch")
ROOT = Path(__file__).resolve().parents[1]
VOLATILE = (("provenance", "timings"),)
"""Verdict fields that legitimately differ between two runs of the same row (seconds spent per node)."""


def drowzee_cmd() -> list[str]:
    """The `drowzee` command of this interpreter's environment (the console script, else the module)."""
    script = Path(sys.executable).with_name("drowzee")
    if script.exists():
        return [str(script)]
    found = shutil.which("drowzee")
    if found:
        return [found]
    return [sys.executable, "-c", "from cli.main import run; run()"]


def generate_pairs(n: int, seed: int, out: Path) -> Path:
    """Write test-split FactCHD pairs with `drowzee generate factchd` (fewer than `n`: the split filters)."""
    cmd = [*drowzee_cmd(), "generate", "factchd", "--n", str(n), "--seed", str(seed), "--split", "test"]
    log.info("generating pairs: %s", " ".join([*cmd, "--out", str(out)]))
    subprocess.run([*cmd, "--out", str(out)], check=True, cwd=ROOT, capture_output=True)
    return out


def batch_cmd(inputs: Path, out: Path, extra: list[str], *, resume: bool = False) -> list[str]:
    """The `drowzee batch` command line of one run (`--resume` for every run after the first)."""
    return [*drowzee_cmd(), "batch", str(inputs), "--out", str(out), *(["--resume"] if resume else []), *extra]


def input_lines(path: Path) -> int:
    """Non-blank lines of a JSONL file: the rows `drowzee batch` numbers."""
    return sum(1 for raw in path.read_bytes().splitlines() if raw.strip())


def read_records(out: Path) -> tuple[list[dict[str, Any]], int]:
    """The output records of a batch file and how many of its lines are not JSON records."""
    records: list[dict[str, Any]] = []
    bad = 0
    if not out.exists():
        return records, bad
    for raw in out.read_bytes().splitlines():
        try:
            rec = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError):
            bad += 1
            continue
        if isinstance(rec, dict) and isinstance(rec.get("row"), int):
            records.append(rec)
        else:
            bad += 1
    return records, bad


def stable(verdict: dict[str, Any]) -> dict[str, Any]:
    """The verdict without its `VOLATILE` fields."""
    out: dict[str, Any] = json.loads(json.dumps(verdict))
    for path in VOLATILE:
        node = out
        for key in path[:-1]:
            node = node.get(key, {})
        node.pop(path[-1], None)
    return out


def core(rec: dict[str, Any]) -> Any:
    """What must never change between runs: error text, or label, confidence, degradation, claim statuses."""
    if "verdict" not in rec:
        return ("error", rec.get("error"))
    v = rec["verdict"]
    return (v["label"], v["confidence"], v.get("degraded"), [c["status"] for c in v.get("claims", [])])


def diff_paths(a: Any, b: Any, at: str = "") -> list[str]:
    """Dotted paths where two JSON values differ (lists of unequal length count as one difference)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [p for k in sorted(set(a) | set(b)) for p in diff_paths(a.get(k), b.get(k), f"{at}.{k}")]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b, strict=True)) for p in diff_paths(x, y, f"{at}[]")]
    return [] if a == b else [at or "."]


@dataclass
class Comparison:
    """How a run's records compare with the reference run's, row by row."""

    lost: list[int] = field(default_factory=list)
    duplicated: list[int] = field(default_factory=list)
    unexpected: list[int] = field(default_factory=list)
    mismatched: list[int] = field(default_factory=list)
    differing: list[int] = field(default_factory=list)
    degraded: list[int] = field(default_factory=list)
    diff_fields: Counter[str] = field(default_factory=Counter)

    @property
    def ok(self) -> bool:
        """No row lost, duplicated, unexpected or with a changed label, confidence or claim status."""
        return not (self.lost or self.duplicated or self.unexpected or self.mismatched)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready form."""
        return {
            "lost": self.lost,
            "duplicated": self.duplicated,
            "unexpected": self.unexpected,
            "mismatched": self.mismatched,
            "differing": self.differing,
            "degraded": self.degraded,
            "diff_fields": dict(self.diff_fields),
        }


def compare(reference: dict[int, dict[str, Any]], records: list[dict[str, Any]]) -> Comparison:
    """Rows lost, duplicated, not in the reference, changed (core fields) or differing (any stable field).

    `mismatched` rows differ in `core`; `differing` rows differ anywhere but the `VOLATILE` fields
    (e.g. a retrieval score in the last digit), and `diff_fields` counts where; `degraded` rows have a
    degraded verdict where the reference's is not (a source failed in this run only).
    """
    cmp = Comparison()
    seen = Counter(int(r["row"]) for r in records)
    cmp.lost = sorted(set(reference) - set(seen))
    cmp.duplicated = sorted(n for n, k in seen.items() if k > 1)
    cmp.unexpected = sorted(set(seen) - set(reference))
    for rec in records:
        ref = reference.get(int(rec["row"]))
        if ref is None:
            continue
        if core(rec) != core(ref) or rec.get("id") != ref.get("id"):
            cmp.mismatched.append(int(rec["row"]))
        if rec.get("verdict", {}).get("degraded") and not ref.get("verdict", {}).get("degraded"):
            cmp.degraded.append(int(rec["row"]))  # a source failed in this run only (e.g. the model server went away)
        a = stable(rec["verdict"]) if "verdict" in rec else rec
        b = stable(ref["verdict"]) if "verdict" in ref else ref
        paths = diff_paths(a, b)
        if paths:
            cmp.differing.append(int(rec["row"]))
            cmp.diff_fields.update(set(paths))
    cmp.mismatched = sorted(set(cmp.mismatched))
    cmp.differing = sorted(set(cmp.differing))
    cmp.degraded = sorted(set(cmp.degraded))
    return cmp


__all__ = [
    "ROOT",
    "VOLATILE",
    "Comparison",
    "batch_cmd",
    "compare",
    "core",
    "diff_paths",
    "drowzee_cmd",
    "generate_pairs",
    "input_lines",
    "read_records",
    "stable",
]
