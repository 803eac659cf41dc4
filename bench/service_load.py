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
import random
import sys
import tempfile
import threading
import time
from collections import Counter
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1]))

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

from drowzee_core.records.provenance import input_files, provenance, upstream_fingerprint, write_sidecar

log = logging.getLogger("bench.service_load")
UI_PATHS = ("/", "/config", "/healthz")
DEFAULT_OUT = ROOT / "out" / "service_load.json"


# ---------------------------------------------------------------------------------------------- pairs
def recorded_pairs(evidence: bool) -> tuple[list[dict[str, Any]], list[Path]]:
    """Every recorded answer to Drowzee's questions as a request, and the files read."""
    from verifier import PEERS, drowzee_pairs  # bench/verifier.py: reads them with `peer_answers`

    rows = drowzee_pairs(None)
    files = sorted((PEERS / "drowzee_responses").glob("*/history.json"))
    return [request_of(r, evidence) for r in rows], files


def file_pairs(path: Path, evidence: bool) -> list[dict[str, Any]]:
    """Requests from a recorded-answers file (Drowzee history or `drowzee run-llm` JSONL) or a pairs JSONL."""
    from drowzee_core.records.peer_answers import is_drowzee_history, read_answers

    if is_drowzee_history(path):
        rows = read_answers(path)
    else:
        rows = [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()]
    out = []
    for i, row in enumerate(rows):
        if "llm_answer" in row:  # an answered row: the question and the model's answer
            q, a = row.get("question", ""), row["llm_answer"]
            row = {"id": row.get("id"), "query": q, "response": a, "evidence": row.get("evidence")}
        if not isinstance(row.get("response"), str) or not row["response"].strip():
            raise SystemExit(f"{path}: row {i + 1} has no `response` (or `llm_answer`)")
        out.append(request_of(row | {"id": str(row.get("id") or i)}, evidence))
    return out


def request_of(row: dict[str, Any], evidence: bool) -> dict[str, Any]:
    """The `/api/verify` body of a pair: id, query, response and (optionally) its evidence."""
    body = {"id": str(row["id"]), "query": str(row.get("query") or ""), "response": row["response"].strip()}
    if evidence and row.get("evidence"):
        body["evidence"] = row["evidence"]
    return body


