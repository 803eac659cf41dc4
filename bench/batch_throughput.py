"""Throughput of `drowzee batch`: pairs per minute, local engine vs Ray, and the call cache's speedup.

For each engine: a cold run with an empty call cache, then a second run over the same file with the
same cache (a new output). Figures come from each run's `OUT.meta.json` summary (rows, seconds, cache
hits); the second run's verdicts are compared with the first's (they must be the same). Run:

    .venv/bin/python bench/batch_throughput.py --n 1000 --engines local,ray --concurrency 2

Prints a table and writes the figures as JSON (`--out`).
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from batch_common import ROOT, batch_cmd, compare, generate_pairs, input_lines, read_records

log = logging.getLogger("bench.batch_throughput")


def run(
    pairs: Path, out: Path, engine: str, concurrency: int, limit: int, cache: Path, extra: list[str]
) -> dict[str, Any]:
    """One `drowzee batch` run; its summary from the sidecar plus the wall time of the whole command."""
    cmd = [*batch_cmd(pairs, out, extra), "--engine", engine, "--concurrency", str(concurrency), "--limit", str(limit)]
    env = dict(os.environ, DROWZEE_VERIFY_CACHE_PATH=str(cache))
    log.info("running: %s", shlex.join(cmd))
    load_before = os.getloadavg()[0]
    started = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - started
    if proc.returncode not in (0, 1):
        raise SystemExit(f"drowzee batch failed ({proc.returncode}):\n{proc.stderr[-3000:]}")
    meta = json.loads(out.with_name(out.name + ".meta.json").read_text("utf-8"))
    summary = meta["counts"]
    calls = summary["calls"]
    hits = sum(u["cache_hits"] for u in calls.get("roles", {}).values()) + sum(calls.get("hits", {}).values())
    misses = sum(u["calls"] for u in calls.get("roles", {}).values()) + sum(calls.get("misses", {}).values())
    rows, seconds = summary["this_run"]["rows"], summary["this_run"]["seconds"]
    return {
        "engine": engine,
        "concurrency": concurrency,
        "rows": rows,
        "seconds": seconds,
        "wall_s": round(wall, 1),
        "pairs_per_min": round(60 * rows / seconds, 1) if seconds else None,
        "pairs_per_min_wall": round(60 * rows / wall, 1),
        "cache_hits": hits,
        "calls_made": misses,
        "degraded": summary["degraded"],
        "errors": summary["errors"],
        "verdicts": summary["verdicts"],
        "load_avg_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }


def main() -> None:
    """Parse options, run each engine cold then warm, print and save the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000, help="Pairs to check.")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--pairs", type=Path, help="Pairs file (default: generated test-split FactCHD pairs).")
    ap.add_argument("--engines", default="local,ray")
    ap.add_argument("--concurrency", type=int, default=2)
    ap.add_argument("--batch-args", default="", help="Extra `drowzee batch` options, e.g. '--no-guardian'.")
    ap.add_argument("--work", type=Path, help="Folder for pairs, outputs and caches (default: a temp folder).")
    ap.add_argument("--out", type=Path, help="Write the figures as JSON here.")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    work = args.work or Path(tempfile.mkdtemp(prefix="drowzee-throughput-"))
    work.mkdir(parents=True, exist_ok=True)
    pairs = args.pairs or generate_pairs(int(args.n * 1.3) + 20, args.seed, work / "pairs.jsonl")
    n = min(args.n, input_lines(pairs))
    extra = shlex.split(args.batch_args)
    results = []
    for engine in args.engines.split(","):
        cache = work / f"calls-{engine}.sqlite"
        cache.unlink(missing_ok=True)
        outs = [work / f"{engine}-{k}.jsonl" for k in ("cold", "warm")]
        for o in outs:
            o.unlink(missing_ok=True)
        cold = run(pairs, outs[0], engine, args.concurrency, n, cache, extra)
        warm = run(pairs, outs[1], engine, args.concurrency, n, cache, extra)
        ref = {int(r["row"]): r for r in read_records(outs[0])[0]}
        cmp = compare(ref, read_records(outs[1])[0])
        warm["same_as_cold"] = {
            "lost": len(cmp.lost),
            "mismatched": len(cmp.mismatched),
            "differing": len(cmp.differing),
        }
        warm["diff_fields"] = dict(cmp.diff_fields)
        warm["speedup"] = round(cold["seconds"] / warm["seconds"], 2) if warm["seconds"] else None
        results += [cold | {"run": "cold"}, warm | {"run": "warm (cache)"}]
    report = {
        "pairs": str(pairs),
        "n": n,
        "batch_args": args.batch_args,
        "cpus": os.cpu_count(),
        "results": results,
    }
    head = ("engine", "concurrency", "run", "rows", "seconds", "pairs/min", "cache hits", "calls made", "degraded")
    head += ("speedup", "load before/after")
    lines = ["| " + " | ".join(head) + " |", "|" + " --- |" * len(head)]
    for r in results:
        lines.append(
            f"| {r['engine']} | {r['concurrency']} | {r['run']} | {r['rows']} | {r['seconds']} | {r['pairs_per_min']}"
            f" | {r['cache_hits']} | {r['calls_made']} | {r['degraded']} | {r.get('speedup', '')}"
            f" | {r['load_avg_1min'][0]} / {r['load_avg_1min'][1]} |"
        )
    sys.stdout.write("\n".join(lines) + "\n")
    for r in results:
        if "same_as_cold" in r:
            sys.stdout.write(f"{r['engine']} warm vs cold: {r['same_as_cold']} {r['diff_fields']}\n")
    if args.out:
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
