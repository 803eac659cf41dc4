"""Figures on a user's own KB: a fictional KB of `bench/data/user_kb/NAME/` loaded with its declared relations.

Each folder holds `kb.csv` (triples), `relations.toml` (the declarations) and `pairs.jsonl` (labelled
Query-Response pairs written for it, half wrong). The script loads the KB into a temporary file the
way `drowzee kb load --relations` does, then checks every pair with `drowzee batch --no-guardian
--no-cache`, which prints accuracy, FactCls and macro-F1 beside the constant baselines, and coverage
with the accuracy of decided and undecided rows, each with a 95 % bootstrap interval.

`ferries` is the dev KB (the reader was developed on it); `library` was written after the reader
work and measured once.

Run: .venv/bin/python bench/user_kb.py --name ferries [--out verdicts.jsonl]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "user_kb"


def main(argv: list[str] | None = None) -> int:
    """Load the named KB and check its pairs; the exit code is the batch's."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--name", required=True, choices=sorted(p.name for p in DATA.iterdir() if p.is_dir()))
    ap.add_argument("--out", type=Path, help="Where the verdicts go (default: a temporary file).")
    args = ap.parse_args(argv)
    folder = DATA / args.name
    drowzee = [str(Path(sys.executable).parent / "drowzee")]  # the console script beside this Python
    with tempfile.TemporaryDirectory() as tmp:
        kb = Path(tmp) / "kb.sqlite"
        out = args.out or Path(tmp) / "verdicts.jsonl"
        load = [*drowzee, "kb", "load", str(folder / "kb.csv"), "--format", "csv"]
        subprocess.run([*load, "--relations", str(folder / "relations.toml"), "--kb", str(kb)], check=True, cwd=ROOT)
        batch = [*drowzee, "batch", str(folder / "pairs.jsonl"), "--out", str(out), "--kb", str(kb)]
        return subprocess.run([*batch, "--no-guardian", "--no-cache", "--overwrite"], cwd=ROOT).returncode


if __name__ == "__main__":
    raise SystemExit(main())
