"""The start-up warm-up: the verifier is built and one pair checked in the background; /healthz says when."""

from __future__ import annotations

import threading
from pathlib import Path

from fastapi.testclient import TestClient

from drowzee_core.records.verdict import VerifyRequest
from service.warmup import WarmUp
from tests.unit.service_fakes import fake_app


def test_healthz_shows_a_failed_warm_up_and_the_server_still_verifies(tmp_path: Path) -> None:
    app, _ = fake_app(tmp_path)  # its scripted verifier has no KB to take a pair from
    with TestClient(app) as c:
        app.state.runtime.warm_up.join(30)
        health = c.get("/healthz").json()
        assert (health["warm_up"], health["verifier_loaded"]) == ("failed", True), health
        assert "has no attribute 'store'" in health["warm_up_error"]
        r = c.post("/api/verify", json={"query": "Q?", "response": "The capital of France is Paris."})
        assert r.status_code == 200


def test_a_warm_up_checks_the_pair_and_reports_ready() -> None:
    seen: list[VerifyRequest] = []

    class Checker:
        def verify(self, request: VerifyRequest, thread: str | None = None) -> None:
            seen.append(request)

    warm = WarmUp()
    pair = VerifyRequest(id="warm-up", query="Is this statement true?", response="Paris is located in France.")
    warm.start(Checker, lambda: pair)
    warm.join(10)
    assert seen == [pair]
    assert warm.health()["warm_up"] == "ready" and "warm_up_seconds" in warm.health()


def test_a_failed_warm_up_is_reported_and_the_server_goes_on() -> None:
    started = threading.Event()

    def build() -> object:
        started.set()
        raise RuntimeError("no KB at /nowhere")

    warm = WarmUp()
    warm.start(build, lambda: None)
    warm.join(10)
    assert started.is_set()
    assert warm.health() == {"warm_up": "failed", "warm_up_error": "RuntimeError: no KB at /nowhere"}


def test_a_warm_up_also_loads_what_the_pair_does_not_touch() -> None:
    calls: list[str] = []

    class Checker:
        def verify(self, request: VerifyRequest, thread: str | None = None) -> None:
            calls.append("verify")

        def warm(self) -> None:
            calls.append("warm")

    warm = WarmUp()
    warm.start(Checker, lambda: VerifyRequest(query="Q?", response="Paris is located in France."))
    warm.join(10)
    assert calls == ["verify", "warm"] and warm.health()["warm_up"] == "ready"


def test_a_failing_warm_step_is_reported() -> None:
    class Checker:
        def verify(self, request: VerifyRequest, thread: str | None = None) -> None:
            return None

        def warm(self) -> None:
            raise OSError("WordNet 3.0 cannot be read")

    warm = WarmUp()
    warm.start(Checker, lambda: None)
    warm.join(10)
    assert warm.health() == {"warm_up": "failed", "warm_up_error": "OSError: WordNet 3.0 cannot be read"}
