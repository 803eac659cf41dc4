"""`drowzee verify` hands a pair to a running service only when that service runs the same verifier.

The service is the real app (API, `/healthz`) over a scripted checker that carries real `VerifierSettings`;
the CLI's client reaches it through an httpx transport instead of a socket.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient

from agents.verifier.identity import code_stamp, verifier_identity
from agents.verifier.settings import VerifierSettings
from cli.service_client import DEFAULT_URL, Target, target, verify_remote
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import VerifyRequest
from tests.unit.service_fakes import FakeChecker, fake_app

PAIR = VerifyRequest(query="What is the capital of France?", response="Paris is the capital of France.")
NAMED = Target("http://svc.test", named=True)
FOUND = Target(DEFAULT_URL, named=False)


class SettingsChecker(FakeChecker):
    """The scripted checker, with the settings a real `Verifier` would carry."""

    def __init__(self, settings: VerifierSettings) -> None:
        super().__init__()
        self.settings = settings


@pytest.fixture
def settings(tmp_path: Path) -> VerifierSettings:
    return VerifierSettings.load({"kb": tmp_path / "kb.sqlite", "use_guardian": False})


@pytest.fixture
def service(tmp_path: Path, settings: VerifierSettings) -> Iterator[tuple[TestClient, SettingsChecker]]:
    checker = SettingsChecker(settings)
    app, _ = fake_app(tmp_path, checker, warm=False)
    with TestClient(app) as client:
        yield client, checker


def through(client: TestClient, answer: dict[str, int] | None = None) -> httpx.MockTransport:
    """A transport that hands each request to the app (or answers `answer[path]` as a bare status)."""

    def handle(request: httpx.Request) -> httpx.Response:
        if answer and request.url.path in answer:
            return httpx.Response(answer[request.url.path], json={"detail": "scripted"})
        r = client.request(request.method, request.url.path, content=request.content, headers=dict(request.headers))
        return httpx.Response(r.status_code, content=r.content, headers=r.headers)

    return httpx.MockTransport(handle)


def ready(client: TestClient) -> None:
    """Build the service's verifier (as its warm-up would)."""
    assert client.post("/api/verify", json=PAIR.model_dump(mode="json")).status_code == 200


def test_same_verifier_answers(service: tuple[TestClient, SettingsChecker], settings: VerifierSettings) -> None:
    client, checker = service
    ready(client)
    assert client.get("/healthz").json()["verifier"] == verifier_identity(settings)
    verdict = verify_remote(PAIR, settings, FOUND, 30, transport=through(client))
    assert verdict is not None and verdict.label == "FACTUAL"
    assert checker.calls == 2


def test_other_settings_are_checked_here(service: tuple[TestClient, SettingsChecker], tmp_path: Path) -> None:
    client, checker = service
    ready(client)
    other = VerifierSettings.load({"kb": tmp_path / "kb.sqlite", "use_guardian": False, "use_seeker": False})
    assert verify_remote(PAIR, other, FOUND, 30, transport=through(client)) is None
    with pytest.raises(DrowzeeError, match="other settings"):
        verify_remote(PAIR, other, NAMED, 30, transport=through(client))
    assert checker.calls == 1


def test_a_service_not_ready_is_not_asked(
    service: tuple[TestClient, SettingsChecker], settings: VerifierSettings
) -> None:
    client, checker = service
    assert verify_remote(PAIR, settings, FOUND, 30, transport=through(client)) is None
    with pytest.raises(DrowzeeError, match="not ready"):
        verify_remote(PAIR, settings, NAMED, 30, transport=through(client))
    assert checker.calls == 0


def test_busy_service_leaves_the_pair_here_unless_named(
    service: tuple[TestClient, SettingsChecker], settings: VerifierSettings
) -> None:
    client, _ = service
    ready(client)
    busy = through(client, {"/api/verify": 429})
    assert verify_remote(PAIR, settings, FOUND, 30, transport=busy) is None
    with pytest.raises(DrowzeeError, match=r"refused the pair \(429\)"):
        verify_remote(PAIR, settings, NAMED, 30, transport=busy)
    bad = through(client, {"/api/verify": 422})
    with pytest.raises(DrowzeeError, match=r"refused the pair \(422\): scripted"):
        verify_remote(PAIR, settings, FOUND, 30, transport=bad)


