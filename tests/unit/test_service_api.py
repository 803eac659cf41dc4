"""The REST API over a scripted verifier: verdicts, batch jobs, and every refusal as a clear 4xx/5xx."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from service import ServiceError, ServiceSettings, create_app
from tests.unit.service_fakes import FakeChecker, fake_app

PAIR = {"query": "What is the capital of France?", "response": "The capital of France is Paris."}
WRONG = {"query": "What is the capital of France?", "response": "The capital of France is Lyon."}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    app, _ = fake_app(tmp_path)
    with TestClient(app) as c:
        yield c


def still_serving(c: TestClient, headers: dict[str, str] | None = None) -> None:
    r = c.post("/api/verify", json=PAIR, headers=headers or {})
    assert r.status_code == 200, r.text
    assert r.json()["label"] == "FACTUAL"


def refused(r: Any, status: int, *words: str) -> dict[str, Any]:
    assert r.status_code == status, r.text
    body: dict[str, Any] = r.json()
    for w in words:
        assert w in body["error"], body
    return body


def wait_done(c: TestClient, job: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        body: dict[str, Any] = c.get(f"/api/batch/{job}", headers=headers or {}).json()
        if body["job"]["status"] in ("done", "failed"):
            return body
        time.sleep(0.05)
    raise AssertionError(f"job {job} did not finish")


def test_verify_returns_the_verdict_schema(client: TestClient) -> None:
    r = client.post("/api/verify", json={**WRONG, "id": "q1"})
    assert r.status_code == 200
    body = r.json()
    assert (body["id"], body["label"]) == ("q1", "NON-FACTUAL")
    assert body["claims"][0]["status"] == "contradicted"
    assert client.get("/healthz").json()["status"] == "ok"
    assert "/api/verify" in client.get("/openapi.json").json()["paths"]


def test_malformed_json_and_bad_fields_are_422_with_a_message(client: TestClient) -> None:
    r = client.post("/api/verify", content=b'{"query": "x", "response": ', headers={"content-type": "application/json"})
    refused(r, 422, "invalid request", "JSON")
    refused(client.post("/api/verify", json={"query": "x"}), 422, "response")
    refused(client.post("/api/verify", json={**PAIR, "colour": "red"}), 422, "colour")
    refused(client.post("/api/verify", json={**PAIR, "response": "x" * 20_001}), 422, "response")
    still_serving(client)


def test_oversized_request_is_413_naming_the_setting(tmp_path: Path) -> None:
    app, fake = fake_app(tmp_path, max_request_bytes=2_000)
    with TestClient(app) as c:
        body = refused(c.post("/api/verify", json={**PAIR, "query": "q" * 3_000}), 413, "2,000 bytes")
        assert body["setting"] == "DROWZEE_SERVICE_MAX_REQUEST_BYTES"

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
            yield b'{"query": "'
            for _ in range(10):
                yield b"q" * 500
            yield b'", "response": "r"}'

        refused(c.post("/api/verify", content=chunks(), headers={"content-type": "application/json"}), 413)
        assert fake.calls == 0
        still_serving(c)


def test_token_is_required_on_api_but_not_healthz(tmp_path: Path) -> None:
    app, _ = fake_app(tmp_path, token="s3cret")
    with TestClient(app) as c:
        refused(c.post("/api/verify", json=PAIR), 401, "Authorization: Bearer")
        refused(c.post("/api/verify", json=PAIR, headers={"Authorization": "Bearer nope"}), 401)
        refused(c.get("/api/batch", headers={"Authorization": "Basic s3cret"}), 401)
        assert c.get("/healthz").status_code == 200
        still_serving(c, {"Authorization": "Bearer s3cret"})
        # the UI asks for the same token as its password
        assert c.get("/config").status_code == 401
        assert c.post("/login", data={"username": "me", "password": "nope"}).status_code != 200
        assert c.post("/login", data={"username": "me", "password": "s3cret"}).status_code == 200
        assert c.get("/config").status_code == 200


def test_binding_beyond_loopback_needs_a_token(tmp_path: Path) -> None:
    with pytest.raises(ServiceError, match="DROWZEE_API_TOKEN"):
        create_app(ServiceSettings(host="0.0.0.0", jobs_dir=tmp_path), make_checker=FakeChecker)
    create_app(ServiceSettings(host="0.0.0.0", token="t", jobs_dir=tmp_path), make_checker=FakeChecker)
    create_app(ServiceSettings(host="::1", jobs_dir=tmp_path), make_checker=FakeChecker)


def test_too_many_in_flight_is_429_and_slow_is_504(tmp_path: Path) -> None:
    release = threading.Event()
    app, fake = fake_app(tmp_path, FakeChecker(release), max_pending=1, request_timeout_s=0.3)
    with TestClient(app) as c:
        body = refused(c.post("/api/verify", json=PAIR), 504, "longer than 0.3 s")
        assert body["setting"] == "DROWZEE_SERVICE_REQUEST_TIMEOUT_S"
        # the timed-out pair still holds its slot until it finishes
        body = refused(c.post("/api/verify", json=PAIR), 429, "already running or queued")
        assert body["setting"] == "DROWZEE_SERVICE_MAX_PENDING"
        release.set()
        deadline = time.monotonic() + 10
        while fake.calls < 1 and time.monotonic() < deadline:
            time.sleep(0.02)
        time.sleep(0.05)
        still_serving(c)


def upload(c: TestClient, name: str, data: bytes, **form: str) -> Any:
    return c.post("/api/batch", files={"file": (name, data)}, data=form)


def test_batch_job_runs_reports_metrics_and_downloads(client: TestClient) -> None:
    rows = [{**PAIR, "id": "a", "label": "FACTUAL"}, {**WRONG, "id": "b", "label": "NON-FACTUAL"}, {"query": "q"}]
    data = "\n".join(json.dumps(r) for r in rows).encode() + b"\n\xff\xfe not text\n"
    r = upload(client, "pairs.jsonl", data)
    assert r.status_code == 202, r.text
    created = r.json()
    assert created["total"] == 4
    body = wait_done(client, created["id"])
    assert body["job"]["status"] == "done"
    assert body["done"] == 4
    assert body["counts"]["FACTUAL"] == 1 and body["counts"]["NON-FACTUAL"] == 1 and body["counts"]["error"] == 2
    assert body["metrics"]["rows"] == 2
    assert body["decisions"] == {"supported": 1, "refuted": 1}
    per_decision = body["metrics"]["decisions"]
    assert per_decision["coverage"]["value"] == 1.0 and per_decision["accuracy"]["decided"]["verifier"]["n"] == 2
    assert set(per_decision["accuracy"]["all"]) == {"verifier", "always_factual", "always_non_factual"}
    errors = sorted(rec["error"] for rec in body["results"] if "error" in rec)
    assert errors[0].startswith("pairs.jsonl:3: missing field") and errors[1].startswith("pairs.jsonl:4: not UTF-8")
    dl = client.get(created["results_url"])
    assert dl.status_code == 200
    assert dl.headers["x-drowzee-job-status"] == "done"
    assert sorted(json.loads(line)["row"] for line in dl.text.splitlines()) == [1, 2, 3, 4]
    page = client.get(f"/api/batch/{created['id']}?offset=1&limit=2").json()
    assert len(page["results"]) == 2 and page["next_offset"] == 3
    assert [j["id"] for j in client.get("/api/batch").json()] == [created["id"]]


def test_batch_csv_with_a_column_map(client: TestClient) -> None:
    data = b"question,answer,gold\nWhat is the capital?,Paris is.,FACTUAL\nAnd?,Lyon is.,NON-FACTUAL\n"
    r = upload(client, "pairs.csv", data, columns="query=question,response=answer,label=gold")
    assert r.status_code == 202, r.text
    body = wait_done(client, r.json()["id"])
    assert body["done"] == 2
    assert (body["counts"]["FACTUAL"], body["counts"]["NON-FACTUAL"]) == (1, 1)
    assert body["metrics"]["verifier"]["acc"]["value"] == 1.0
    assert {b["name"] for b in body["metrics"]["baselines"]} >= {"always NON-FACTUAL", "always FACTUAL"}


@pytest.mark.parametrize(
    ("name", "data", "form", "status", "words"),
    [
        ("pairs.csv", b"question,answer\nq,a\n", {}, 422, ("unknown column", "question, answer")),
        ("pairs.csv", b"q,a\nq,a\n", {"columns": "response=reply"}, 422, ("response=reply",)),
        ("pairs.jsonl", b"\xff\xfe\x00\x01binary\n\x80\x81\n", {}, 422, ("UTF-8",)),
        ("pairs.csv", b"\xff\xfeq,a\n", {}, 422, ("UTF-8",)),
        ("pairs.txt", b'{"response": "x"}\n', {}, 422, (".jsonl or .csv",)),
        ("pairs.jsonl", b"", {}, 422, ()),
        ("pairs.jsonl", b'{"response": "x"}\n', {"columns": "colour=x"}, 422, ("unknown field",)),
    ],
)
def test_unusable_uploads_are_refused(
    client: TestClient, name: str, data: bytes, form: dict[str, str], status: int, words: tuple[str, ...]
) -> None:
    refused(upload(client, name, data, **form), status, *words)
    assert client.get("/api/batch").json() == []
    still_serving(client)


def test_upload_and_row_limits_are_413(tmp_path: Path) -> None:
    app, _ = fake_app(tmp_path, max_upload_bytes=5_000, max_rows=3)
    with TestClient(app) as c:
        line = json.dumps(PAIR).encode() + b"\n"
        body = refused(upload(c, "big.jsonl", line * 200), 413, "5,000 bytes")
        assert body["setting"] == "DROWZEE_SERVICE_MAX_UPLOAD_BYTES"
        body = refused(upload(c, "rows.jsonl", line * 4), 413, "4 rows", "3")
        assert body["setting"] == "DROWZEE_SERVICE_MAX_ROWS"
        assert c.get("/api/batch").json() == []
        assert not list((tmp_path / "jobs" / "incoming").iterdir())
        assert upload(c, "ok.jsonl", line * 3).status_code == 202
        still_serving(c)


def test_unknown_job_ids_are_404(client: TestClient) -> None:
    for job in ("0123456789ab", "not-a-job", "..."):
        refused(client.get(f"/api/batch/{job}"), 404, "no batch job")
    assert client.get("/api/batch/..%2F..%2Fetc").status_code == 404
    refused(client.get("/api/batch/0123456789ab/results"), 404)


def test_unfinished_jobs_resume_after_a_restart(tmp_path: Path) -> None:
    release = threading.Event()
    app, _ = fake_app(tmp_path, FakeChecker(release), batch_concurrency=1)
    rows = b"".join(json.dumps({**PAIR, "id": str(i)}).encode() + b"\n" for i in range(6))
    with TestClient(app) as c:
        job = upload(c, "pairs.jsonl", rows).json()["id"]
        release.set()  # let rows through, then stop the server while the job may still run
    record = json.loads((tmp_path / "jobs" / "batch" / job / "job.json").read_text())
    app2, _ = fake_app(tmp_path)
    with TestClient(app2) as c2:
        body = wait_done(c2, job)
    assert record["status"] in ("running", "done")
    assert body["job"]["status"] == "done"
    lines = c2.get(f"/api/batch/{job}/results").text.splitlines()
    assert sorted(json.loads(x)["row"] for x in lines) == list(range(1, 7))


def test_settings_come_from_the_environment_and_name_the_bad_one(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DROWZEE_SERVICE_MAX_ROWS", "12")
    monkeypatch.setenv("DROWZEE_API_TOKEN", "from-env")
    s = ServiceSettings.load({"port": 9000})
    assert (s.max_rows, s.port, s.token_value()) == (12, 9000, "from-env")
    assert ServiceSettings.load({"max_rows": 5}).max_rows == 5  # explicit beats the environment
    monkeypatch.setenv("DROWZEE_SERVICE_WORKERS", "0")
    with pytest.raises(ServiceError, match="workers"):
        ServiceSettings.load()
