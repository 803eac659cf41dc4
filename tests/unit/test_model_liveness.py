"""Liveness of the model server and its clients, with a tiny fake model behind the real server plumbing.

The worker is killed in the middle of a run, then stalled: each run ends within the role's timeout with
the error (or all its answers), nothing is lost, and a re-run asks only what was not answered.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest

from drowzee_core.llm.deadline import BREAKER, ModelTimeoutError
from drowzee_core.llm.launch import free_port, healthy
from drowzee_core.llm.roles import RoleConfig, chat_model, load_role
from drowzee_core.llm.runner import AnswerCache, role_identity, run_cases
from drowzee_core.records.provenance import provenance

pytestmark = pytest.mark.slow
META = provenance("run-llm", {"test": True})
ROOT = Path(__file__).resolve().parents[2]


class FakeServer:
    """`tests.fake_model_server` in its own process group."""

    def __init__(self, tmp: Path, *extra: str) -> None:
        self.port = free_port()
        self.flag = tmp / "stall"
        env = os.environ | {"DROWZEE_CACHE": str(tmp), "FAKE_STALL_FLAG": str(self.flag), "PYTHONPATH": str(ROOT)}
        self.log = tmp / "server.out"
        with self.log.open("wb") as out:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "tests.fake_model_server", "--port", str(self.port), *extra],
                stdout=out,
                stderr=subprocess.STDOUT,
                env=env,
                cwd=ROOT,
                start_new_session=True,
            )
        wait_for(lambda: healthy(port=self.port), 60, f"the fake server did not start: {self.log}")

    def ask(self, prompt: str, timeout: float = 30) -> httpx.Response:
        body = {"model": "fake", "messages": [{"role": "user", "content": prompt}]}
        return httpx.post(f"http://127.0.0.1:{self.port}/v1/chat/completions", json=body, timeout=timeout)

    def worker_pid(self) -> int:
        return int(self.ask("pid").json()["choices"][0]["message"]["content"])

    def children(self) -> list[int]:
        return [pid for pid in all_pids() if parent_of(pid) == self.proc.pid]

    def role(self, **values: object) -> RoleConfig:
        return load_role("target", {"base_url": f"http://127.0.0.1:{self.port}/v1", "model": "fake", **values})


def all_pids() -> list[int]:
    return [int(p) for p in os.listdir("/proc") if p.isdigit()]


def parent_of(pid: int) -> int | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return int(stat.rsplit(")", 1)[1].split()[1])


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_for(check: Callable[[], bool], seconds: float, message: str) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.2)
    raise AssertionError(message)


@pytest.fixture
def server(tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[FakeServer]:
    if not sys.platform.startswith("linux"):
        pytest.skip("reads /proc")
    BREAKER.reset()
    srv = FakeServer(tmp_path, *getattr(request, "param", ()))
    try:
        yield srv
    finally:
        srv.flag.unlink(missing_ok=True)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(srv.proc.pid, signal.SIGKILL)
        srv.proc.wait(timeout=10)
        BREAKER.reset()


def test_a_killed_worker_fails_its_request_at_once_and_is_restarted(server: FakeServer) -> None:
    worker = server.worker_pid()
    threading.Timer(1.0, os.kill, args=(worker, signal.SIGKILL)).start()
    started = time.monotonic()
    reply = server.ask("slow")
    assert time.monotonic() - started < 5
    assert reply.status_code == 503
    assert f"pid {worker}" in reply.text and "model-server.log" in reply.text  # says what died and where to look
    wait_for(lambda: healthy(port=server.port), 30, "the worker was not restarted")
    assert server.worker_pid() != worker


def test_health_reports_a_dead_worker(server: FakeServer) -> None:
    os.kill(server.worker_pid(), signal.SIGKILL)
    time.sleep(0.1)
    assert httpx.get(f"http://127.0.0.1:{server.port}/health", timeout=5).status_code == 503


def test_a_run_loses_nothing_when_the_worker_is_killed_in_the_middle(server: FakeServer, tmp_path: Path) -> None:
    cfg = server.role(timeout=20, max_retries=2)
    client = chat_model(cfg)
    cases = [{"id": f"c{i}", "prompt": p} for i, p in enumerate(["a", "slow", "b", "c"])]
    threading.Timer(1.0, os.kill, args=(server.worker_pid(), signal.SIGKILL)).start()
    cache = AnswerCache(tmp_path / "answers.sqlite")
    stats = run_cases(cases, client, role_identity(cfg, client), "fake", cache, tmp_path / "a.jsonl", META, 1)
    assert (stats.called, stats.failed) == (4, 0)  # the killed call was retried on the new worker


def test_a_stalled_model_ends_the_run_within_the_timeout_and_a_rerun_continues(
    server: FakeServer, tmp_path: Path
) -> None:
    cfg = server.role(timeout=2, max_retries=2)
    client = chat_model(cfg)
    identity = role_identity(cfg, client)
    cases = [{"id": f"c{i}", "prompt": f"question {i}"} for i in range(6)]
    cache = AnswerCache(tmp_path / "answers.sqlite")
    out = tmp_path / "a.jsonl"
    first = run_cases(cases[:2], client, identity, "fake", cache, out, META, 2)
    assert first.called == 2
    server.flag.touch()  # the model stalls from now on
    started = time.monotonic()
    stalled = run_cases(cases, client, identity, "fake", cache, out, META, 2)
    assert time.monotonic() - started < 2 + 2  # one timeout, not one per case (or per retry)
    assert (stalled.cached, stalled.failed) == (2, 4)
    assert "within 2 s" in stalled.errors[0]
    with pytest.raises(ModelTimeoutError, match="not calling it again"):
        client.invoke("question 9")
    server.flag.unlink()  # the model is back; a re-run asks only the unanswered cases
    time.sleep(2)
    again = run_cases(cases, client, identity, "fake", cache, out, META, 2)
    assert (again.cached, again.called, again.failed) == (2, 4, 0)
    assert len(out.read_text().splitlines()) == 6


def test_the_server_children_die_with_it(server: FakeServer) -> None:
    worker = server.worker_pid()
    children = server.children()
    assert worker in children and len(children) >= 2  # the worker and litserve's manager; no uvicorn child
    os.kill(server.proc.pid, signal.SIGKILL)
    server.proc.wait(timeout=5)
    wait_for(lambda: not any(alive(c) for c in children), 10, f"children {children} outlived the server")


def test_sigterm_stops_the_server_and_its_workers(server: FakeServer) -> None:
    children = server.children()
    os.kill(server.proc.pid, signal.SIGTERM)  # the server process only, not its group
    assert server.proc.wait(timeout=15) is not None
    wait_for(lambda: not any(alive(c) for c in children), 10, f"children {children} outlived the server")


def test_a_benchmark_against_a_stalled_model_stops_with_a_clear_error_and_resume_continues(
    server: FakeServer, tmp_path: Path
) -> None:
    from agents.loop import LoopConfig, LoopError, finished_nodes, run_loop
    from agents.loop.context import Target
    from tests.unit.loop_fakes import Fakes

    cfg = server.role(timeout=2, max_retries=2)
    client = chat_model(cfg)
    fakes, out = Fakes(tmp_path), tmp_path / "run"
    fakes.target = lambda _cfg: Target(client, role_identity(cfg, client), "fake")  # type: ignore[method-assign,assignment]
    loop_cfg = LoopConfig(generator="drowzee-qa", n=6, target="target", evidence="facts")
    server.flag.touch()
    started = time.monotonic()
    with pytest.raises(LoopError, match=r"6 of 6 calls to fake failed .*within 2 s.*--resume"):
        run_loop(loop_cfg, fakes.context(out))
    assert time.monotonic() - started < 2 + 3
    assert finished_nodes(out) == ["generate"]
    server.flag.unlink()
    BREAKER.reset()  # as in the new process that `--resume` starts
    values = run_loop(loop_cfg, fakes.context(out))
    assert values["finished"][-1] == "report" and fakes.generated == 1
    assert len((out / "answers.jsonl").read_text().splitlines()) == 6


def test_a_batch_against_a_stalled_guardian_gives_degraded_verdicts_within_the_timeout(
    server: FakeServer, tmp_path: Path
) -> None:
    from agents.batch.engine import run_batch
    from tests.unit.test_verifier_graph import _verifier

    verifier = _verifier(guardian=lambda: chat_model(server.role(timeout=2, max_retries=2)))
    rows: list[tuple[str, object]] = [
        (f"in:{i}", {"id": f"r{i}", "query": "What is the capital of France?", "response": "Lyon is."})
        for i in range(4)
    ]
    server.flag.touch()
    started = time.monotonic()
    counts = run_batch(rows, tmp_path / "out.jsonl", verifier.verify)
    assert time.monotonic() - started < 2 + 5
    assert counts["degraded"] == 4 and counts["error"] == 0  # every row has a verdict; none is lost
    records = [json.loads(x) for x in (tmp_path / "out.jsonl").read_text().splitlines()]
    reasons = [r for rec in records for r in rec["verdict"]["degraded_reasons"]]
    assert any("within 2 s" in r for r in reasons)
    verifier.close()


def test_a_server_whose_worker_restarts_is_reused_not_started_again(
    server: FakeServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from drowzee_core.llm.launch import ensure_local_server, health_status

    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path))
    os.kill(server.worker_pid(), signal.SIGKILL)
    time.sleep(0.1)
    assert health_status(port=server.port) == 503
    assert ensure_local_server(port=server.port) is None  # no second server fighting for the port


@pytest.mark.parametrize("server", [("--max-restarts", "0")], indirect=True)
def test_past_its_restarts_the_server_refuses_model_requests_at_once(server: FakeServer) -> None:
    worker = server.worker_pid()
    held: list[httpx.Response] = []
    asks = [threading.Thread(target=lambda p=p: held.append(server.ask(p))) for p in ("slow", "queued")]
    for ask in asks:
        ask.start()
        time.sleep(0.3)
    os.kill(worker, signal.SIGKILL)
    for ask in asks:
        ask.join(timeout=5)
    assert [r.status_code for r in held] == [503, 503]  # the request it held and the one queued behind it
    assert all("not restarted" in r.text for r in held)
    started = time.monotonic()
    refused = server.ask("later")
    assert refused.status_code == 503 and time.monotonic() - started < 2
    assert "not restarted" in refused.text and "model-server.log" in refused.text
    assert not healthy(port=server.port)


def test_an_async_call_to_a_stalled_model_ends_at_the_timeout(server: FakeServer) -> None:
    import asyncio

    client = chat_model(server.role(timeout=2, max_retries=2))
    server.flag.touch()
    started = time.monotonic()
    with pytest.raises(ModelTimeoutError, match="within 2 s"):
        asyncio.run(client.ainvoke("question"))
    assert time.monotonic() - started < 2 + 1
