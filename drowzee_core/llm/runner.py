"""The model-under-test runner: prompts of generated cases -> a chat model -> answers, cached.

Every case needs a `prompt` (all generators write one) and an `id`. Answers are cached in SQLite keyed
by a `CacheIdentity` (endpoint, model, the weights hash of a local LoRA adapter, and every generation
parameter the client sends: temperature, max tokens, stop sequences, ...) and the prompt, so a retrained
adapter or a changed parameter never gets an old answer. Rows are cached as each batch finishes, so an interrupted run
resumes where it stopped and a re-run costs nothing; the output file is written once, atomically, at
the end (from the cache, so it never holds half a run). Calls run `concurrency` at a time through
`ChatOpenAI.batch`; retries with backoff are the client's own (`max_retries` of the role). A failed
call is reported with its error and asked again on the next run, never written as an answer.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.local import weights_sha256
from drowzee_core.llm.roles import LOCAL_BASE_URL, RoleConfig
from drowzee_core.records.jsonl import write_jsonl
from drowzee_core.records.provenance import Provenance

log = logging.getLogger(__name__)
MAX_PROMPT_CHARS = 20_000


@dataclass
class RunStats:
    """What one run did."""

    cases: int = 0
    cached: int = 0
    called: int = 0
    failed: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    seconds: float = 0.0
    errors: list[str] = field(default_factory=list)


class AnswerCache:
    """SQLite cache of answers by request key."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(path)
        self.db.execute(
            "CREATE TABLE IF NOT EXISTS answer (key TEXT PRIMARY KEY, answer TEXT NOT NULL,"
            " prompt_tokens INTEGER, completion_tokens INTEGER, created REAL)"
        )

    def get(self, key: str) -> tuple[str, int, int] | None:
        """The cached (answer, prompt tokens, completion tokens)."""
        row = self.db.execute(
            "SELECT answer, prompt_tokens, completion_tokens FROM answer WHERE key = ?", (key,)
        ).fetchone()
        return None if row is None else (str(row[0]), int(row[1] or 0), int(row[2] or 0))

    def put(self, key: str, answer: str, prompt_tokens: int, completion_tokens: int) -> None:
        """Store one answer."""
        self.db.execute(
            "INSERT OR REPLACE INTO answer VALUES (?, ?, ?, ?, ?)",
            (key, answer, prompt_tokens, completion_tokens, time.time()),
        )
        self.db.commit()

    def close(self) -> None:
        """Close the database."""
        self.db.close()


