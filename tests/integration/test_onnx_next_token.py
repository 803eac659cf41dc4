"""The Guardian's one-token ONNX export: the same answers as torch, served by the local server."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from agents.verifier.nodes.guardian import TOP_LOGPROBS
from drowzee_core.llm.launch import ensure_local_server, free_port, server_log, stop_server
from drowzee_core.llm.local import Adapter, find_adapters, load_base, render_messages
from drowzee_core.llm.next_token import MAX_LOGPROB_DIFF, NextTokenModel, find_export
from drowzee_core.llm.onnx_export import _served, export_next_token
from drowzee_core.llm.roles import chat_model, load_role
from prompts import MODE_PROMPTS, render

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PAIRS = [
    ("What is the capital of France?", "Lyon is the capital of France."),
    ("Who wrote Hamlet?", "Hamlet was written by William Shakespeare around 1600."),
    ("", "The Danube flows into the Black Sea, and its delta lies mostly in Romania. " * 12),
]


@pytest.fixture(scope="module")
def guardian() -> Adapter:
    return find_adapters()["guardian"]


@pytest.fixture(scope="module")
def export(guardian: Adapter) -> Path:
    """The shipped Guardian's export (made here on a machine where `drowzee models export` has not run)."""
    return export_next_token(guardian)


def test_the_export_gives_the_served_torch_models_next_token_distribution(guardian: Adapter, export: Path) -> None:
    import torch

    exported = NextTokenModel.load(export)
    assert find_export(guardian) == export and exported.manifest["adapter_weights_sha256"]
    served = _served(guardian)
    _, tokenizer = load_base(guardian.base)
    for query, response in PAIRS:
        prompt = render(MODE_PROMPTS["guardian"], query=query, response=response)
        text = render_messages(tokenizer, [{"role": "user", "content": prompt}])
        ids = tokenizer(text)["input_ids"]
        assert exported.encode(text) == list(ids)
        with torch.inference_mode():
            reference = torch.log_softmax(served(input_ids=torch.tensor([ids])).logits[0, -1].double(), -1).numpy()
        got = exported.next_logprobs(list(ids))
        assert float(np.abs(got - reference).max()) <= MAX_LOGPROB_DIFF
        token, _, _, top, n_in = exported.answer(text, TOP_LOGPROBS)
        assert token == int(reference.argmax()) and n_in == len(ids)
        assert [t["token"] for t in top[:5]] == [exported.decode(int(i)) for i in np.argsort(-reference)[:5]]


@pytest.fixture(scope="module")
def server(export: Path) -> Iterator[tuple[int, int]]:
    """(port, where the server log stood before this server started)."""
    log = server_log()
    before = log.stat().st_size if log.exists() else 0
    port = free_port()
    proc = ensure_local_server(port=port)
    try:
        yield port, before
    finally:
        if proc is not None:
            stop_server(proc)


def test_the_server_answers_one_token_requests_from_the_export_and_longer_ones_with_torch(
    server: tuple[int, int],
) -> None:
    port, before = server
    role = load_role("guardian", {"base_url": f"http://127.0.0.1:{port}/v1", "max_retries": 0})
    prompt = render(MODE_PROMPTS["guardian"], query=PAIRS[0][0], response=PAIRS[0][1])
    one = chat_model(role.model_copy(update={"max_tokens": 1})).bind(logprobs=True, top_logprobs=3).invoke(prompt)
    two = chat_model(role.model_copy(update={"max_tokens": 2})).bind(logprobs=True, top_logprobs=3).invoke(prompt)
    with server_log().open("rb") as f:
        f.seek(before)
        assert b"one-token requests of guardian are answered from its ONNX export" in f.read()
    first_one = one.response_metadata["logprobs"]["content"][0]
    first_two = two.response_metadata["logprobs"]["content"][0]
    assert first_one["token"] == first_two["token"] and str(two.content).startswith(str(one.content))
    assert first_one["logprob"] == pytest.approx(first_two["logprob"], abs=MAX_LOGPROB_DIFF)
    assert [t["token"] for t in first_one["top_logprobs"]] == [t["token"] for t in first_two["top_logprobs"]]
    assert one.usage_metadata and one.usage_metadata["output_tokens"] == 1
