"""What the server owns for its whole life: one verifier (one KB, one Prolog), admission control, the jobs.

janus hosts one Prolog per process, so everything that touches the KB or Prolog - the verifier's KB
check, `/api/prove`, the Knowledge base tab - goes through the verifier's KB thread (`kb_call`),
one call at a time. Model calls overlap. Verify requests are admitted up to `max_pending` at once
(running + queued, `workers` running); beyond that a request is refused at once (`BusyError`, HTTP 429)
rather than left to wait without bound.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode
from service.errors import BadInputError, BusyError, RefusedError, TimedOutError, TooLargeError
from service.settings import ServiceSettings
from service.warmup import WarmUp, warm_pair

if TYPE_CHECKING:
    from agents.verifier.runner import NodeEvent
    from agents.verifier.services import Services
    from drowzee_core.records.verdict import Verdict, VerifyRequest
    from service.jobs import BatchJobs
    from service.procs import ProcessJobs

log = logging.getLogger(__name__)
T = TypeVar("T")


class Checker(Protocol):
    """The verifier as the service uses it (the real `agents.verifier.runner.Verifier`, or a fake in tests)."""

    services: Services

    def stream(self, request: VerifyRequest, thread: str | None = None) -> Iterator[NodeEvent]:
        """Node events as each node finishes."""
        ...

    def verify(self, request: VerifyRequest, thread: str | None = None) -> Verdict:
        """The verdict of one pair."""
        ...

    def close(self) -> None:
        """Release the KB thread and caches."""
        ...


class ProveRequest(BaseModel):
    """A claim to prove on the KB, by entity and relation names or keys."""

    model_config = ConfigDict(extra="forbid")

    subject: str = Field(min_length=1, max_length=300, description="Entity label or key, e.g. `Paris`.")
    relation: str = Field(min_length=1, max_length=100, description="Relation name or label, e.g. `located_in`.")
    object: str = Field(min_length=1, max_length=300, description="Entity label, key or literal, e.g. `Europe`.")


class ProveResponse(BaseModel):
    """What Prolog says of a claim: supported / contradicted (with the proof) or unknown."""

    model_config = ConfigDict(extra="forbid")

    status: ProofStatus = Field(description="supported / contradicted / unknown (absence is never false).")
    relation: str = Field(description="The relation the claim was read as (with a note when a name is not in the KB).")
    proof: ProofNode | None = Field(default=None, description="The proof tree, when there is one.")
    lines: list[str] = Field(default_factory=list, description="The proof as readable lines.")
    subject_candidates: list[str] = Field(default_factory=list, description="KB keys the subject name resolved to.")
    object_candidates: list[str] = Field(default_factory=list, description="KB keys the object name resolved to.")


def _identity_of(checker: Checker) -> str | None:
    """The verifier's digest (`agents.verifier.identity`): `drowzee verify` reuses this server when it is equal."""
    from agents.verifier.identity import verifier_identity
    from agents.verifier.settings import VerifierSettings

    settings = getattr(checker, "settings", None)
    return verifier_identity(settings) if isinstance(settings, VerifierSettings) else None


