"""A persistent cache of the verifier's model, judge and proof calls, in one SQLite file.

The file is a `drowzee_core.retrieval.cache.JsonCache` (default `<home>/cache/calls.sqlite`; several
processes may share it). Every entry is keyed by its tool, the role, the `ModelRef` that served it
(model, endpoint, adapter weights hash), the prompt or input, and every parameter that decides the
answer, so a retrained adapter, another model or a changed prompt never gets an old answer:

- `chat` (`RoleCache`): chat calls of the guardian, manager and extractor roles go through LangChain's
  own cache path (`ChatOpenAI(cache=RoleCache(...))`); the key is LangChain's serialized prompt
  messages and the client's parameters, less its timeout, retry count and key, which do not change
  an answer. Generations are stored with `langchain_core.load.dumpd` and revived with `load`; a
  revived message carries no token usage and is marked `CACHE_HIT`, so `UsageHandler` counts it as
  a cache hit, not as tokens spent.
- `judge` (`CachingJudge`): one entry per (query, response, evidence) input of the Seeker's judge; the
  misses of one call are scored together in one batch.
- `prove` (`memo`): a pair's KB results by KB fingerprint, package version, the proving code's digest, supplied
  triples and claims.
- web search results (`drowzee_core.retrieval.web`) share the file under their own tool name.

A cache that cannot be read or written (another process holding the file past its busy timeout, an
entry of an older shape) is logged and treated as a miss: the cache saves work, it never fails a call.
"""

from __future__ import annotations

import json
import logging
import threading
import warnings
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, TypeVar

from langchain_core._api import LangChainBetaWarning
from langchain_core.caches import RETURN_VAL_TYPE, BaseCache
from langchain_core.load import Serializable, dumpd, load
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, Generation

from agents.verifier.accounting import CACHE_HIT, CallRecorder
from drowzee_core.config import home
from drowzee_core.llm.judge import Judge, JudgeIn
from drowzee_core.records.judge import JudgeScore
from drowzee_core.records.verdict import ModelRef
from drowzee_core.retrieval.cache import CacheError, JsonCache, cache_key

log = logging.getLogger(__name__)
T = TypeVar("T")

CHAT_TOOL = "chat"
JUDGE_TOOL = "judge"
PROVE_TOOL = "prove"
VOLATILE_PARAMS = ("request_timeout", "max_retries", "openai_api_key")
"""Client fields left out of a chat key: they decide how a request is sent, not its answer."""
_REVIVABLE: list[type[Serializable]] = [ChatGeneration, Generation, AIMessage]
# `load` only revives the message classes above; its "in beta" notice on every cache hit is noise
warnings.filterwarnings("ignore", message="The function `load` is in beta", category=LangChainBetaWarning)


def default_cache_path() -> Path:
    """`<home>/cache/calls.sqlite`: the call cache when the settings name no file."""
    return home() / "cache" / "calls.sqlite"


def stable_llm_string(llm_string: str) -> str:
    """LangChain's `llm_string` (serialized client + call parameters) without `VOLATILE_PARAMS`."""
    head, sep, tail = llm_string.partition("---")
    try:
        data = json.loads(head)
    except ValueError:  # a client LangChain cannot serialize: its parameter list as is
        return llm_string
    kwargs = data.get("kwargs") if isinstance(data, dict) else None
    if isinstance(kwargs, dict):
        for name in VOLATILE_PARAMS:
            kwargs.pop(name, None)
    return json.dumps(data, sort_keys=True) + sep + tail


def _served(message: BaseMessage) -> BaseMessage:
    """A revived message as the cache serves it: no token usage (none was spent), marked as a hit."""
    meta = {k: v for k, v in message.response_metadata.items() if k != "token_usage"} | {CACHE_HIT: True}
    update: dict[str, Any] = {"response_metadata": meta}
    if isinstance(message, AIMessage):
        update["usage_metadata"] = None
    return message.model_copy(update=update)


def _get(store: JsonCache, tool: str, params: Mapping[str, Any]) -> Any:
    """The stored value of (tool, params), or None when absent or unreadable (logged)."""
    try:
        hit = store.get(tool, params)
    except CacheError as exc:
        log.warning("call cache read failed (%s); calling instead", exc)
        return None
    return None if hit is None else hit.value


def _put(store: JsonCache, tool: str, params: Mapping[str, Any], value: Any) -> None:
    try:
        store.put(tool, params, value)
    except CacheError as exc:
        log.warning("call cache write failed (%s); the answer is used but not kept", exc)


class RoleCache(BaseCache):
    """LangChain `BaseCache` of one role's chat client over the shared `JsonCache`."""

    def __init__(self, store: JsonCache, role: str, ref: ModelRef, recorder: CallRecorder | None = None) -> None:
        self.store = store
        self.role = role
        self.ref = ref
        self.recorder = recorder

    def params(self, prompt: str, llm_string: str) -> dict[str, Any]:
        """The entry's key parameters: role, model reference, prompt and client parameters."""
        return {
            "role": self.role,
            "model": self.ref.model_dump(mode="json"),
            "prompt": prompt,
            "llm": stable_llm_string(llm_string),
        }

    def lookup(self, prompt: str, llm_string: str) -> RETURN_VAL_TYPE | None:
        """The stored generations (marked as served from the cache), or None."""
        value = _get(self.store, CHAT_TOOL, self.params(prompt, llm_string))
        if not isinstance(value, list) or not value:
            return None
        try:
            generations = [load(g, allowed_objects=_REVIVABLE) for g in value]
        except Exception as exc:  # boundary: an entry of another LangChain's shape is a miss, not a failure
            log.warning("unreadable cached %s generation (%s: %s); calling instead", self.role, type(exc).__name__, exc)
            return None
        for g in generations:
            if isinstance(g, ChatGeneration):
                g.message = _served(g.message)
        if self.recorder is not None:
            self.recorder.model(self.role, cache_hits=1)
        return generations

    def update(self, prompt: str, llm_string: str, return_val: RETURN_VAL_TYPE) -> None:
        """Store the generations of a real call."""
        _put(self.store, CHAT_TOOL, self.params(prompt, llm_string), [dumpd(g) for g in return_val])

    def clear(self, **kwargs: Any) -> None:
        """Not supported: the file is shared by every role and tool; delete it to clear it."""
        raise CacheError(f"the call cache {self.store.path} is shared by every role; delete the file to clear it")


