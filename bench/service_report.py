"""The load benchmark's UI probe (a thread of GETs) and its figures and table (pure: records in, dicts out)."""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import httpx
from service_common import latency

if TYPE_CHECKING:
    from service_clients import Load

log = logging.getLogger("bench.service_load")
UI_PATHS = ("/", "/config", "/healthz")


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


__all__ = ["UI_PATHS", "Probe", "UiProbe", "figures", "model_line", "table"]
