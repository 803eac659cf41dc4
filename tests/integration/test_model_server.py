"""The local OpenAI-compatible server with a real packaged model, through ChatOpenAI."""

import os
import socket

import pytest

from drowzee_core.llm.roles import chat_model, load_role
from drowzee_core.llm.server import ensure_local_server, healthy, stop_server
from drowzee_core.oracles.answers import parse_answer

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_local_server_answers_through_chat_openai() -> None:
    port = _free_port()
    proc = ensure_local_server(port=port)
    assert proc is not None and healthy(port=port)
    assert ensure_local_server(port=port) is None  # already up: not started twice
    llm = chat_model(load_role("target", {"base_url": f"http://127.0.0.1:{port}/v1", "model": "smollm2-135m",
                                          "max_tokens": 12}))
    reply = llm.invoke("Is Paris the capital of France? Answer Yes or No.")
    assert isinstance(reply.content, str) and reply.content.strip()
    assert reply.usage_metadata and reply.usage_metadata["output_tokens"] > 0
    assert parse_answer(reply.content).label in ("yes", "no", "unsure", None)
    with pytest.raises(Exception, match=r"unknown model|500|Internal"):
        chat_model(load_role("target", {"base_url": f"http://127.0.0.1:{port}/v1", "model": "nope",
                                        "max_retries": 0})).invoke("hi")
    stop_server(proc)
    assert proc.poll() is not None and not healthy(port=port)
    # the worker processes went with it: nothing is left in the server's process group
    with pytest.raises(ProcessLookupError):
        os.killpg(proc.pid, 0)
