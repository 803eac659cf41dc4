"""The local server's logprobs with the real shipped Guardian adapter, and the Guardian node on them."""

from __future__ import annotations

import math
from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any

import pytest

from agents.verifier.nodes.guardian import TOP_LOGPROBS, guardian
from agents.verifier.settings import VerifierSettings
from drowzee_core.llm.launch import ensure_local_server, free_port, stop_server
from drowzee_core.llm.roles import RoleConfig, chat_model, load_role
from drowzee_core.records.enums import Label
from prompts import MODE_PROMPTS, render

pytestmark = [pytest.mark.integration, pytest.mark.slow]

QUERY = "What is the capital of France?"
RESPONSE = "Lyon is the capital of France."


@pytest.fixture(scope="module")
def guardian_role() -> Iterator[RoleConfig]:
    """The `guardian` role pointed at a private local server (the shipped adapter)."""
    port = free_port()
    proc = ensure_local_server(port=port)
    try:
        yield load_role("guardian", {"base_url": f"http://127.0.0.1:{port}/v1", "max_retries": 0})
    finally:
        if proc is not None:
            stop_server(proc)


def test_the_server_returns_top_logprobs_of_the_real_distribution(guardian_role: RoleConfig) -> None:
    llm = chat_model(guardian_role.model_copy(update={"max_tokens": 1}))
    prompt = render(MODE_PROMPTS["guardian"], query=QUERY, response=RESPONSE)
    reply = llm.bind(logprobs=True, top_logprobs=TOP_LOGPROBS).invoke(prompt)
    content = reply.response_metadata["logprobs"]["content"]
    assert len(content) == 1 and content[0]["token"] == reply.content  # one token, the generated one
    top = content[0]["top_logprobs"]
    probs = [math.exp(t["logprob"]) for t in top]
    assert len(top) == TOP_LOGPROBS and len({t["token"] for t in top}) == TOP_LOGPROBS
    assert probs == sorted(probs, reverse=True) and 0 < sum(probs) <= 1 + 1e-9
    assert top[0]["token"] == content[0]["token"]  # greedy: the generated token is the most probable
    assert content[0]["logprob"] == pytest.approx(top[0]["logprob"])
    assert llm.invoke(prompt).response_metadata.get("logprobs") is None  # only when asked for


def test_logprobs_stop_where_a_stop_string_cuts_the_answer(guardian_role: RoleConfig) -> None:
    llm = chat_model(guardian_role.model_copy(update={"model": "smollm2-135m", "max_tokens": 12}))
    reply = llm.bind(logprobs=True, top_logprobs=2, stop=[" France"]).invoke(QUERY)
    tokens = [t["token"] for t in reply.response_metadata["logprobs"]["content"]]
    assert "".join(tokens).strip() == str(reply.content).strip() and "France" not in "".join(tokens)
    assert all(len(t["top_logprobs"]) == 2 for t in reply.response_metadata["logprobs"]["content"])


def test_the_guardian_node_labels_from_the_label_tokens(guardian_role: RoleConfig) -> None:
    services = SimpleNamespace(
        chat=lambda role, max_tokens=None: chat_model(guardian_role.model_copy(update={"max_tokens": max_tokens})),
        role=lambda name: guardian_role,
    )
    ctx = SimpleNamespace(settings=VerifierSettings.load({}), services=services)
    state: Any = {"query": QUERY, "response": RESPONSE}
    (opinion,) = guardian(state, runtime=SimpleNamespace(context=ctx))["opinions"]  # type: ignore[arg-type]
    assert opinion.error is None and opinion.label in (Label.FACTUAL, Label.NON_FACTUAL)
    assert opinion.confidence is not None and 0.5 <= opinion.confidence <= 1.0
    assert "from the label tokens' probabilities" in opinion.explanation
