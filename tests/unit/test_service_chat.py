"""The Chat tab's inputs, streaming and model chat (`chat_model.py`, `target_chat.py`, `chat.py`) with fakes."""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from agents.verifier.runner import NodeEvent
from service.ui import chat
from service.ui.chat_model import (
    EXAMPLES,
    InputError,
    Progress,
    View,
    build_request,
    parse_evidence,
    stream_views,
)
from service.ui.target_chat import (
    message_text,
    plain_history,
    with_answer,
)
from tests.unit.render_fixtures import undecided, verdict


# ---------------------------------------------------------------------------------------------- inputs
def test_parse_evidence_forms() -> None:
    assert parse_evidence("  ") is None
    assert parse_evidence("Paris is in France.") == "Paris is in France."
    assert parse_evidence('["a", "b"]') == ["a", "b"]
    assert parse_evidence('[["Laufey", "part of", "Norse mythology"]]') == [["Laufey", "part of", "Norse mythology"]]
    assert parse_evidence("[1] Paris is in France.") == "[1] Paris is in France."
    assert parse_evidence('{"a": 1}') == '{"a": 1}'


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ('[["a", "b", "c"], ["d", "e"', "not valid JSON"),
        ('[["a", "b", "c", "d"]]', "not a triple"),
        ('[["a", "", "c"]]', "not a triple"),
        ('[["a", "b", 3]]', "Evidence item 1"),
        ('["ok", {"s": 1}]', "Evidence item 2"),
    ],
)
def test_malformed_triples_are_refused(text: str, says: str) -> None:
    with pytest.raises(InputError, match=says):
        parse_evidence(text)


def test_build_request_messages() -> None:
    with pytest.raises(InputError, match="Response"):
        build_request("q", "   ", None)
    with pytest.raises(InputError, match="Query: String should have at most"):
        build_request("q" * 30_000, "r", None)
    with pytest.raises(InputError, match="limit is"):
        build_request("q", "r", "[" + ",".join(['"x"'] * 201) + "]")
    request = build_request(*EXAMPLES[2])
    assert request.evidence == [
        ["Sainte-Chapelle", "located in", "Paris"],
        ["Notre-Dame de Paris", "located in", "Paris"],
    ]


def test_examples_are_valid_requests() -> None:
    for row in EXAMPLES:
        build_request(*row)


# ---------------------------------------------------------------------------------------------- streaming
def events() -> Iterator[NodeEvent]:
    yield NodeEvent("prepare", {"gathered": [], "supplied_triples": []})
    yield NodeEvent("claims", {"claims": []})
    yield NodeEvent("verdict_manager", {"verdict": verdict()})


def test_stream_views_end_with_the_verdict() -> None:
    views = list(stream_views(events(), "The capital of France is Lyon.", Progress(), "ev"))
    assert len(views) == 3
    assert views[0].verdict == "" and "prepare" in views[0].progress and "checking" in views[0].progress
    last = views[-1]
    assert "NON-FACTUAL" in last.verdict and "dz-claim-contradicted" in last.highlights
    assert "ev-E1" in last.evidence and "Prolog proof" in last.proofs and "KB check" in last.opinions
    assert "checking" not in last.progress


def test_an_undecided_verdict_streams_as_not_verified() -> None:
    events = iter([NodeEvent("verdict_manager", {"verdict": undecided()})])
    last = list(stream_views(events, "The capital of France is Lyon.", Progress(), "ev"))[-1]
    assert "Not verified" in last.verdict and "dz-undecided" in last.verdict and "lean: FACTUAL" in last.verdict
    assert "not verified (lean FACTUAL 0.58)" in last.progress
    assert "decided by" in last.highlights


def test_stream_without_verdict_says_so() -> None:
    views = list(stream_views(iter([NodeEvent("prepare", {})]), "r", Progress(), "ev"))
    assert "No verdict" in views[-1].verdict


class FakeRuntime:
    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.requests: list[Any] = []

    def health(self) -> dict[str, Any]:
        return {"verifier_loaded": True}

    def stream(self, request: Any) -> Iterator[NodeEvent]:
        self.requests.append(request)
        if self.fail:
            raise RuntimeError("Prolog died")
        return events()


def test_check_pair_streams_and_reports_failures() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        ok = list(chat.check_pair(FakeRuntime(), *EXAMPLES[0]))  # type: ignore[arg-type]
        bad = list(chat.check_pair(FakeRuntime(), "q", "r", '[["a", "b"'))  # type: ignore[arg-type]
        failed = list(chat.check_pair(FakeRuntime(fail=True), "q", "r", ""))  # type: ignore[arg-type]
    assert all(len(v) == len(View().values()) for v in ok)
    assert "NON-FACTUAL" in ok[-1][1]
    assert "Cannot check this input" in bad[-1][1] and "not valid JSON" in bad[-1][1]
    assert "The verifier failed" in failed[-1][1] and "Prolog died" in failed[-1][1]


def test_chat_turn_reports_an_unreachable_model(monkeypatch: pytest.MonkeyPatch) -> None:
    from service.ui import target_chat

    def refuse(messages: Any) -> Any:
        raise target_chat.TargetError("the target model could not answer: ConnectError: refused")

    monkeypatch.setattr(chat, "ask_target", refuse)
    monkeypatch.setattr(chat, "target_needs_start", lambda: False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = list(chat.chat_turn(FakeRuntime(), "Where is Paris?", []))  # type: ignore[arg-type]
    history, box, _progress, verdict_panel = out[-1][:4]
    assert history == [{"role": "user", "content": "Where is Paris?"}] and box == ""
    assert "could not answer" in verdict_panel and "ConnectError" in verdict_panel


def test_chat_turn_checks_the_answer(monkeypatch: pytest.MonkeyPatch) -> None:
    from service.ui import target_chat

    monkeypatch.setattr(chat, "ask_target", lambda m: target_chat.Answer("The capital of France is Lyon.", "m", 0.1))
    monkeypatch.setattr(chat, "target_needs_start", lambda: False)
    runtime = FakeRuntime()
    out = list(chat.chat_turn(runtime, "What is the capital of France?", []))  # type: ignore[arg-type]
    assert out[-1][0][-1] == {"role": "assistant", "content": "The capital of France is Lyon."}
    assert runtime.requests[0].query == "What is the capital of France?"
    assert "NON-FACTUAL" in out[-1][3] and "target" in out[-1][2]


def test_chat_messages() -> None:
    gradio_msg: dict[str, Any] = {"role": "user", "content": [{"type": "text", "text": "hi"}], "metadata": None}
    assert message_text(gradio_msg) == "hi"
    assert message_text({"role": "assistant", "content": "yo"}) == "yo"
    history: list[dict[str, Any]] = [
        gradio_msg,
        {"role": "system", "content": "x"},
        {"role": "assistant", "content": ""},
    ]
    assert plain_history(history) == [{"role": "user", "content": "hi"}]
    assert with_answer([], "a") == [{"role": "assistant", "content": "a"}]