class Runtime:
    """The server's verifier, KB access, admission control and job managers."""

    def __init__(self, settings: ServiceSettings, make_checker: Callable[[], Checker]) -> None:
        self.settings = settings
        self._make_checker = make_checker
        self._checker: Checker | None = None
        self._lock = threading.Lock()
        self._jobs_lock = threading.Lock()
        self._slots = threading.BoundedSemaphore(settings.max_pending)
        self._pool = ThreadPoolExecutor(max_workers=settings.workers, thread_name_prefix="drowzee-api")
        self._batch: BatchJobs | None = None
        self._procs: ProcessJobs | None = None
        self.warm_up = WarmUp()
        self._identity: str | None = None

    # ------------------------------------------------------------------------------------------ verifier
    @property
    def checker(self) -> Checker:
        """The verifier, built on first use (the KB loads into Prolog then)."""
        with self._lock:
            if self._checker is None:
                self._checker = self._make_checker()
                self._identity = _identity_of(self._checker)
            return self._checker

    def start_warm_up(self) -> None:
        """Build the verifier and check one pair from the KB in the background (`service.warmup`)."""
        self.warm_up.start(lambda: self.checker, lambda: self.kb_call(warm_pair))

    def stream(self, request: VerifyRequest) -> Iterator[NodeEvent]:
        """Node events of one verification, as each node finishes (the UI's live view)."""
        return self.checker.stream(request)

    def submit(self, request: VerifyRequest) -> Future[Verdict]:
        """Admit one verification or raise `BusyError` when `max_pending` are already admitted."""
        if not self._slots.acquire(blocking=False):
            raise BusyError(
                f"{self.settings.max_pending} verify requests are already running or queued; retry later, or raise"
                f" the limit with {ServiceSettings.env_name('max_pending')}",
                "max_pending",
            )
        try:
            fut = self._pool.submit(self.checker.verify, request)
        except BaseException:
            self._slots.release()
            raise
        fut.add_done_callback(lambda _f: self._slots.release())
        return fut

    async def verify(self, request: VerifyRequest) -> Verdict:
        """Verify one pair within `request_timeout_s` (`TimedOutError` after; the work finishes in the background)."""
        return await self.within_limit(asyncio.wrap_future(self.submit(request)), "verify")

    async def within_limit(self, work: asyncio.Future[T], what: str) -> T:
        """Await `work`, raising `TimedOutError` after `request_timeout_s`."""
        limit = self.settings.request_timeout_s
        try:
            return await asyncio.wait_for(asyncio.shield(work), timeout=limit)
        except TimeoutError:
            raise TimedOutError(
                f"{what} took longer than {limit:g} s; raise {ServiceSettings.env_name('request_timeout_s')}"
                " or send a shorter request",
                "request_timeout_s",
            ) from None

    # ------------------------------------------------------------------------------------------ KB
    def kb_call(self, fn: Callable[[Services], T]) -> T:
        """Run `fn(services)` on the KB thread (the only thread that touches the KB store and Prolog)."""
        services = self.checker.services
        return services.gate.run(fn, services)

    def prove(self, claim: ProveRequest) -> ProveResponse:
        """Prove a claim on the KB with its proof tree."""

        def run(services: Services) -> ProveResponse:
            v = services.reasoner.prove(claim.subject, claim.relation, claim.object)
            return ProveResponse(
                status=v.status,
                relation=v.relation,
                proof=ProofNode.model_validate(v.proof) if v.proof is not None else None,
                lines=v.lines(),
                subject_candidates=v.subject,
                object_candidates=v.object,
            )

        return self.kb_call(run)

    async def prove_async(self, claim: ProveRequest) -> ProveResponse:
        """`prove` off the event loop, within `request_timeout_s`."""
        return await self.within_limit(asyncio.wrap_future(self._pool.submit(self.prove, claim)), "prove")

    # ------------------------------------------------------------------------------------------ jobs
    @property
    def batch(self) -> BatchJobs:
        """Batch jobs (run in this process on the shared verifier)."""
        with self._jobs_lock:
            if self._batch is None:
                from service.jobs import BatchJobs

                self._batch = BatchJobs(self.settings, lambda: self.checker.verify)
            return self._batch

    @property
    def procs(self) -> ProcessJobs:
        """Benchmark and training jobs (each a `drowzee` command in its own process)."""
        with self._jobs_lock:
            if self._procs is None:
                from service.procs import ProcessJobs

                self._procs = ProcessJobs(self.settings.jobs_dir)
            return self._procs

    def health(self) -> dict[str, Any]:
        """Liveness and what is loaded."""
        return {
            "status": "ok",
            "verifier_loaded": self._checker is not None,
            "ready": self.warm_up.state == "ready" or (self.warm_up.state != "warming" and self._checker is not None),
            **self.warm_up.health(),
            "verifier": self._identity,
            "batch_jobs_running": self._batch.running() if self._batch is not None else 0,
            "process_jobs_running": self._procs.running() if self._procs is not None else 0,
        }

    def close(self) -> None:
        """Stop the jobs, then the verifier."""
        if self._batch is not None:
            self._batch.close()
        if self._procs is not None:
            self._procs.close()
        self._pool.shutdown(wait=False, cancel_futures=True)
        with self._lock:
            if self._checker is not None:
                self._checker.close()
                self._checker = None
                self._identity = None


__all__ = [
    "BadInputError",
    "BusyError",
    "Checker",
    "ProveRequest",
    "ProveResponse",
    "RefusedError",
    "Runtime",
    "TimedOutError",
    "TooLargeError",
]
