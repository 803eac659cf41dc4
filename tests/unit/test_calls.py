"""Per-role call accounting: snapshots add and subtract, usage and cost from callbacks, role prices."""

from __future__ import annotations

import threading

import pytest
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, LLMResult

from agents.verifier.accounting import CACHE_HIT, CallRecorder, CallStats, CallStatsError, RoleUsage, UsageHandler
from drowzee_core.llm.roles import LOCAL_BASE_URL, RoleConfig, RoleError, load_role

REMOTE = "https://api.example.com/v1"


def test_snapshots_add_up_across_roles_and_tools() -> None:
    a = CallStats(roles={"guardian": RoleUsage(calls=2, input_tokens=10, cost_usd=0.1)}, hits={"prove": 1})
    b = CallStats(
        roles={"guardian": RoleUsage(cache_hits=3, output_tokens=4, cost_usd=0.2), "judge": RoleUsage(calls=5)},
        hits={"prove": 2},
        misses={"prove": 1},
    )
    total = a + b
    assert total == a.merged(b) == b.merged(a)
    assert total.roles["guardian"] == RoleUsage(calls=2, cache_hits=3, input_tokens=10, output_tokens=4, cost_usd=0.3)
    assert total.roles["judge"].calls == 5
    assert total.hits == {"prove": 3} and total.misses == {"prove": 1}
    assert total.total.calls == 7 and total.total.cost_usd == pytest.approx(0.3)


def test_delta_of_a_later_snapshot() -> None:
    earlier = CallStats(roles={"guardian": RoleUsage(calls=1, input_tokens=5)}, hits={"prove": 1})
    later = CallStats(
        roles={"guardian": RoleUsage(calls=1, input_tokens=5), "judge": RoleUsage(cache_hits=2)},
        hits={"prove": 1},
        misses={"prove": 2},
    )
    delta = later.minus(earlier)
    assert delta == CallStats(roles={"judge": RoleUsage(cache_hits=2)}, misses={"prove": 2})
    assert earlier + delta == later
    with pytest.raises(CallStatsError, match="swap"):
        earlier.minus(later)


def test_stats_round_trip_as_json() -> None:
    usage = RoleUsage(calls=1, cache_hits=2, input_tokens=3, output_tokens=4, cost_usd=0.5)
    s = CallStats(roles={"guardian": usage}, hits={"prove": 3}, misses={"prove": 1})
    assert CallStats.model_validate_json(s.model_dump_json()) == s


def test_recorder_is_thread_safe() -> None:
    rec = CallRecorder()

    def work() -> None:
        for _ in range(200):
            rec.model("guardian", calls=1, input_tokens=2)
            rec.tool("prove", hit=False)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    snap = rec.snapshot()
    assert snap.roles["guardian"].calls == 800 and snap.roles["guardian"].input_tokens == 1600
    assert snap.misses == {"prove": 800} and snap.hits == {}


def _result(*messages: AIMessage, llm_output: dict[str, object] | None = None) -> LLMResult:
    return LLMResult(generations=[[ChatGeneration(message=m)] for m in messages], llm_output=llm_output)


def _usage(i: int, o: int) -> AIMessage:
    return AIMessage(content="x", usage_metadata={"input_tokens": i, "output_tokens": o, "total_tokens": i + o})


def test_usage_handler_sums_real_calls_and_prices_them() -> None:
    rec = CallRecorder()
    cfg = RoleConfig(role="manager", model="gpt", base_url=REMOTE, input_price=2.0, output_price=8.0)
    handler = UsageHandler(cfg, rec)
    handler.on_llm_end(_result(_usage(1000, 100)))
    handler.on_llm_end(_result(_usage(500, 50), _usage(500, 50)))  # one batch of two prompts
    hit = AIMessage(content="x", response_metadata={CACHE_HIT: True})
    handler.on_llm_end(_result(hit))
    usage = rec.snapshot().roles["manager"]
    assert (usage.calls, usage.input_tokens, usage.output_tokens) == (3, 2000, 200)
    assert usage.cost_usd == pytest.approx((2000 * 2.0 + 200 * 8.0) / 1e6)
    assert usage.cache_hits == 0  # hits are counted by the cache, not by the handler


def test_usage_falls_back_to_the_providers_token_usage() -> None:
    rec = CallRecorder()
    handler = UsageHandler(RoleConfig(role="seeker", model="m", base_url=REMOTE), rec)
    handler.on_llm_end(
        _result(AIMessage(content="x"), llm_output={"token_usage": {"prompt_tokens": 7, "completion_tokens": 2}})
    )
    assert rec.snapshot().roles["seeker"] == RoleUsage(calls=1, input_tokens=7, output_tokens=2)


def test_a_local_role_costs_nothing() -> None:
    cfg = RoleConfig(role="guardian", model="guardian", base_url=LOCAL_BASE_URL, input_price=5.0, output_price=5.0)
    assert cfg.is_local and cfg.cost_usd(10_000, 10_000) == 0.0
    rec = CallRecorder()
    UsageHandler(cfg, rec).on_llm_end(_result(_usage(100, 1)))
    assert rec.snapshot().roles["guardian"] == RoleUsage(calls=1, input_tokens=100, output_tokens=1)


def test_prices_load_like_other_role_fields(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DROWZEE_MANAGER_INPUT_PRICE", "0.15")
    monkeypatch.setenv("DROWZEE_MANAGER_BASE_URL", REMOTE)
    cfg = load_role("manager", overrides={"output_price": 0.6})
    assert (cfg.input_price, cfg.output_price) == (0.15, 0.6)
    assert cfg.cost_usd(1_000_000, 1_000_000) == pytest.approx(0.75)
    monkeypatch.setenv("DROWZEE_MANAGER_INPUT_PRICE", "-1")
    with pytest.raises(RoleError, match="input_price"):
        load_role("manager")
