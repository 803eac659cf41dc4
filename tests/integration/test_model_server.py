"""The local OpenAI-compatible server with a real packaged model, through ChatOpenAI."""

import os
import subprocess
import sys
import time

import openai
import pytest

from drowzee_core.llm.launch import ensure_local_server, free_port, healthy, stop_server
from drowzee_core.llm.roles import chat_model, load_role
from drowzee_core.records.answer_text import parse_answer

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def test_local_server_answers_through_chat_openai() -> None:
    port = free_port()
    proc = ensure_local_server(port=port)
    assert proc is not None and healthy(port=port)
    assert ensure_local_server(port=port) is None  # already up: not started twice
    llm = chat_model(
        load_role("target", {"base_url": f"http://127.0.0.1:{port}/v1", "model": "smollm2-135m", "max_tokens": 12})
    )
    # SmolLM2-135M-Instruct, greedy (temperature 0): it knows this one
    reply = llm.invoke("What is the capital of France?")
    assert isinstance(reply.content, str) and "Paris" in reply.content
    assert reply.usage_metadata and 0 < reply.usage_metadata["output_tokens"] <= 12  # max_tokens is honoured
    # a yes/no question gets a parseable, right answer, and greedy decoding repeats it exactly
    question = "Is Berlin the capital of France? Answer Yes or No."
    first = llm.invoke(question).content
    assert isinstance(first, str) and parse_answer(first).label == "no"
    assert llm.invoke(question).content == first
    with pytest.raises(openai.NotFoundError, match="404"):
        chat_model(
            load_role("target", {"base_url": f"http://127.0.0.1:{port}/v1", "model": "nope", "max_retries": 0})
        ).invoke("hi")
    stop_server(proc)
    assert proc.poll() is not None and not healthy(port=port)
    # the worker processes went with it: nothing is left in the server's process group
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)


def test_a_stop_at_exit_returns_once_the_server_is_gone_and_its_group_follows() -> None:
    port = free_port()
    proc = ensure_local_server(port=port)
    assert proc is not None
    stop_server(proc, wait_for_group=False)
    assert proc.poll() is not None and not healthy(port=port)
    deadline = time.monotonic() + 10
    with pytest.raises(ProcessLookupError):  # its workers were stopped by it; the resource tracker follows
        while time.monotonic() < deadline:
            os.killpg(proc.pid, 0)
            time.sleep(0.2)


def test_server_stops_when_its_starter_is_killed() -> None:
    """A starter killed without running its exit handlers (SIGKILL) does not leave the server behind."""
    port = free_port()
    code = (
        "import time; from drowzee_core.llm.launch import ensure_local_server; "
        f"ensure_local_server(port={port}); print('up', flush=True); time.sleep(600)"
    )
    starter = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE)
    try:
        assert starter.stdout is not None and starter.stdout.readline().strip() == b"up"
        assert healthy(port=port)
    finally:
        starter.kill()
        starter.wait()
    deadline = time.monotonic() + 30
    while healthy(port=port) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not healthy(port=port)


def test_a_second_user_keeps_the_server_when_its_starter_leaves() -> None:
    """A server another drowzee process started stays up while this one still uses it, then stops."""
    from drowzee_core.llm.leases import live_leases, release_lease

    port = free_port()
    code = (
        "import sys; from drowzee_core.llm.launch import ensure_local_server; "
        f"ensure_local_server(port={port}); print('up', flush=True); sys.stdin.readline()"
    )
    starter = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert starter.stdout is not None and starter.stdout.readline().strip() == b"up"
        assert ensure_local_server(port=port) is None  # reused, and leased by this process
        assert sorted(live_leases(port)) == sorted([starter.pid, os.getpid()])
        assert starter.stdin is not None
        starter.stdin.write(b"\n")
        starter.stdin.flush()
        assert starter.wait(timeout=60) == 0  # a clean exit: its exit handler ran and left the server up
    finally:
        starter.kill()
    time.sleep(6)  # a few of the server's lease checks
    assert healthy(port=port)
    release_lease(port)  # this process is done with it
    deadline = time.monotonic() + 30
    while healthy(port=port) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not healthy(port=port)


def test_a_killed_worker_is_restarted_and_the_call_retried() -> None:
    """The real model: the worker killed mid-call; the call is answered by the new worker (issue 56)."""
    import signal
    import threading
    from pathlib import Path

    from drowzee_core.llm.launch import server_log

    port = free_port()
    proc = ensure_local_server(port=port)
    assert proc is not None
    try:
        llm = chat_model(
            load_role("target", {"base_url": f"http://127.0.0.1:{port}/v1", "model": "smollm2-135m", "max_tokens": 12})
        )
        assert "Paris" in str(llm.invoke("What is the capital of France?").content)  # the model is loaded

        def workers() -> list[int]:
            pids = [int(p) for p in os.listdir("/proc") if p.isdigit()]
            found = []
            for pid in pids:
                try:
                    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
                    cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
                except OSError:
                    continue
                if int(stat[1]) == proc.pid and b"spawn_main" in cmd:
                    found.append(pid)
            return found

        (worker,) = workers()
        threading.Timer(0.3, os.kill, args=(worker, signal.SIGKILL)).start()
        started = time.monotonic()
        long = chat_model(
            load_role("target", {"base_url": f"http://127.0.0.1:{port}/v1", "model": "smollm2-135m", "max_tokens": 256})
        )
        reply = long.invoke("Write a long story about the capital of France.")
        assert isinstance(reply.content, str) and reply.content  # retried on the restarted worker
        assert 0.3 < time.monotonic() - started < 120  # the kill came during the call
        assert f"(pid {worker}) died with exit code -9" in server_log().read_text()  # the log says what happened
        assert workers() and worker not in workers()
    finally:
        stop_server(proc)
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)
