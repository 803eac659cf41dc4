"""How the model server shapes a one-token answer from an ONNX export (a scripted export, no model)."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from drowzee_core.llm.next_token import NextTokenModel
from drowzee_core.llm.server import _one_token

VOCAB = ["<bos>", "FACT", "NON", " The", "\n"]


class Tokens:
    """A tokenizer over `VOCAB`: one token per word of the text, after a BOS."""

    def encode(self, text: str) -> Any:
        return type("Encoding", (), {"ids": [0, *([3] * len(text.split()))]})()

    def decode(self, ids: list[int], skip_special_tokens: bool = False) -> str:
        return "".join(VOCAB[i] for i in ids if not (skip_special_tokens and VOCAB[i].startswith("<")))


class Session:
    """Next-token logits that favour `best`."""

    def __init__(self, best: int) -> None:
        self.best = best

    def run(self, _outputs: Any, feeds: dict[str, Any]) -> list[Any]:
        logits = np.array([[0.0, 1.0, 0.5, -1.0, -2.0]], dtype=np.float32)
        logits[0, self.best] = 3.0
        return [logits]


def model(best: int = 1) -> NextTokenModel:
    return NextTokenModel(session=Session(best), tokenizer=Tokens(), manifest={})


def test_a_one_token_answer_carries_the_greedy_token_its_logprob_and_the_top_alternatives() -> None:
    answer = _one_token(model(), [{"role": "user", "content": "is it true"}], [], True, 3)
    assert answer["content"] == "FACT"
    assert (answer["prompt_tokens"], answer["completion_tokens"], answer["total_tokens"]) == (4, 1, 5)
    (entry,) = answer["logprobs"]["content"]
    assert entry["token"] == "FACT" and entry["bytes"] == list(b"FACT")
    assert [t["token"] for t in entry["top_logprobs"]] == ["FACT", "NON", "<bos>"]  # alternatives: most probable first
    assert entry["logprob"] == entry["top_logprobs"][0]["logprob"] < 0
    assert math.isclose(sum(math.exp(x) for x in model().next_logprobs([0, 3])), 1.0)


def test_logprobs_only_when_asked_and_no_alternatives_when_none_are_asked() -> None:
    assert "logprobs" not in _one_token(model(), [{"role": "user", "content": "x"}], [], False, 0)
    (entry,) = _one_token(model(), [{"role": "user", "content": "x"}], [], True, 0)["logprobs"]["content"]
    assert entry["top_logprobs"] == []


def test_a_stop_string_that_cuts_the_token_away_leaves_no_logprob_entry() -> None:
    cut = _one_token(model(best=4), [{"role": "user", "content": "x"}], ["\n"], True, 2)
    assert cut["content"] == "" and cut["logprobs"]["content"] == []
    kept = _one_token(model(best=2), [{"role": "user", "content": "x"}], ["ON"], True, 2)
    assert kept["content"] == "N" and kept["logprobs"]["content"][0]["token"] == "NON"  # as the torch path keeps it