class CachingJudge:
    """A `Judge` whose scores are cached per input; the misses of one call are scored in one batch.

    Hits are counted per distinct input found in the cache. `count_calls` is for the in-process
    judge, which has no chat client to report its calls: this wrapper then counts the distinct inputs
    it scored and the tokens its cross-encoder read (`input_tokens` of the inner judge, read around
    the call under a lock). An LLM judge's calls are counted by its client's `UsageHandler`.
    """

    def __init__(
        self,
        inner: Judge,
        *,
        role: str,
        ref: ModelRef,
        params: Mapping[str, Any],
        recorder: CallRecorder,
        store: JsonCache | None,
        count_calls: bool,
    ) -> None:
        self.inner = inner
        self.threshold = inner.threshold
        self.role = role
        self.ref = ref
        self.params = dict(params)
        self.recorder = recorder
        self.store = store
        self.count_calls = count_calls
        self._lock = threading.Lock()

    def _key(self, item: JudgeIn) -> dict[str, Any]:
        return {"role": self.role, "model": self.ref.model_dump(mode="json"), "params": self.params, "input": item}

    def _id(self, item: JudgeIn, n: int) -> str:
        """The entry key of an input; an input that is not JSON gets one of its own (never shared)."""
        try:
            return cache_key(JUDGE_TOOL, self._key(item))
        except CacheError:
            return f"#{n}"

    def _cached(self, item: JudgeIn) -> JudgeScore | None:
        if self.store is None:
            return None
        value = _get(self.store, JUDGE_TOOL, self._key(item))
        if value is None:
            return None
        try:
            return JudgeScore.model_validate(value)
        except ValueError as exc:
            log.warning("unreadable cached judge score (%s); scoring instead", exc)
            return None

    def score(self, inputs: Sequence[JudgeIn]) -> list[JudgeScore]:
        """One JudgeScore per input, in order: cached ones read, the rest scored together and stored.

        Equal inputs in one call are scored once and share the score (a whole response that is also
        its only claim): scoring them in one batch could differ in the last bits between batch rows,
        and the cache, which keeps one score per input, would then change the verdict.
        """
        ids = [self._id(item, n) for n, item in enumerate(inputs)]
        unique = dict(zip(ids, inputs, strict=True))
        found: dict[str, JudgeScore] = {}
        for key, item in unique.items():
            if (hit := self._cached(item)) is not None:
                found[key] = hit
        if found:
            self.recorder.model(self.role, cache_hits=len(found))
        todo = [key for key in unique if key not in found]
        if todo:
            fresh = self._score([unique[key] for key in todo])
            for key, score in zip(todo, fresh, strict=True):
                found[key] = score
                if self.store is not None and not key.startswith("#"):
                    _put(self.store, JUDGE_TOOL, self._key(unique[key]), score.model_dump(mode="json"))
        return [found[key] for key in ids]

    def _score(self, inputs: Sequence[JudgeIn]) -> list[JudgeScore]:
        if not self.count_calls:
            return self.inner.score(inputs)
        with self._lock:  # the token count is read around the call: one call at a time
            before = int(getattr(self.inner, "input_tokens", 0))
            scores = self.inner.score(inputs)
            tokens = int(getattr(self.inner, "input_tokens", 0)) - before
        self.recorder.model(self.role, calls=len(inputs), input_tokens=tokens)
        return scores


def memo(
    store: JsonCache | None,
    recorder: CallRecorder,
    tool: str,
    params: Mapping[str, Any],
    compute: Callable[[], T],
    encode: Callable[[T], Any],
    decode: Callable[[Any], T],
) -> T:
    """`compute()`'s value for (tool, params): read from `store` when there, else computed and stored.

    `encode` turns the value into JSON, `decode` turns JSON back into the value (an entry `decode`
    rejects with `ValueError`, e.g. of an older shape, is recomputed). No store: always computed.
    """
    if store is not None and (value := _get(store, tool, params)) is not None:
        try:
            out = decode(value)
        except ValueError as exc:  # pydantic's ValidationError is one
            log.warning("unreadable cached %s entry (%s); computing instead", tool, exc)
        else:
            recorder.tool(tool, hit=True)
            return out
    out = compute()
    recorder.tool(tool, hit=False)
    if store is not None:
        _put(store, tool, params, encode(out))
    return out


__all__ = [
    "CHAT_TOOL",
    "JUDGE_TOOL",
    "PROVE_TOOL",
    "VOLATILE_PARAMS",
    "CachingJudge",
    "RoleCache",
    "default_cache_path",
    "memo",
    "stable_llm_string",
]
