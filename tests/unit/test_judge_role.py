"""The `judge` role: defaults, the LLM judge's label-token probability, config validation."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import AIMessage

import drowzee_core.llm.judge.scoring as judge_mod
from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.judge import LLMJudge, judge_for, label_probability
from drowzee_core.llm.judge.cross_encoder import LoraSpec
from drowzee_core.llm.roles import LOCAL_BASE_URL, load_role
from drowzee_core.records.judge import Support
from finetune.judge.train import JudgeTrainConfig


def test_judge_role_defaults_to_the_local_cross_encoder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path))
    monkeypatch.delenv("DROWZEE_ROLES", raising=False)
    cfg = load_role("judge")
    assert (cfg.base_url, cfg.model) == (LOCAL_BASE_URL, "judge")
    monkeypatch.setenv("DROWZEE_JUDGE_BASE_URL", "http://gpu-box:8000/v1")
    assert load_role("judge").model == "judge" and not load_role("judge").is_local


def test_label_probability() -> None:
    top = [("SUP", math.log(0.6)), ("NOT", math.log(0.2)), ("The", math.log(0.2))]
    assert label_probability(top) == pytest.approx(0.75)
    assert label_probability([(" supported", 0.0)]) == 1.0
    with pytest.raises(DrowzeeError, match="no label"):
        label_probability([("Maybe", 0.0)])


class FakeBound:
    def __init__(self, answers: list[list[tuple[str, float]]]) -> None:
        self.answers = answers
        self.prompts: list[str] = []

    def invoke(self, prompt: str) -> AIMessage:
        self.prompts.append(prompt)
        top = [{"token": t, "logprob": lp} for t, lp in self.answers.pop(0)]
        return AIMessage(
            content="x", response_metadata={"logprobs": {"content": [{"token": "x", "top_logprobs": top}]}}
        )


class FakeChat:
    def __init__(self, bound: FakeBound) -> None:
        self.bound = bound
        self.kwargs: dict[str, Any] = {}

    def bind(self, **kwargs: Any) -> FakeBound:
        self.kwargs = kwargs
        return self.bound


def test_llm_judge_scores_by_label_logprob(monkeypatch: pytest.MonkeyPatch) -> None:
    bound = FakeBound([[("SUPPORTED", math.log(0.9)), ("NOTSUPPORTED", math.log(0.1))], [("NOT", 0.0)]])
    chat = FakeChat(bound)
    monkeypatch.setattr(judge_mod, "chat_model", lambda cfg, **kw: chat)
    cfg = load_role("judge", {"base_url": "http://gpu-box:8000/v1", "model": "gpt-x"})
    judge = judge_for(cfg)
    assert isinstance(judge, LLMJudge) and chat.kwargs == {"logprobs": True, "top_logprobs": 10}
    scores = judge.score([("Capital of France?", "Paris", ["Paris is the capital of France."]), ("", "x", "y")])
    assert scores[0].p_supported == pytest.approx(0.9) and scores[0].decision == Support.SUPPORTED
    assert scores[1].p_supported == 0.0 and scores[1].decision == Support.NOT_SUPPORTED
    assert "Paris is the capital of France." in bound.prompts[0] and "(none)" in bound.prompts[1]


def test_train_config_validation() -> None:
    with pytest.raises(DrowzeeError, match="`batch_size` must be in"):
        JudgeTrainConfig(batch_size=0)
    with pytest.raises(DrowzeeError, match="`max_minutes` must be > 0"):
        JudgeTrainConfig(max_minutes=0)
    with pytest.raises(DrowzeeError, match="`first_layer` must be in"):
        LoraSpec(first_layer=6)


def test_local_judge_refuses_a_folder_without_manifest(tmp_path: Path) -> None:
    (tmp_path / "adapter_config.json").write_text("{}")
    with pytest.raises(DrowzeeError, match=r"judge_manifest\.json"):
        judge_mod.LocalJudge(tmp_path)