def test_no_service_at_all(settings: VerifierSettings) -> None:
    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    assert verify_remote(PAIR, settings, FOUND, 30, transport=httpx.MockTransport(refuse)) is None
    with pytest.raises(DrowzeeError, match=r"no service answers at http://svc\.test"):
        verify_remote(PAIR, settings, NAMED, 30, transport=httpx.MockTransport(refuse))


def test_not_a_drowzee_service(settings: VerifierSettings) -> None:
    def other(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, text="<html>hello</html>")

    assert verify_remote(PAIR, settings, FOUND, 30, transport=httpx.MockTransport(other)) is None


def test_token_is_sent(monkeypatch: pytest.MonkeyPatch, settings: VerifierSettings) -> None:
    seen: list[str | None] = []

    def record(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("authorization"))
        return httpx.Response(200, json={"status": "ok", "ready": False})

    monkeypatch.setenv("DROWZEE_API_TOKEN", "s3cret")
    verify_remote(PAIR, settings, FOUND, 30, transport=httpx.MockTransport(record))
    assert seen == ["Bearer s3cret"]


@pytest.mark.parametrize(
    ("option", "local", "env", "want"),
    [
        (None, False, None, Target(DEFAULT_URL, named=False)),
        ("http://h:1/", False, None, Target("http://h:1", named=True)),
        (None, False, "http://e:2", Target("http://e:2", named=True)),
        ("http://h:1", False, "http://e:2", Target("http://h:1", named=True)),
        (None, False, "off", None),
        ("http://h:1", True, None, None),
    ],
)
def test_target(
    monkeypatch: pytest.MonkeyPatch, option: str | None, local: bool, env: str | None, want: Target | None
) -> None:
    if env is None:
        monkeypatch.delenv("DROWZEE_SERVICE_URL", raising=False)
    else:
        monkeypatch.setenv("DROWZEE_SERVICE_URL", env)
    assert target(option, local) == want


def test_identity_follows_settings_roles_and_code(
    monkeypatch: pytest.MonkeyPatch, settings: VerifierSettings, tmp_path: Path
) -> None:
    base = verifier_identity(settings)
    assert verifier_identity(VerifierSettings.load({"kb": tmp_path / "kb.sqlite", "use_guardian": False})) == base
    assert verifier_identity(settings.model_copy(update={"policy": "strict"})) != base
    monkeypatch.setenv("DROWZEE_GUARDIAN_MODEL", "some-other-model")
    assert verifier_identity(settings) != base
    monkeypatch.delenv("DROWZEE_GUARDIAN_MODEL")
    monkeypatch.setenv("DROWZEE_EMBEDDINGS", "torch")
    assert verifier_identity(settings) != base
    monkeypatch.delenv("DROWZEE_EMBEDDINGS")
    code = tmp_path / "code"
    (code / "agents").mkdir(parents=True)
    (code / "agents" / "a.py").write_text("x = 1\n")
    first = code_stamp(code)
    (code / "agents" / "a.py").write_text("x = 22\n")
    assert code_stamp(code) != first


def test_a_misconfigured_role_does_not_stop_the_digest(
    monkeypatch: pytest.MonkeyPatch, settings: VerifierSettings
) -> None:
    monkeypatch.setenv("DROWZEE_TARGET_BASE_URL", "localhost:8000")  # no scheme: the target role cannot load
    broken = verifier_identity(settings)  # `verify` never calls the target role: this must not fail
    monkeypatch.setenv("DROWZEE_TARGET_BASE_URL", "http://127.0.0.1:8000/v1")
    assert verifier_identity(settings) != broken


def test_no_digest_is_computed_when_no_service_answers(
    monkeypatch: pytest.MonkeyPatch, settings: VerifierSettings
) -> None:
    def boom(_: object) -> str:
        raise AssertionError("computed without a service")

    monkeypatch.setattr("agents.verifier.identity.verifier_identity", boom)

    def refuse(request: httpx.Request) -> httpx.Response:
        raise httpx.ConnectError("refused", request=request)

    assert verify_remote(PAIR, settings, FOUND, 30, transport=httpx.MockTransport(refuse)) is None
