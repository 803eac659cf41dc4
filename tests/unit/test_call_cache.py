"""The call cache: chat calls through LangChain's cache path, judge scores and memoised proofs.

Scripted fakes only (no network, no Prolog, no model); a whole verification run twice is in
`test_call_cache_verifier.py`.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from langchain_openai import ChatOpenAI

from agents.verifier.accounting import CACHE_HIT, CallRecorder, RoleUsage, UsageHandler
from agents.verifier.cache import CachingJudge, RoleCache, default_cache_path, memo, stable_llm_string
from drowzee_core.llm.roles import RoleConfig
from drowzee_core.records.judge import JudgeScore, Support
from drowzee_core.records.verdict import ModelRef
from drowzee_core.retrieval.cache import JsonCache
from tests.unit.verifier_fakes import CountingJudge, ScriptedChat

pytestmark = pytest.mark.filterwarnings("ignore:The function `load` is in beta")

REMOTE = "https://api.example.com/v1"
REF = ModelRef(model="guardian", base_url=REMOTE, adapter_sha256="a" * 64)


def _client(store: JsonCache | None, rec: CallRecorder, ref: ModelRef = REF, **kw: Any) -> ScriptedChat:
    cfg = RoleConfig(role="guardian", model="guardian", base_url=REMOTE, input_price=1.0, output_price=4.0)
    cache = RoleCache(store, "guardian", ref, rec) if store is not None else False
    return ScriptedChat(cache=cache, callbacks=[UsageHandler(cfg, rec)], **kw)


def test_a_cached_chat_call_is_not_called_again_nor_counted_as_tokens() -> None:
    store, rec = JsonCache(":memory:"), CallRecorder()
    first = _client(store, rec)
    a = first.invoke("Is Paris in France?")
    again = _client(store, rec, fail=True)
    b = again.invoke("Is Paris in France?")
    assert b.content == a.content == "FACTUAL" and not again.prompts
    assert b.response_metadata[CACHE_HIT] and "token_usage" not in b.response_metadata
    assert (b.usage_metadata or {}).get("input_tokens", 0) == 0
    assert rec.snapshot().roles["guardian"] == RoleUsage(
        calls=1, cache_hits=1, input_tokens=12, output_tokens=1, cost_usd=round((12 * 1.0 + 1 * 4.0) / 1e6, 9)
    )
    assert len(store) == 1


@pytest.mark.parametrize(
    ("ref", "model", "prompt"),
    [
        (REF.model_copy(update={"adapter_sha256": "b" * 64}), "scripted", "Is Paris in France?"),  # retrained adapter
        (REF.model_copy(update={"model": "other"}), "scripted", "Is Paris in France?"),  # other served model
        (REF, "other-client", "Is Paris in France?"),  # other client parameters
        (REF, "scripted", "Is Lyon in France?"),  # other prompt
    ],
)
def test_another_model_adapter_or_prompt_misses(ref: ModelRef, model: str, prompt: str) -> None:
    store, rec = JsonCache(":memory:"), CallRecorder()
    _client(store, rec).invoke("Is Paris in France?")
    other = _client(store, rec, ref=ref, model=model)
    other.invoke(prompt)
    assert other.prompts == [prompt]
    assert rec.snapshot().roles["guardian"].cache_hits == 0


def test_cache_off_reads_and_writes_nothing() -> None:
    rec = CallRecorder()
    for _ in range(2):
        _client(None, rec).invoke("Is Paris in France?")
    assert rec.snapshot().roles["guardian"] == RoleUsage(
        calls=2, input_tokens=24, output_tokens=2, cost_usd=round(2 * 16 / 1e6, 9)
    )


def test_chat_key_ignores_timeout_retries_and_key_but_not_temperature() -> None:
    def llm_string(**kw: Any) -> str:
        base = {"base_url": REMOTE, "model": "gpt", "api_key": "k1", "timeout": 30.0, "max_retries": 2} | kw
        return stable_llm_string(ChatOpenAI(**base)._get_llm_string())

    assert llm_string() == llm_string(timeout=99.0, max_retries=5, api_key="k2")
    assert llm_string() != llm_string(temperature=0.7)
    assert llm_string() != llm_string(max_completion_tokens=1)
    assert stable_llm_string("not json---[('stop', None)]") == "not json---[('stop', None)]"


def _judge(store: JsonCache | None, rec: CallRecorder, inner: CountingJudge, ref: ModelRef = REF) -> CachingJudge:
    return CachingJudge(
        inner, role="judge", ref=ref, params={"calibration": 1}, recorder=rec, store=store, count_calls=True
    )


def test_judge_scores_are_cached_per_input_and_misses_scored_in_one_batch() -> None:
    store, rec = JsonCache(":memory:"), CallRecorder()
    a, b, c = ("q", "A is B.", ["e1"]), ("q", "A is C too.", ["e1"]), ("q", "C.", ["e2", "e3"])
    inner = CountingJudge()
    first = _judge(store, rec, inner).score([a, b])
    mixed = _judge(store, rec, inner).score([b, c, a])
    assert inner.batches == [[a, b], [c]]
    assert mixed == [first[1], JudgeScore(p_supported=0.02, decision=Support.SUPPORTED, best_chunk=0), first[0]]
    assert rec.snapshot().roles["judge"] == RoleUsage(calls=3, cache_hits=2, input_tokens=30)
    again = _judge(store, rec, CountingJudge(fail=True)).score([a, b, c])
    assert again == [first[0], first[1], mixed[1]]
    other = CountingJudge()
    _judge(store, rec, other, REF.model_copy(update={"adapter_sha256": "c" * 64})).score([a])
    assert other.batches == [[a]]


def test_equal_inputs_in_one_call_are_scored_once() -> None:
    rec, inner = CallRecorder(), CountingJudge()
    a, b = ("q", "A is B.", ["e"]), ("q", "B.", ["e"])
    scores = _judge(JsonCache(":memory:"), rec, inner).score([a, a, b])
    assert inner.batches == [[a, b]] and scores[0] is scores[1] and scores[2] != scores[0]
    assert rec.snapshot().roles["judge"] == RoleUsage(calls=2, input_tokens=20)


def test_judge_without_a_store_scores_everything() -> None:
    rec, inner = CallRecorder(), CountingJudge()
    for _ in range(2):
        _judge(None, rec, inner).score([("q", "r", ["e"])])
    assert len(inner.batches) == 2 and rec.snapshot().roles["judge"].cache_hits == 0


def test_memo_counts_hits_and_misses_and_recomputes_an_unreadable_entry() -> None:
    store, rec = JsonCache(":memory:"), CallRecorder()
    runs: list[int] = []

    def compute() -> list[int]:
        runs.append(1)
        return [1, 2]

    def decode(v: Any) -> list[int]:
        if not all(isinstance(x, int) for x in v):
            raise ValueError("old shape")
        return list(v)

    assert memo(store, rec, "prove", {"k": 1}, compute, list, decode) == [1, 2]
    assert memo(store, rec, "prove", {"k": 1}, compute, list, decode) == [1, 2]
    assert len(runs) == 1
    store.put("prove", {"k": 2}, ["x"])
    assert memo(store, rec, "prove", {"k": 2}, compute, list, decode) == [1, 2]
    assert memo(None, rec, "prove", {"k": 1}, compute, list, decode) == [1, 2]
    assert len(runs) == 3
    assert rec.snapshot().hits == {"prove": 1} and rec.snapshot().misses == {"prove": 3}


def test_one_file_shared_by_two_connections(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"
    caches = [JsonCache(path), JsonCache(path)]

    def write(c: JsonCache, base: int) -> None:
        for i in range(40):
            c.put("t", {"i": base + i}, i)

    threads = [threading.Thread(target=write, args=(c, 100 * n)) for n, c in enumerate(caches)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(caches[0]) == 80 and caches[1].get("t", {"i": 139}) is not None
    for c in caches:
        c.close()


def test_default_cache_file_is_under_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path))
    assert default_cache_path() == tmp_path / "cache" / "calls.sqlite"
