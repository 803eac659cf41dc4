"""Temporal reasoning figures: Drowzee's dev queries and temporal question generation.

Prints, as JSON: agreement with the authors' `res` on the 2,013 dev queries (facts.pl, horizon
[0, 2024]) with every disagreement, the seconds to load the facts and check all queries through the
same code as `drowzee temporal check`, and the seconds and distribution of generating 1,800 temporal
questions (the paper's benchmark size) over the same events.

Run: .venv/bin/python bench/temporal.py [--peers ../shared/data/peers] [--n 1800] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

from drowzee_core.generate.temporal_qa import TemporalQAConfig, generate_temporal_qa
from drowzee_core.logic.events import load_fact_file
from drowzee_core.logic.temporal import AUTHORS_HORIZON, TemporalEngine
from drowzee_core.logic.temporal_check import check_file

ROOT = Path(__file__).resolve().parents[2]


def main() -> None:
    """Run and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peers", type=Path, default=ROOT / "shared" / "data" / "peers")
    ap.add_argument("--n", type=int, default=1800)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    base = args.peers / "drowzee_temporal"
    if not (base / "facts.pl").exists():
        sys.exit(f"no peer data at {base}; pass --peers DIR")
    t0 = time.perf_counter()
    table = load_fact_file(base / "facts.pl")
    engine = TemporalEngine(table, AUTHORS_HORIZON)
    load_s = time.perf_counter() - t0
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.jsonl"
        summary = check_file(engine, base / "mtl_queries_dev.jsonl", out)
        rows = [json.loads(x) for x in out.read_text().splitlines()[:-1]]
    check_s = time.perf_counter() - t0
    disagreements = [
        {
            "mtl": r["mtl"],
            "res": r["res"],
            "truth": r["truth"],
            "intervals": r["intervals"],
            "missing_events": r.get("missing_events", []),
        }
        for r in rows
        if r.get("agrees") is False
    ]
    t1 = time.perf_counter()
    cases = generate_temporal_qa(engine, TemporalQAConfig(n=args.n, seed=args.seed))
    gen_s = time.perf_counter() - t1
    figures = {
        "dev_queries": summary["queries"],
        "agreement": summary.get("agreement"),
        "agree": summary["agree"],
        "disagreements": disagreements,
        "queries_with_missing_events": summary["with_missing_events"],
        "query_years_beyond_horizon": sum(
            1
            for r in rows
            if r["mtl"].rsplit(",", 1)[1].strip().lstrip("-").isdigit() and int(r["mtl"].rsplit(",", 1)[1]) > 2024
        ),
        "events": len(table),
        "seconds_load_facts": round(load_s, 3),
        "seconds_load_and_check_all": round(check_s, 3),
        "generated": len(cases),
        "seconds_generate": round(gen_s, 3),
        "by_answer": dict(Counter(str(c.answer) for c in cases)),
        "by_operator": dict(Counter(c.operator for c in cases)),
        "by_operator_answer": dict(Counter(f"{c.operator}:{c.answer}" for c in cases)),
        "by_depth": dict(Counter(c.depth for c in cases)),
    }
    sys.stdout.write(json.dumps(figures, indent=2) + "\n")


if __name__ == "__main__":
    main()