def distinct(pairs: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """The pairs without repeated content (same query, response and evidence: a cache hit), shuffled."""
    seen: set[str] = set()
    out = []
    for p in pairs:
        key = json.dumps([p["query"], p["response"], p.get("evidence")], sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(p)
    random.Random(seed).shuffle(out)
    return out


# ---------------------------------------------------------------------------------------------- load
@dataclass
class Request:
    """One `/api/verify` call: when it was sent (seconds after the clock started), how it ended."""

    client: int
    pair: str
    sent_s: float
    latency_s: float | None = None
    status: int | None = None
    error: str | None = None
    limit: str | None = None
    label: str | None = None
    confidence: float | None = None
    degraded: bool | None = None
    degraded_reasons: list[str] = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    after_stop: bool = False

    @property
    def answered(self) -> bool:
        """Whether an HTTP response came back (any status)."""
        return self.status is not None


@dataclass
class Load:
    """The pairs, the clock, and what every client sent."""

    pairs: list[dict[str, Any]]
    url: str
    timeout_s: float
    started: float = 0.0
    deadline: float = 0.0
    next_pair: int = 0
    in_flight: int = 0
    in_flight_at_stop: int | None = None
    requests: list[Request] = field(default_factory=list)

    def take(self) -> dict[str, Any]:
        """The next pair (cycling from the first once every pair was sent)."""
        pair = self.pairs[self.next_pair % len(self.pairs)]
        if self.next_pair == len(self.pairs):
            log.warning("all %d distinct pairs sent; repeating them (repeats may be cache hits)", len(self.pairs))
        self.next_pair += 1
        return pair


async def verify(http: httpx.AsyncClient, url: str, body: dict[str, Any], rec: Request, timeout_s: float) -> None:
    """POST one pair and fill `rec` with the outcome."""
    t0 = time.perf_counter()
    try:
        resp = await http.post(url + "/api/verify", json=body, timeout=timeout_s)
    except httpx.HTTPError as exc:
        rec.latency_s = time.perf_counter() - t0
        rec.error = f"{type(exc).__name__}: {exc}"[:500]
        log.error("client %d: %s got no answer after %.1f s: %s", rec.client, rec.pair, rec.latency_s, rec.error)
        return
    rec.latency_s = time.perf_counter() - t0
    rec.status = resp.status_code
    try:
        data = resp.json()
    except ValueError:
        data = {"error": resp.text[:500]}
    if resp.status_code != 200 or not isinstance(data, dict) or "label" not in data:
        rec.error = str(data.get("error") if isinstance(data, dict) else data)[:500]
        rec.limit = data.get("limit") if isinstance(data, dict) else None
        log.warning("client %d: %s -> %d %s", rec.client, rec.pair, resp.status_code, rec.error)
        return
    rec.label, rec.confidence, rec.degraded = data["label"], data.get("confidence"), bool(data.get("degraded"))
    rec.degraded_reasons = list(data.get("degraded_reasons") or [])
    rec.timings = dict((data.get("provenance") or {}).get("timings") or {})


async def client(k: int, load: Load, http: httpx.AsyncClient) -> None:
    """Send pairs one after another until the deadline."""
    while time.monotonic() < load.deadline:
        body = load.take()
        rec = Request(client=k, pair=body["id"], sent_s=round(time.monotonic() - load.started, 3))
        load.requests.append(rec)
        load.in_flight += 1
        try:
            await verify(http, load.url, body, rec, load.timeout_s)
        finally:
            load.in_flight -= 1
        rec.after_stop = time.monotonic() > load.deadline


async def watch_stop(load: Load) -> None:
    """Note how many requests are in flight when the clock stops."""
    await asyncio.sleep(max(0.0, load.deadline - time.monotonic()))
    load.in_flight_at_stop = load.in_flight
    log.info("time is up: %d requests in flight, waiting for them", load.in_flight)


async def run_load(load: Load, clients: int, seconds: float) -> float:
    """Run the clients for `seconds` and wait for those in flight; seconds from start to the last answer."""
    limits = httpx.Limits(max_connections=clients + 4, max_keepalive_connections=clients + 4)
    async with httpx.AsyncClient(limits=limits, timeout=load.timeout_s) as http:
        load.started = time.monotonic()
        load.deadline = load.started + seconds
        tasks = [asyncio.create_task(client(k, load, http)) for k in range(clients)]
        watcher = asyncio.create_task(watch_stop(load))
        results = await asyncio.gather(*tasks, return_exceptions=True)
        await watcher
    for k, res in enumerate(results):
        if isinstance(res, BaseException):
            log.error("client %d crashed: %r", k, res)
    return time.monotonic() - load.started


# ---------------------------------------------------------------------------------------------- UI probe
@dataclass
class Probe:
    """One GET of a UI path (or `/healthz`) during the run."""

    path: str
    at_s: float
    latency_s: float
    status: int | None
    error: str | None = None


class UiProbe(threading.Thread):
    """GET each of `UI_PATHS` every `interval` s in its own thread (its own loop: the load cannot delay it)."""

    def __init__(self, url: str, interval: float, timeout_s: float) -> None:
        super().__init__(name="ui-probe", daemon=True)
        self.url, self.interval, self.timeout_s = url, interval, timeout_s
        self.stopping = threading.Event()
        self.probes: list[Probe] = []
        self.started_at = time.monotonic()

    def round(self, http: httpx.Client) -> list[Probe]:
        """One GET of every path."""
        out = []
        for path in UI_PATHS:
            at = time.monotonic() - self.started_at
            t0 = time.perf_counter()
            try:
                resp = http.get(self.url + path)
                status, error = resp.status_code, None if resp.status_code == 200 else resp.text[:200]
            except httpx.HTTPError as exc:
                status, error = None, f"{type(exc).__name__}: {exc}"[:200]
            probe = Probe(path, round(at, 3), time.perf_counter() - t0, status, error)
            if error:
                log.warning("UI probe %s failed after %.2f s: %s %s", path, probe.latency_s, status, error)
            out.append(probe)
        return out

    def run(self) -> None:
        """Probe until stopped."""
        with httpx.Client(timeout=self.timeout_s) as http:
            while not self.stopping.is_set():
                t0 = time.monotonic()
                self.probes += self.round(http)
                self.stopping.wait(max(0.0, self.interval - (time.monotonic() - t0)))

    def stop(self) -> None:
        """Stop after the round in progress."""
        self.stopping.set()
        self.join()


# ---------------------------------------------------------------------------------------------- figures
def figures(load: Load, wall_s: float, probes: list[Probe], ui_slow_s: float) -> dict[str, Any]:
    """Counts, latencies, throughput, labels and the UI probe's figures."""
    reqs = load.requests
    answered = [r for r in reqs if r.answered]
    ok = [r for r in answered if r.status == 200 and r.label is not None]
    ok_ids = {id(r) for r in ok}
    errors = Counter(
        str(r.status) if r.answered else (r.error or "?").split(":")[0] for r in reqs if id(r) not in ok_ids
    )
    node_s: dict[str, list[float]] = {}
    for r in ok:
        for node, s in r.timings.items():
            node_s.setdefault(node, []).append(s)
    ui: dict[str, Any] = {}
    for path in UI_PATHS:
        mine = [p for p in probes if p.path == path]
        ui[path] = latency([p.latency_s for p in mine if p.status == 200]) | {
            "probes": len(mine),
            "failures": sum(1 for p in mine if p.status != 200),
            "slow": sum(1 for p in mine if p.latency_s > ui_slow_s),
        }
    reasons = Counter(reason.split(":")[0] for r in ok for reason in r.degraded_reasons)
    return {
        "sent": len(reqs),
        "answered": len(answered),
        "lost": len(reqs) - len(answered),
        "ok": len(ok),
        "errors": dict(errors),
        "refused_limits": dict(Counter(r.limit for r in answered if r.limit)),
        "in_flight_at_stop": load.in_flight_at_stop,
        "finished_after_stop": sum(1 for r in reqs if r.after_stop),
        "drain_s": round(max(0.0, wall_s - (load.deadline - load.started)), 1),
        "wall_s": round(wall_s, 1),
        "latency_s": latency([r.latency_s for r in ok if r.latency_s is not None]),
        "latency_all_s": latency([r.latency_s for r in reqs if r.latency_s is not None]),
        "pairs_per_min": round(60 * len(ok) / wall_s, 1) if wall_s else None,
        "pairs_per_min_in_window": round(
            60 * sum(1 for r in ok if not r.after_stop) / (load.deadline - load.started), 1
        ),
        "degraded": sum(1 for r in ok if r.degraded),
        "degraded_reasons": dict(reasons),
        "labels": dict(Counter(r.label for r in ok)),
        "node_s": {node: latency(v) for node, v in sorted(node_s.items())},
        "distinct_pairs": len(load.pairs),
        "repeats": max(0, len(reqs) - len(load.pairs)),
        "ui": ui,
        "ui_failures": sum(v["failures"] for v in ui.values()),
        "ui_slow": sum(v["slow"] for v in ui.values()),
    }


def model_line(ms: dict[str, Any] | None) -> str:
    """Where the model calls went: this run's model server, or one shared with another process."""
    if not ms or not ms["running"]:
        return "not running"
    owner = f"owner pid {ms['owner_pid']}" if ms["owner_pid"] else "owner unknown"
    kinds = {
        True: "shared with another Drowzee process",
        False: "started by this run's server",
        None: "unknown (external server)",
    }
    where = f"{kinds[ms['shared']]} ({owner})"
    cores = f", {ms['cores_used']} cores" if "cores_used" in ms else ""
    changed = "" if ms["same_process_at_end"] else ", CHANGED during the run"
    return f"{ms['url']}: {where}{cores}{changed}"


def table(fig: dict[str, Any], warmup: dict[str, Any], clients: int, seconds: float, cache: str) -> str:
    """The figures as a Markdown table."""
    lat = fig["latency_s"]
    rows = [
        ("clients / seconds", f"{clients} / {seconds:g}"),
        ("call cache", cache),
        ("warm-up request", f"{warmup['status']} in {warmup['latency_s']:.1f} s"),
        ("requests sent", fig["sent"]),
        ("answered", fig["answered"]),
        ("lost (sent - answered)", fig["lost"]),
        ("ok (200 with a verdict)", fig["ok"]),
        ("errors by status", ", ".join(f"{k}: {v}" for k, v in sorted(fig["errors"].items())) or "0"),
        ("in flight at stop / drain", f"{fig['in_flight_at_stop']} / {fig['drain_s']} s"),
        ("latency p50 / p95 / max", f"{lat['p50']} / {lat['p95']} / {lat['max']} s"),
        ("throughput", f"{fig['pairs_per_min']} pairs/min ({fig['pairs_per_min_in_window']} within the window)"),
        ("degraded verdicts", fig["degraded"]),
        ("labels", ", ".join(f"{k}: {v}" for k, v in sorted(fig["labels"].items())) or "-"),
        ("distinct pairs / repeats", f"{fig['distinct_pairs']} / {fig['repeats']}"),
        ("model server", model_line(fig.get("model_server"))),
    ]
    if "server" in fig:
        srv = fig["server"]
        rows.append(
            (
                "server CPU / RSS (without the model server)",
                f"{srv['cores_used']} cores / {srv['rss_mb'][0]} -> {srv['rss_mb'][1]} MB",
            )
        )
    rows.append(("load average (1 min) before / after", f"{fig['load_avg_1min'][0]} / {fig['load_avg_1min'][1]}"))
    for path, u in fig["ui"].items():
        rows.append(
            (
                f"UI probe GET {path} p50 / p95 / max",
                f"{u['p50']} / {u['p95']} / {u['max']} s ({u['probes']} probes, {u['failures']} failed,"
                f" {u['slow']} slow)",
            )
        )
    lines = ["| figure | value |", "| --- | --- |"] + [f"| {k} | {v} |" for k, v in rows]
    return "\n".join(lines) + "\n"


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
