"""Per-role token and cost accounting of the verifier's model, judge and proof calls.

`CallRecorder` (one per `Services`, thread-safe) counts what happened; `snapshot()` returns a
`CallStats`. Per model role (`guardian`, `manager`, `extractor`, `seeker`, `judge`):

- `calls`: requests actually sent to the model (for the in-process judge: inputs actually scored);
- `cache_hits`: answers served from the call cache (`agents/verifier/cache.py`) instead;
- `input_tokens` / `output_tokens`: tokens of real calls only (a cache hit spends none); for the
  in-process judge, the word pieces its cross-encoder read (padding excluded), and no output tokens;
- `cost_usd`: the tokens at the role's prices (`input_price` / `output_price`, USD per 1M tokens,
  from `roles.toml` or `DROWZEE_<ROLE>_INPUT_PRICE` / `..._OUTPUT_PRICE`); a local role costs 0.

Tools that are not model roles (`prove`) count cache `hits` and `misses` (with the cache off, every
call is a miss). Snapshots add up (`a + b`, e.g. over the worker processes of a batch) and subtract
(`later.minus(earlier)`: what one pair or one batch cost).

`UsageHandler` is the LangChain callback that feeds the recorder from chat clients: it reads each
real call's `usage_metadata` (or the provider's `token_usage`) and skips generations the call cache
marked as served from it (`CACHE_HIT` in their `response_metadata`).
"""

from __future__ import annotations

import threading
from typing import Any

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.outputs import LLMResult
from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.roles import RoleConfig

CACHE_HIT = "drowzee_cache_hit"
"""Key set to True in the `response_metadata` of a message served from the call cache."""
COST_DIGITS = 9
"""Costs are rounded to nano-dollars, so sums and differences of snapshots stay exact enough to compare."""


class CallStatsError(DrowzeeError):
    """Snapshots that cannot be subtracted (the earlier one is not earlier)."""


class RoleUsage(BaseModel):
    """What one model role did: calls, cache hits, tokens and cost."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    calls: int = Field(default=0, ge=0, description="Requests actually sent (in-process judge: inputs scored).")
    cache_hits: int = Field(default=0, ge=0, description="Answers served from the call cache, at no cost.")
    input_tokens: int = Field(default=0, ge=0, description="Prompt tokens of the real calls.")
    output_tokens: int = Field(default=0, ge=0, description="Completion tokens of the real calls.")
    cost_usd: float = Field(default=0.0, ge=0.0, description="Cost of the real calls at the role's prices.")

    def __add__(self, other: RoleUsage) -> RoleUsage:
        return RoleUsage(
            calls=self.calls + other.calls,
            cache_hits=self.cache_hits + other.cache_hits,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cost_usd=round(self.cost_usd + other.cost_usd, COST_DIGITS),
        )

    def minus(self, earlier: RoleUsage) -> RoleUsage:
        """What was added since `earlier` (an earlier snapshot of the same counter)."""
        counts = {
            "calls": self.calls - earlier.calls,
            "cache_hits": self.cache_hits - earlier.cache_hits,
            "input_tokens": self.input_tokens - earlier.input_tokens,
            "output_tokens": self.output_tokens - earlier.output_tokens,
        }
        cost = round(self.cost_usd - earlier.cost_usd, COST_DIGITS)
        if cost < 0 or any(v < 0 for v in counts.values()):
            raise CallStatsError(f"`earlier` counts more than this snapshot ({earlier} vs {self}); swap them")
        return RoleUsage(**counts, cost_usd=cost)

    @property
    def is_empty(self) -> bool:
        """Whether nothing was counted."""
        return not (self.calls or self.cache_hits or self.input_tokens or self.output_tokens or self.cost_usd)


def _add_counts(a: dict[str, int], b: dict[str, int], sign: int = 1) -> dict[str, int]:
    out = {k: a.get(k, 0) + sign * b.get(k, 0) for k in sorted(set(a) | set(b))}
    if any(v < 0 for v in out.values()):
        raise CallStatsError(f"`earlier` counts more than this snapshot ({b} vs {a}); swap them")
    return {k: v for k, v in out.items() if v}


class CallStats(BaseModel):
    """A snapshot of the calls: usage per model role, cache hits and misses per other tool."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    roles: dict[str, RoleUsage] = Field(default_factory=dict, description="Model role -> its usage.")
    hits: dict[str, int] = Field(default_factory=dict, description="Tool (`prove`) -> calls served from the cache.")
    misses: dict[str, int] = Field(default_factory=dict, description="Tool (`prove`) -> calls that had to run.")

    def merged(self, other: CallStats) -> CallStats:
        """The sum of two snapshots (e.g. of two worker processes)."""
        empty = RoleUsage()
        roles = {r: self.roles.get(r, empty) + other.roles.get(r, empty) for r in {*self.roles, *other.roles}}
        return CallStats(
            roles=dict(sorted(roles.items())),
            hits=_add_counts(self.hits, other.hits),
            misses=_add_counts(self.misses, other.misses),
        )

    def __add__(self, other: CallStats) -> CallStats:
        return self.merged(other)

    def minus(self, earlier: CallStats) -> CallStats:
        """What happened since `earlier` (an earlier snapshot of the same recorder); empty roles are dropped."""
        roles = {r: u.minus(earlier.roles.get(r, RoleUsage())) for r, u in self.roles.items()}
        missing = set(earlier.roles) - set(self.roles)
        if any(not earlier.roles[r].is_empty for r in missing):
            raise CallStatsError(f"`earlier` has roles {sorted(missing)} this snapshot lacks; swap them")
        return CallStats(
            roles={r: u for r, u in sorted(roles.items()) if not u.is_empty},
            hits=_add_counts(self.hits, earlier.hits, -1),
            misses=_add_counts(self.misses, earlier.misses, -1),
        )

    @property
    def total(self) -> RoleUsage:
        """All roles together."""
        out = RoleUsage()
        for usage in self.roles.values():
            out = out + usage
        return out


