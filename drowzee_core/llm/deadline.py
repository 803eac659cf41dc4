"""A wall-clock deadline on every chat-model call, and a breaker that fails fast once an endpoint stalled.

httpx timeouts bound each read, not a call: a server that trickles bytes, or a call the client retries
`max_retries` times, can take many times a role's `timeout`. `DeadlineChatOpenAI` bounds the whole call
(retries included) by `deadline_s`: past it the call raises `ModelTimeoutError` and its connection is
left to the httpx read timeout (the same number) in a background thread.

A call that hit its deadline opens the endpoint's breaker: for `deadline_s` seconds every other call to
the same endpoint and model fails at once with the same error, so a run over n cases against a stalled
model ends in about one deadline instead of n. After that a call is let through again (the model may be
back). Calls in flight when the breaker opens end at their own deadlines.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import threading
import time
from typing import Any

from langchain_core.outputs import ChatResult
from langchain_openai import ChatOpenAI
from pydantic import Field

from drowzee_core.errors import DrowzeeError

log = logging.getLogger(__name__)


class ModelTimeoutError(DrowzeeError, TimeoutError):
    """A model call did not finish within its role's timeout."""


class _Breaker:
    """When each endpoint last stalled (monotonic seconds), shared by every client of this process."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.stalled: dict[tuple[str, str], tuple[float, float]] = {}  # key -> (when, deadline)

    def check(self, key: tuple[str, str], hint: str) -> None:
        with self.lock:
            when, deadline = self.stalled.get(key, (0.0, 0.0))
            if time.monotonic() - when < deadline:
                raise ModelTimeoutError(
                    f"{key[1]} at {key[0]} did not answer a call within {deadline:.0f} s a moment ago;"
                    f" not calling it again for {deadline:.0f} s. {hint}"
                )

    def trip(self, key: tuple[str, str], deadline: float) -> None:
        with self.lock:
            self.stalled[key] = (time.monotonic(), deadline)

    def reset(self) -> None:
        with self.lock:
            self.stalled.clear()


BREAKER = _Breaker()


class DeadlineChatOpenAI(ChatOpenAI):
    """`ChatOpenAI` whose calls end within `deadline_s` seconds, retries included (see the module docstring)."""

    name: str | None = Field(default="ChatOpenAI", exclude=True)  # with `lc_id`: a plain client's cache keys
    deadline_s: float = Field(
        default=120.0, gt=0, exclude=True, description="Wall-clock limit of one call, retries included."
    )
    hint: str = Field(default="", exclude=True, description="What to check when the model stalls (the server's log).")

    @classmethod
    def lc_id(cls) -> list[str]:
        """`ChatOpenAI`'s id: the serialized form, hence LangChain cache keys, are a plain client's."""
        return list(ChatOpenAI.lc_id())

    def _key(self) -> tuple[str, str]:
        return (str(self.openai_api_base or "https://api.openai.com/v1"), str(self.model_name))

    def _timed_out(self) -> ModelTimeoutError:
        key = self._key()
        BREAKER.trip(key, self.deadline_s)
        log.warning("%s at %s gave no answer within %.0f s", key[1], key[0], self.deadline_s)
        return ModelTimeoutError(
            f"{key[1]} at {key[0]} gave no answer within {self.deadline_s:.0f} s (the role's timeout);"
            f" check that the model server is running and answering, or raise the role's timeout. {self.hint}"
        )

    def _generate(self, *args: Any, **kwargs: Any) -> ChatResult:
        BREAKER.check(self._key(), self.hint)
        outcome: list[Any] = []
        call = super()._generate

        def work() -> None:
            try:
                outcome.append((True, call(*args, **kwargs)))
            except BaseException as exc:  # handed to the caller below
                outcome.append((False, exc))

        ctx = contextvars.copy_context()
        worker = threading.Thread(target=ctx.run, args=(work,), daemon=True, name="drowzee-model-call")
        worker.start()
        worker.join(self.deadline_s)
        if not outcome:
            raise self._timed_out()
        ok, value = outcome[0]
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    async def _agenerate(self, *args: Any, **kwargs: Any) -> ChatResult:
        BREAKER.check(self._key(), self.hint)
        try:
            return await asyncio.wait_for(super()._agenerate(*args, **kwargs), self.deadline_s)
        except TimeoutError:
            raise self._timed_out() from None


__all__ = ["BREAKER", "DeadlineChatOpenAI", "ModelTimeoutError"]