class CacheIdentity(BaseModel):
    """Everything besides the prompt that decides a model's answer: one half of the cache key."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    endpoint: str = Field(description="Base URL; the local server's default URL for any private local server.")
    model: str = Field(description="Model name sent with the request.")
    weights_sha256: str | None = Field(
        default=None, description="sha256 of the LoRA adapter weights when `model` is a local adapter."
    )
    params: dict[str, Any] = Field(
        description="Every generation parameter the client sends (temperature, max tokens, stop, top_p, seed...)."
    )

    def key(self, prompt: str) -> str:
        """Stable cache key of one request with this identity."""
        blob = json.dumps(self.model_dump(mode="json"), sort_keys=True, default=str)
        return hashlib.sha256(f"{blob}\x00{prompt}".encode()).hexdigest()


def client_identity(client: BaseChatModel, endpoint: str, model: str, weights: str | None = None) -> CacheIdentity:
    """The identity of `client`: its generation parameters are LangChain's `_identifying_params`.

    That mapping is what LangChain's own LLM caches key on; for `ChatOpenAI` it holds the model,
    temperature, max (completion) tokens, stop sequences and any other request parameter that is set.
    """
    params = {k: v for k, v in client._identifying_params.items() if k not in ("model", "model_name")}
    return CacheIdentity(endpoint=endpoint, model=model, weights_sha256=weights, params=params)


def role_identity(cfg: RoleConfig, client: BaseChatModel, adapter: Path | None = None) -> CacheIdentity:
    """The identity of a role's client; `adapter` is the folder a private local server serves `cfg.model` from.

    A model served by the local server under an adapter's name gets that adapter's weights hash, so a
    retrained adapter is a new identity. Private local servers (random ports) share the default URL.
    """
    from drowzee_core.llm.local import find_adapters

    weights = None
    endpoint = cfg.base_url
    if adapter is not None:
        weights, endpoint = weights_sha256(adapter), LOCAL_BASE_URL
    elif cfg.is_local and (served := find_adapters().get(cfg.model)) is not None:
        weights = weights_sha256(served.path)
    return client_identity(client, endpoint, cfg.model, weights)


def check_cases(cases: Sequence[dict[str, Any]]) -> None:
    """Every case has an id and a non-empty prompt of bounded size; ids are unique."""
    seen: set[str] = set()
    for i, case in enumerate(cases, 1):
        cid, prompt = case.get("id"), case.get("prompt")
        if not cid or not isinstance(prompt, str) or not prompt.strip():
            raise DrowzeeError(f"case {i} has no `id` or no `prompt`; generate cases with `drowzee generate ...`")
        if len(prompt) > MAX_PROMPT_CHARS:
            raise DrowzeeError(f"case {cid} has a prompt of {len(prompt)} characters (limit {MAX_PROMPT_CHARS})")
        if cid in seen:
            raise DrowzeeError(f"case id {cid!r} appears twice; ids must be unique")
        seen.add(str(cid))


def run_cases(
    cases: Sequence[dict[str, Any]],
    model: BaseChatModel,
    identity: CacheIdentity,
    model_name: str,
    cache: AnswerCache,
    out: Path,
    meta: Provenance,
    concurrency: int = 4,
    batch_size: int = 16,
    on_batch: Callable[[int], None] | None = None,
) -> RunStats:
    """Answer every case; write `out` (cases + `llm_answer`, `model`, token counts) at the end.

    `identity` must describe `model` (build it with `role_identity` or `client_identity`); answers are
    cached under it. `meta` is the output's provenance; its sidecar also gets the cached / called / failed counts.
    """
    check_cases(cases)
    stats = RunStats(cases=len(cases))
    t0 = time.perf_counter()
    answered: dict[str, dict[str, Any]] = {}
    todo: list[dict[str, Any]] = []
    for case in cases:
        hit = cache.get(identity.key(case["prompt"]))
        if hit is None:
            todo.append(case)
            continue
        stats.cached += 1
        answered[case["id"]] = _answered(case, model_name, *hit)
    if on_batch:
        on_batch(stats.cached)
    for start in range(0, len(todo), batch_size):
        chunk = todo[start : start + batch_size]
        results = model.batch(
            [c["prompt"] for c in chunk], config={"max_concurrency": concurrency}, return_exceptions=True
        )
        for case, res in zip(chunk, results, strict=True):
            if isinstance(res, BaseException):
                stats.failed += 1
                stats.errors.append(f"{case['id']}: {type(res).__name__}: {res}")
                log.warning("case %s failed: %s", case["id"], res)
                continue
            usage = getattr(res, "usage_metadata", None) or {}
            text = res.content if isinstance(res.content, str) else json.dumps(res.content)
            p_tok, c_tok = int(usage.get("input_tokens", 0)), int(usage.get("output_tokens", 0))
            cache.put(identity.key(case["prompt"]), text, p_tok, c_tok)
            stats.called += 1
            answered[case["id"]] = _answered(case, model_name, text, p_tok, c_tok)
        if on_batch:
            on_batch(len(chunk))
    done = {"cached": stats.cached, "called": stats.called, "failed": stats.failed}
    rows = [answered[c["id"]] for c in cases if c["id"] in answered]
    write_jsonl(rows, out, meta.model_copy(update={"counts": meta.counts | done}))
    for row in answered.values():
        stats.prompt_tokens += row["prompt_tokens"]
        stats.completion_tokens += row["completion_tokens"]
    stats.seconds = time.perf_counter() - t0
    return stats


def _answered(case: dict[str, Any], model_name: str, text: str, p_tok: int, c_tok: int) -> dict[str, Any]:
    return case | {"llm_answer": text, "model": model_name, "prompt_tokens": p_tok, "completion_tokens": c_tok}
