"""Prompt-prefix reuse in the local model server gives the logprobs of the full computation, on the real Guardian."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from drowzee_core.llm import server
from drowzee_core.llm.roles import load_role
from drowzee_core.llm.server import ModelAPI
from prompts import MODE_PROMPTS, render

pytestmark = pytest.mark.integration

PAIRS = [
    ("What is the time zone of Shelton?", "Shelton is in the time zone America/New_York."),
    ("Who wrote the play about the prince of Denmark?", "It was written by a poet from Stratford in 1601."),
    ("Is the Danube longer than the Rhine?", "No, the Rhine is longer."),
]


def request(model: str, query: str, response: str) -> Any:
    prompt = render(MODE_PROMPTS["guardian"], query=query, response=response)
    return SimpleNamespace(
        model=model,
        messages=[SimpleNamespace(role="user", content=prompt)],
        max_tokens=1,
        max_completion_tokens=None,
        stop=None,
        logprobs=True,
        top_logprobs=20,
    )


def answers(api: ModelAPI, model: str) -> list[list[tuple[str, float]]]:
    got = []
    for query, response in PAIRS:
        (answer,) = list(api.predict(request(model, query, response)))
        got.append([(t["token"], t["logprob"]) for t in answer["logprobs"]["content"][0]["top_logprobs"]])
    return got


def test_reused_prefixes_give_the_same_logprobs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(server, "die_with_parent", lambda: None)  # this is the test process, not a worker
    model = load_role("guardian").model
    api = ModelAPI()
    api.setup("cpu")
    api.one_token.clear()  # the torch path, whose cache this is (an ONNX export would answer one token)
    full = answers(api, model)
    cache = api.prefix_caches[model]
    assert cache.reused_tokens >= 2 * 100  # the 2nd and 3rd prompts start from the instruction's cache
    cache.min_shared = 10**9  # the same prompts, computed in full
    cache.reused_tokens = 0
    again = answers(api, model)
    assert cache.reused_tokens == 0
    for reused, computed in zip(full, again, strict=True):
        assert [t for t, _ in reused] == [t for t, _ in computed]
        assert [p for _, p in reused] == pytest.approx([p for _, p in computed], abs=1e-4)
