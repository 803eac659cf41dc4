"""The load benchmark's clients: N async httpx clients, each sending its next pair when the last is answered."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

log = logging.getLogger("bench.service_load")


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


__all__ = ["Load", "Request", "client", "run_load", "verify", "watch_stop"]
