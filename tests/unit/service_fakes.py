"""A scripted verifier for service tests: no Prolog, no models; optionally slow, to test limits."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from fastapi import FastAPI

from agents.verifier.runner import NodeEvent
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import ClaimVerdict, Decision, EvidenceItem, EvidenceSource, Verdict, VerifyRequest
from service import ServiceSettings, create_app

WRONG = "Lyon"
"""A response containing this word is NON-FACTUAL to the fake."""


class FakeGate:
    """Runs KB calls inline (the real gate runs them on one thread)."""

    def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        return fn(*args)


class FakeServices:
    gate = FakeGate()


class FakeChecker:
    """Labels NON-FACTUAL when the response mentions `WRONG`; waits on `release` first when one is given."""

    def __init__(self, release: threading.Event | None = None) -> None:
        self.services: Any = FakeServices()
        self.release = release
        self.calls = 0
        self.closed = False

    def _verdict(self, request: VerifyRequest) -> Verdict:
        if self.release is not None:
            self.release.wait(timeout=30)
        self.calls += 1
        wrong = WRONG in request.response
        status = ProofStatus.CONTRADICTED if wrong else ProofStatus.SUPPORTED
        return Verdict(
            id=request.id,
            decision=Decision.REFUTED if wrong else Decision.SUPPORTED,
            label=Label.NON_FACTUAL if wrong else Label.FACTUAL,
            confidence=0.9,
            explanation=f"{'NON-FACTUAL' if wrong else 'FACTUAL'}. E1 says so.",
            claims=[ClaimVerdict(text=request.response, span=(0, len(request.response)), status=status)],
            evidence=[EvidenceItem(id="E1", source=EvidenceSource.KB, text="Paris is the capital of France.")],
        )

    def stream(self, request: VerifyRequest, thread: str | None = None) -> Iterator[NodeEvent]:
        yield NodeEvent("claims", {"claims": []})
        yield NodeEvent("verdict_manager", {"verdict": self._verdict(request)})

    def verify(self, request: VerifyRequest, thread: str | None = None) -> Verdict:
        return self._verdict(request)

    def close(self) -> None:
        self.closed = True


def fake_app(tmp: Path, checker: FakeChecker | None = None, **settings: Any) -> tuple[FastAPI, FakeChecker]:
    """The real app (API + UI) over a fake verifier, with jobs under `tmp`."""
    fake = checker or FakeChecker()
    values = {"jobs_dir": tmp / "jobs", **settings}
    return create_app(ServiceSettings(**values), make_checker=lambda: fake), fake