class CallRecorder:
    """Thread-safe counters of one `Services`' calls; `snapshot()` reads them."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._stats = CallStats()

    def model(
        self,
        role: str,
        *,
        calls: int = 0,
        cache_hits: int = 0,
        input_tokens: int = 0,
        output_tokens: int = 0,
        cost_usd: float = 0.0,
    ) -> None:
        """Count model calls (or cache hits) of `role`."""
        usage = RoleUsage(
            calls=calls,
            cache_hits=cache_hits,
            input_tokens=input_tokens,
            output_tokens=output_tokens,
            cost_usd=round(cost_usd, COST_DIGITS),
        )
        with self._lock:
            self._stats = self._stats + CallStats(roles={role: usage})

    def tool(self, tool: str, *, hit: bool) -> None:
        """Count one call of a non-model tool, served from the cache (`hit`) or run."""
        one = {tool: 1}
        with self._lock:
            self._stats = self._stats + (CallStats(hits=one) if hit else CallStats(misses=one))

    def snapshot(self) -> CallStats:
        """The counts so far (an immutable copy)."""
        with self._lock:
            return self._stats


def _token_usage(result: LLMResult) -> tuple[int, int, int]:
    """(real calls, input tokens, output tokens) of one LangChain result; cached generations are skipped."""
    calls = input_tokens = output_tokens = 0
    reported = False
    for generations in result.generations:  # one list per prompt
        message = getattr(generations[0], "message", None) if generations else None
        if message is not None and message.response_metadata.get(CACHE_HIT):
            continue
        calls += 1
        usage = getattr(message, "usage_metadata", None)
        if usage:
            reported = True
            input_tokens += int(usage.get("input_tokens", 0))
            output_tokens += int(usage.get("output_tokens", 0))
    if calls and not reported:  # a provider without per-message usage: the response's total
        total = (result.llm_output or {}).get("token_usage") or {}
        input_tokens = int(total.get("prompt_tokens", 0) or 0)
        output_tokens = int(total.get("completion_tokens", 0) or 0)
    return calls, input_tokens, output_tokens


class UsageHandler(BaseCallbackHandler):
    """LangChain callback of one role's chat client: counts its real calls, tokens and cost."""

    raise_error = False  # accounting never fails a call

    def __init__(self, cfg: RoleConfig, recorder: CallRecorder) -> None:
        self.cfg = cfg
        self.recorder = recorder

    def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        """Count the finished call unless the cache served it."""
        calls, input_tokens, output_tokens = _token_usage(response)
        if calls:
            self.recorder.model(
                self.cfg.role,
                calls=calls,
                input_tokens=input_tokens,
                output_tokens=output_tokens,
                cost_usd=self.cfg.cost_usd(input_tokens, output_tokens),
            )


__all__ = [
    "CACHE_HIT",
    "CallRecorder",
    "CallStats",
    "CallStatsError",
    "RoleUsage",
    "UsageHandler",
]
