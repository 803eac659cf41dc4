"""Load on the service: concurrent `/api/verify` clients on loopback, latency, errors, and the UI meanwhile.

`--clients` clients each send their next pair as soon as the previous answer arrives, for `--seconds`;
then no new request is sent and those in flight are waited for (each has `--timeout`, so a slow answer
is measured, not lost). One warm-up request goes first, off the clock (it loads the KB into Prolog and
the models). Meanwhile a probe GETs the UI (`/`, `/config`) and `/healthz` every `--probe-interval` s.

Pairs: distinct recorded LLM answers to Drowzee's questions (../shared/data/peers/drowzee_responses/,
question -> query, the model's answer -> response, the question's evidence triples supplied unless
`--no-evidence`), shuffled with `--seed`, each sent once while enough remain; or `--pairs FILE` (a
recorded-answers file, or JSONL with `query` and `response`).

Without `--url` the script starts its own server (`python app.py`) on a free port with a temp jobs
folder and a fresh call cache (`DROWZEE_VERIFY_CACHE_PATH`), so no answer is a cache hit from an
earlier run; `--warm-cache PATH` reuses a cache file instead (reported as such). Run:

    .venv/bin/python bench/service_load.py --clients 16 --seconds 60 [--url http://127.0.0.1:7860]
        [--pairs FILE] [--warm-cache PATH] [--work DIR] [--out out/service_load.json]

Prints a table of the figures and writes them, with the settings, every request and every probe, as
JSON (`--out`, with a provenance sidecar). Exits 1 when the goal is missed: an error, a lost request,
or a UI probe that failed or took longer than `--ui-slow-s`.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

from service_clients import Load, Request, run_load, verify
from service_common import (
    ROOT,
    Server,
    ServerStartError,
    latency,
    model_server,
    process_stats,
    server_settings,
    start_server,
    wait_healthy,
)
from service_pairs import distinct, file_pairs, recorded_pairs
from service_report import UI_PATHS, UiProbe, figures, table

from drowzee_core.records.provenance import input_files, provenance, upstream_fingerprint, write_sidecar

log = logging.getLogger("bench.service_load")
DEFAULT_OUT = ROOT / "out" / "service_load.json"


# ---------------------------------------------------------------------------------------------- server
def log_problems(path: Path) -> dict[str, int]:
    """Lines of the server log that report trouble."""
    text = path.read_text("utf-8", errors="replace") if path.exists() else ""
    keys = ("Traceback", " ERROR ", " WARNING ", " 429 ", " 500 ", " 504 ")
    return {k.strip(): sum(1 for line in text.splitlines() if k in line) for k in keys}


def measure(args: argparse.Namespace, url: str, pairs: list[dict[str, Any]], pid: int | None) -> dict[str, Any]:
    """Warm up, run the load with the UI probe alongside, and collect the figures."""
    log.info("warm-up request (%s) before the clock starts", pairs[0]["id"])
    warm = Request(client=-1, pair=pairs[0]["id"], sent_s=0.0)

    async def warm_up() -> None:
        async with httpx.AsyncClient() as http:
            await verify(http, url, pairs[0], warm, args.timeout)

    asyncio.run(warm_up())
    log.info("warm-up: %s in %.1f s", warm.status, warm.latency_s or 0.0)
    idle = UiProbe(url, args.probe_interval, args.probe_timeout)
    with httpx.Client(timeout=args.probe_timeout) as http:
        idle_probes = [p for _ in range(3) for p in idle.round(http)]
    load = Load(pairs[1:], url, args.timeout)
    models = model_server()  # after the warm-up, which starts it when no Drowzee process has
    before = process_stats(pid, models["pid"]) if pid else None
    models_before = process_stats(models["pid"]) if models["pid"] else None
    load_avg = os.getloadavg()[0]
    probe = UiProbe(url, args.probe_interval, args.probe_timeout)
    log.info("load: %d clients for %g s on %s", args.clients, args.seconds, url)
    probe.start()
    try:
        wall = asyncio.run(run_load(load, args.clients, args.seconds))
    finally:
        probe.stop()
    after = process_stats(pid, models["pid"]) if pid else None
    models_after = process_stats(models["pid"]) if models["pid"] else None
    models_end = model_server()
    fig = figures(load, wall, probe.probes, args.ui_slow_s)
    fig["ui_idle"] = {path: latency([p.latency_s for p in idle_probes if p.path == path]) for path in UI_PATHS}
    fig["load_avg_1min"] = [round(load_avg, 2), round(os.getloadavg()[0], 2)]
    if before and after:
        fig["server"] = {
            "cpu_s": round(after["cpu_s"] - before["cpu_s"], 1),
            "cores_used": round((after["cpu_s"] - before["cpu_s"]) / wall, 2),
            "rss_mb": [before["rss_mb"], after["rss_mb"]],
        }
    fig["model_server"] = models | {
        "shared": None if pid is None or models["owner_pid"] is None else models["owner_pid"] != pid,
        "same_process_at_end": models_end["pid"] == models["pid"] and models_end["running"],
    }
    if models_before and models_after:
        cpu = models_after["cpu_s"] - models_before["cpu_s"]
        fig["model_server"] |= {"cpu_s": round(cpu, 1), "cores_used": round(cpu / wall, 2)}
    if not fig["model_server"]["same_process_at_end"]:
        log.warning("the model server changed or stopped during the run: %s -> %s", models, models_end)
    return {
        "warmup": asdict(warm) | {"latency_s": round(warm.latency_s or 0.0, 3)},
        "figures": fig,
        "requests": [asdict(r) for r in load.requests],
        "probes": [asdict(p) for p in probe.probes],
    }


def main() -> int:
    """Parse options, start (or reach) the server, run the load, print and save the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--clients", type=int, default=16, help="Concurrent API clients.")
    ap.add_argument("--seconds", type=float, default=60.0, help="How long clients send new requests.")
    ap.add_argument("--url", help="Base URL of a running server (default: start one on a free port).")
    ap.add_argument("--pairs", type=Path, help="Recorded answers or pairs JSONL (default: Drowzee's recorded answers).")
    ap.add_argument("--no-evidence", action="store_true", help="Send only query and response, not the evidence.")
    ap.add_argument("--seed", type=int, default=0, help="Shuffle of the pairs.")
    ap.add_argument("--timeout", type=float, default=600.0, help="Client timeout per request, in seconds.")
    ap.add_argument("--warm-cache", type=Path, help="Reuse this call cache file instead of a fresh one.")
    ap.add_argument("--work", type=Path, help="Folder for the jobs, the call cache and the server log (default: temp).")
    ap.add_argument("--probe-interval", type=float, default=1.0, help="Seconds between UI probe rounds.")
    ap.add_argument("--probe-timeout", type=float, default=60.0, help="Timeout of one UI probe.")
    ap.add_argument("--ui-slow-s", type=float, default=2.0, help="A UI probe slower than this counts as slow.")
    ap.add_argument("--startup-timeout", type=float, default=300.0, help="Seconds to wait for the server to start.")
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="Write the figures as JSON here.")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)

    evidence = not args.no_evidence
    if args.pairs:
        pairs, inputs = file_pairs(args.pairs, evidence), [args.pairs]
    else:
        pairs, inputs = recorded_pairs(evidence)
    pairs = distinct(pairs, args.seed)
    if len(pairs) < 2:
        raise SystemExit("need at least 2 distinct pairs (one for the warm-up)")
    log.info("%d distinct pairs (evidence %s)", len(pairs), "supplied" if evidence else "not sent")

    work = args.work or Path(tempfile.mkdtemp(prefix="drowzee-load-"))
    work.mkdir(parents=True, exist_ok=True)
    cache_path = args.warm_cache or work / "calls.sqlite"
    cache_existed = cache_path.exists()
    if args.warm_cache is None:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{cache_path}{suffix}").unlink(missing_ok=True)
    env = dict(os.environ) | {
        "DROWZEE_SERVICE_JOBS_DIR": str(work / "jobs"),
        "DROWZEE_VERIFY_CACHE_PATH": str(cache_path),
        "GRADIO_ANALYTICS_ENABLED": "False",
    }
    if args.url:
        cache: dict[str, Any] = {"mode": "unknown (external server)", "path": None}
        log.warning("--url: the server's call cache is whatever it was started with; figures may include hits")
    else:
        mode = "fresh" if not args.warm_cache else "warm (reused)" if cache_existed else "warm (new file: cold)"
        cache = {
            "mode": mode,
            "path": str(cache_path),
            "bytes_before": cache_path.stat().st_size if cache_existed else 0,
        }
    settings = server_settings(dict(os.environ) if args.url else env)
    report: dict[str, Any] = {
        "settings": {
            "clients": args.clients,
            "seconds": args.seconds,
            "timeout_s": args.timeout,
            "evidence": evidence,
            "pairs": str(args.pairs) if args.pairs else "drowzee_responses (recorded answers)",
            "seed": args.seed,
            "probe_interval_s": args.probe_interval,
            "ui_slow_s": args.ui_slow_s,
            "url": args.url,
            "server": settings if not args.url else {"assumed_from_this_environment": settings},
            "call_cache": cache,
            "cpus": os.cpu_count(),
            "work": str(work),
        }
    }
    if args.url:
        wait_healthy(args.url.rstrip("/"), args.startup_timeout)
        report |= measure(args, args.url.rstrip("/"), pairs, None)
    else:
        server: Server
        try:
            with start_server(env, work / "server.log", args.startup_timeout) as server:
                report["settings"]["server_startup_s"] = round(server.startup_s, 1)
                report |= measure(args, server.url, pairs, server.proc.pid)
        except ServerStartError as exc:
            raise SystemExit(f"the server did not start: {exc}") from exc
        report["server_log"] = {"path": str(server.log_path), "lines": log_problems(server.log_path)}
        log.info("call cache kept at %s (reuse it with --warm-cache)", cache_path)

    fig = report["figures"]
    goal = not fig["errors"] and fig["lost"] == 0 and fig["ui_failures"] == 0 and fig["ui_slow"] == 0
    fig["goal_met"] = goal and report["warmup"]["status"] == 200
    sys.stdout.write(table(fig, report["warmup"], args.clients, args.seconds, cache["mode"]))
    sys.stdout.write(f"goal (0 errors, 0 lost, UI answered every probe within {args.ui_slow_s:g} s): ")
    sys.stdout.write(("met" if fig["goal_met"] else "MISSED") + "\n")

    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    kb = Path(settings["verifier"]["kb"])
    counts = {k: fig[k] for k in ("sent", "answered", "lost", "ok", "errors", "degraded", "labels", "goal_met")}
    record = provenance(
        "bench.service_load",
        {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        seed=args.seed,
        kb_fingerprint=upstream_fingerprint([kb]) if not args.url else None,
        inputs=input_files(inputs),
        counts=counts,
    )
    log.info("figures written to %s (sidecar %s)", args.out, write_sidecar(args.out, record))
    return 0 if fig["goal_met"] else 1


if __name__ == "__main__":
    sys.exit(main())
