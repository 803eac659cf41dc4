"""The Truth Guardian's label from the label tokens' probabilities (scripted models with logprobs)."""

from __future__ import annotations

import math
from types import SimpleNamespace
from typing import Any

import pytest
from langchain_core.callbacks import CallbackManagerForLLMRun
from langchain_core.language_models import BaseChatModel
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from pydantic import Field

from agents.verifier.nodes.guardian import GuardianAnswerError, guardian, label_of_prefix, score_labels
from agents.verifier.settings import VerifierSettings
from drowzee_core.llm.logprobs import first_token_top, label_mass
from drowzee_core.llm.roles import RoleConfig
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import OpinionSource
from tests.unit.test_verifier_graph import REQ, _verifier

Top = list[tuple[str, float]]


def _top(probs: dict[str, float]) -> Top:
    return sorted(((t, math.log(p)) for t, p in probs.items()), key=lambda x: -x[1])


THE_ON_TOP = _top({"The": 0.5, "FACT": 0.1, " NON": 0.3, "Answer": 0.05, "Non": 0.05})
"""The generated token is "The", but the label tokens below it favour NON-FACTUAL 0.35 : 0.10."""


class LogprobChat(BaseChatModel):
    """Answers with one token and, unless `tops` holds None, OpenAI-style logprobs in `response_metadata`."""

    tops: list[Top | None] = Field(default_factory=list)
    calls: list[dict[str, Any]] = Field(default_factory=list)

    @property
    def _llm_type(self) -> str:
        return "logprob-scripted"

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: CallbackManagerForLLMRun | None = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.calls.append(kwargs)
        top = self.tops[(len(self.calls) - 1) % len(self.tops)]
        if top is None:
            message = AIMessage(content="NON")
        else:
            alts = [{"token": t, "logprob": lp, "bytes": list(t.encode())} for t, lp in top]
            first = {**alts[0], "top_logprobs": alts}
            message = AIMessage(content=top[0][0], response_metadata={"logprobs": {"content": [first]}})
        return ChatResult(generations=[ChatGeneration(message=message)])


def _run_node(chat: BaseChatModel) -> dict[str, Any]:
    services = SimpleNamespace(
        chat=lambda role, max_tokens=None: chat,
        role=lambda name: RoleConfig(role=name, model="fake-guardian", base_url="http://127.0.0.1:1/v1"),
    )
    ctx = SimpleNamespace(settings=VerifierSettings.load({}), services=services)
    return guardian({"query": REQ.query, "response": REQ.response}, runtime=SimpleNamespace(context=ctx))  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("token", "label"),
    [
        ("F", Label.FACTUAL),
        (" FACT", Label.FACTUAL),
        ("factual", Label.FACTUAL),
        ("Fact", Label.FACTUAL),
        ("N", Label.NON_FACTUAL),
        ("NO", Label.NON_FACTUAL),
        ("\nNon", Label.NON_FACTUAL),
        ("NON-", Label.NON_FACTUAL),
        ("NON-FACTUAL", Label.NON_FACTUAL),
        (" ", None),  # a prefix of both words
        ("", None),
        ("The", None),
        ("NOT", None),
        ("FACTS", None),
        ("FACTOR", None),
        ("NONSENSE", None),
        ("FALSE", None),
    ],
)
def test_a_token_names_a_label_when_it_begins_exactly_one_label_word(token: str, label: Label | None) -> None:
    assert label_of_prefix(token) == label


def test_the_label_comes_from_the_two_labels_mass_when_the_top_token_is_the() -> None:
    label, confidence, share = score_labels(THE_ON_TOP)
    assert label == Label.NON_FACTUAL
    assert confidence == pytest.approx(0.35 / 0.45)
    assert share == pytest.approx(0.45)
    assert label_mass(THE_ON_TOP, label_of_prefix) == pytest.approx({Label.FACTUAL: 0.1, Label.NON_FACTUAL: 0.35})


def test_a_tie_goes_to_non_factual() -> None:
    assert score_labels(_top({"FACT": 0.4, "NON": 0.4}))[:2] == (Label.NON_FACTUAL, 0.5)


def test_the_node_scores_the_label_tokens_and_asks_for_twenty_alternatives() -> None:
    chat = LogprobChat(tops=[THE_ON_TOP])
    (opinion,) = _run_node(chat)["opinions"]
    assert (opinion.source, opinion.label) == (OpinionSource.GUARDIAN, Label.NON_FACTUAL)
    assert opinion.confidence == pytest.approx(0.35 / 0.45)
    assert opinion.explanation.startswith("P(FACTUAL) 0.22 from the label tokens' probabilities")
    assert "top token 'The'" in opinion.explanation and opinion.error is None
    assert chat.calls[0]["logprobs"] is True and chat.calls[0]["top_logprobs"] == 20


def test_no_label_in_the_top_tokens_is_a_recorded_error() -> None:
    out = _run_node(LogprobChat(tops=[_top({"The": 0.6, "Answer": 0.3, "NOT": 0.1})]))
    (opinion,) = out["opinions"]
    assert opinion.label is None and opinion.error is not None
    assert "GuardianAnswerError" in opinion.error and "begin no label" in opinion.error
    assert out["degraded"] == [opinion.error]
    with pytest.raises(GuardianAnswerError, match="'NOT'"):
        score_labels(_top({"The": 0.6, "NOT": 0.1}))


def test_an_endpoint_without_logprobs_falls_back_to_the_generated_token_and_says_so() -> None:
    (opinion,) = _run_node(LogprobChat(tops=[None]))["opinions"]
    assert opinion.label == Label.NON_FACTUAL and opinion.confidence is None
    assert "first token 'NON'" in opinion.explanation and "no logprobs" in opinion.explanation


def test_first_token_top_reads_chat_openai_metadata() -> None:
    assert first_token_top({}) is None
    assert first_token_top({"logprobs": {"content": []}}) is None
    only = {"logprobs": {"content": [{"token": "FACT", "logprob": -0.1, "top_logprobs": []}]}}
    assert first_token_top(only) == [("FACT", -0.1)]  # no alternatives listed: the generated token alone


def test_the_graph_reports_the_guardians_scored_opinion() -> None:
    v = _verifier(guardian=lambda: LogprobChat(tops=[THE_ON_TOP]))
    verdict = v.verify(REQ)
    (opinion,) = [o for o in verdict.opinions if o.source == OpinionSource.GUARDIAN]
    assert opinion.label == Label.NON_FACTUAL and opinion.confidence == pytest.approx(0.777778, abs=1e-6)
    assert not any(r.startswith("guardian") for r in verdict.degraded_reasons)
    v.close()


def test_the_graph_still_reads_a_model_without_logprobs() -> None:
    v = _verifier(guardian=lambda: FakeListChatModel(responses=["FACT"]))
    (opinion,) = [o for o in v.verify(REQ).opinions if o.source == OpinionSource.GUARDIAN]
    assert opinion.label == Label.FACTUAL and "no logprobs" in opinion.explanation
    v.close()
