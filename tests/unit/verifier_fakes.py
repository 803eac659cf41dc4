"""Scripted fakes shared by the verifier and call-cache tests: a chat model, a counting judge, a reader."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from drowzee_core.records.enums import Label
from drowzee_core.records.judge import JudgeScore, Support
from drowzee_core.records.verdict import Decision


def decided(label: Label) -> Decision:
    """The decision a fake verdict with this label reports (supported or refuted)."""
    return Decision.SUPPORTED if label == Label.FACTUAL else Decision.REFUTED


class ScriptedChat(BaseChatModel):
    """Answers from a script with token usage; raises when `fail` (a model that must not be called)."""

    model: str = "scripted"
    replies: list[str] = Field(default_factory=lambda: ["FACTUAL"])
    prompts: list[str] = Field(default_factory=list)
    fail: bool = False

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": self.model}

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None, **kwargs: Any) -> ChatResult:
        if self.fail:
            raise AssertionError(f"model {self.model} was called on a cached prompt")
        text = self.replies[len(self.prompts) % len(self.replies)]
        self.prompts.append(str(messages[-1].content))
        usage = {"input_tokens": 12, "output_tokens": 1, "total_tokens": 13}
        message = AIMessage(content=text, usage_metadata=usage, response_metadata={"token_usage": {"x": 1}})  # type: ignore[arg-type]
        return ChatResult(generations=[ChatGeneration(message=message)])


class CountingJudge:
    """Scores every input (P = response length / 100), counting batches and tokens; raises when `fail`."""

    threshold = 0.5

    def __init__(self, fail: bool = False) -> None:
        self.batches: list[list[Any]] = []
        self.input_tokens = 0
        self.fail = fail

    def score(self, inputs: Sequence[Any]) -> list[JudgeScore]:
        if self.fail:
            raise AssertionError("the judge was called on cached inputs")
        self.batches.append(list(inputs))
        self.input_tokens += 10 * len(inputs)
        return [JudgeScore(p_supported=len(r) / 100, decision=Support.SUPPORTED, best_chunk=0) for _, r, _ in inputs]


class EmptyStore:
    """A KB store that knows no name (the readers ask it whether a sentence's subject is one)."""

    def resolve(self, text: str, limit: int = 20) -> list[int]:
        return []


class FakeSentenceReader:
    """The semantic reader of a unit test: reads no sentence."""

    def with_labels(self, labels: Sequence[str]) -> None:
        return None

    def read_one(
        self, sentence: str, known: Any, previous: str | None = None, answer: Any = None, lexicon: Any = None
    ) -> list[Any]:
        return []

    def answers_of(self, response: str, known: Any, question: str = "") -> list[Any]:
        return []

    def learned(self, sentence: str, known: Any, typed: Any, previous: str | None = None) -> list[Any]:
        return []

    def measured(self, sentence: str, known: Any, typed: Any, previous: str | None = None) -> list[Any]:
        return []

    def counted(self, sentence: str, known: Any, typed: Any, previous: str | None = None) -> list[Any]:
        return []

    def compared(self, sentence: str, known: Any, lexicon: Any) -> None:
        return None

    def described(self, sentence: str, known: Any, objects: Any) -> tuple[str, list[Any]]:
        return sentence, []

    def ask(
        self,
        question: str,
        known: Any,
        lexicon: Any,
        triples: Any,
        typed: Any = None,
        previous: Any = None,
        least: float = 0.0,
    ) -> list[Any]:
        return []

    def topic(self, query: str, known: Any, response: str = "") -> None:
        return None

    def describes(self, name: str, noun: str) -> bool:
        return False

    def pair(self, query: str, known: Any) -> None:
        return None

    def each_named(self, sentence: str, known: Any) -> list[str]:
        return []


class FakeReader:
    """Reads nothing through templates; splits sentences on periods."""

    def with_query(self, query: str, response: str, topic: str | None = None) -> list[Any]:
        return []

    def read(self, text: str, topic: str | None = None) -> list[Any]:
        return []

    def sentences(self, text: str) -> list[tuple[tuple[int, int], str]]:
        return [((m.start(), m.end()), m.group()) for m in re.finditer(r"[^.]+\.?", text) if m.group().strip()]
