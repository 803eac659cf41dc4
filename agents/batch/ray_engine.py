"""`drowzee batch --engine ray`: the batch engine's tasks checked on Ray workers, one verifier per worker.

The driver (this process) reads and plans the input exactly as the local engine does and owns the
ledger: error records are written at once; tasks are shipped to Ray in chunks (`ray.data.from_items`,
so a 1 GB input never sits in memory) and checked by an actor pool (`ActorPoolStrategy`), each actor
a worker process holding one `Verifier` (its own Prolog, KB thread, judge and model clients). Records
stream back through `iter_rows` as they finish and the driver writes each one durably, so resume,
exit codes and the output are the same as with the local engine.

Where Ray runs: `address` (`--ray-address`), else `RAY_ADDRESS`, else a local Ray started for the run.
On a cluster every node needs this package installed and the KB file at the same path; the call
cache is one SQLite file per node (`DROWZEE_VERIFY_CACHE_PATH` on a shared disk shares it, but SQLite
over NFS is slow and unsafe: prefer a local path per node); the ledger stays on the driver.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from agents.batch.engine import BatchError, Record, Sink, Task
from agents.verifier.accounting import CallStats
from agents.verifier.settings import VerifierSettings

log = logging.getLogger(__name__)

CHUNK = 2000
"""Tasks per Ray dataset: the most rows the driver holds at once (the actor pool restarts per chunk)."""
BATCH = 4
"""Rows per `map_batches` call: small, so records come back (and are written) soon after they finish."""


class VerifyWorker:
    """A Ray actor: one verifier for the worker process; checks a batch of shipped tasks."""

    def __init__(self, settings: dict[str, Any]) -> None:
        from agents.verifier.runner import Verifier

        self.verifier = Verifier(VerifierSettings.model_validate(settings))
        self.reported = CallStats()

    def __call__(self, batch: dict[str, Any]) -> dict[str, list[str]]:
        """`task` JSON strings in; `record` JSON strings and this batch's call stats (`usage`, first row) out."""
        records = []
        for text in batch["task"]:
            task = Task.from_json(json.loads(str(text)))
            records.append(json.dumps(task.record(self.verifier.verify(task.request)), ensure_ascii=False))
        now = self.verifier.services.call_stats()
        delta, self.reported = now.minus(self.reported), now
        return {"record": records, "usage": [delta.model_dump_json()] + [""] * (len(records) - 1)}


def _needs_local_server(settings: VerifierSettings) -> bool:
    """Whether a role the run will call points at the embedded local model server."""
    from drowzee_core.llm.roles import load_role

    roles = []
    if settings.use_guardian:
        roles.append("guardian")
    if settings.use_seeker and settings.judge_role == "seeker":
        roles.append("seeker")
    if settings.extractor == "llm":
        roles.append("extractor")
    if settings.manager == "llm":
        roles.append("manager")
    return any(load_role(r, config=settings.roles).is_local for r in roles)


def _chunks(items: Iterable[Task | Record], sink: Sink, on_row: Callable[[], None] | None) -> Iterator[list[Task]]:
    """Tasks in chunks of `CHUNK`; error records go to the sink as they are read."""
    chunk: list[Task] = []
    for item in items:
        if isinstance(item, Task):
            chunk.append(item)
            if len(chunk) == CHUNK:
                yield chunk
                chunk = []
        else:
            sink(item)
            if on_row:
                on_row()
    if chunk:
        yield chunk


def start_ray(address: str | None, concurrency: int) -> bool:
    """Connect to `address` / `RAY_ADDRESS`, or start a local Ray with room for `concurrency` workers.

    Returns whether this call connected (False when Ray was already initialized by the caller).
    """
    try:
        import ray
    except ImportError as exc:
        raise BatchError("--engine ray needs Ray: pip install 'drowzee-triangulator[ray]'") from exc
    if ray.is_initialized():
        return False
    target = address or os.environ.get("RAY_ADDRESS")
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False, "configure_logging": False}
    if not target:
        kwargs["num_cpus"] = max(concurrency, os.cpu_count() or 1)
    try:
        ray.init(address=target, **kwargs)
    except (ConnectionError, RuntimeError, ValueError) as exc:
        raise BatchError(f"cannot start or reach Ray at {target or 'a new local instance'}: {exc}") from exc
    log.info("Ray resources: %s", ray.cluster_resources())  # type: ignore[no-untyped-call]
    return True


def run_ray(
    items: Iterable[Task | Record],
    settings: VerifierSettings,
    sink: Sink,
    *,
    concurrency: int,
    address: str | None = None,
    on_row: Callable[[], None] | None = None,
) -> CallStats:
    """Check the tasks on `concurrency` Ray workers; each record goes to `sink` as it comes back.

    Returns the workers' model, judge and proof calls (tokens, cache hits) summed.
    """
    if concurrency < 1:
        raise BatchError(f"--concurrency must be >= 1, got {concurrency}")
    import ray

    started = start_ray(address, concurrency)
    try:
        if _needs_local_server(settings) and not (address or os.environ.get("RAY_ADDRESS")):
            # one server for all workers on this machine (else each worker races to start its own)
            from drowzee_core.llm.launch import ensure_local_server

            ensure_local_server()
        ctx = ray.data.DataContext.get_current()
        ctx.enable_progress_bars = False
        ctx.execution_options.preserve_order = False
        stats = CallStats()
        conf = settings.model_dump(mode="json")
        for chunk in _chunks(items, sink, on_row):
            items_ds = ray.data.from_items([{"task": json.dumps(t.to_json(), ensure_ascii=False)} for t in chunk])
            ds = items_ds.map_batches(
                VerifyWorker,
                fn_constructor_kwargs={"settings": conf},
                batch_size=BATCH,
                compute=ray.data.ActorPoolStrategy(size=min(concurrency, len(chunk))),
                num_cpus=1,
                batch_format="numpy",
            )
            for row in ds.iter_rows():
                sink(json.loads(row["record"]))
                if row["usage"]:
                    stats = stats.merged(CallStats.model_validate_json(row["usage"]))
                if on_row:
                    on_row()
    finally:
        if started:
            ray.shutdown()
    return stats


__all__ = ["BATCH", "CHUNK", "VerifyWorker", "run_ray", "start_ray"]
