"""Model roles -> OpenAI-compatible endpoints -> `ChatOpenAI` clients (the only place they are built).

Each role (`seeker`, `guardian`, `manager`, `extractor`, `target`, `judge`) has a base URL, model name, key,
temperature, timeout, retry count, token limit and token prices. `timeout` bounds a whole call, retries
included (`drowzee_core.llm.deadline`): a stalled model gives `ModelTimeoutError` after it, and further
calls to that model fail at once for as long again. Values come from, highest first:
1. explicit overrides passed by the caller (CLI options);
2. environment variables `DROWZEE_<ROLE>_<FIELD>` (e.g. `DROWZEE_TARGET_BASE_URL`, `DROWZEE_TARGET_MODEL`,
   `DROWZEE_TARGET_API_KEY`, `..._TEMPERATURE`, `..._TIMEOUT`, `..._MAX_RETRIES`, `..._MAX_TOKENS`,
   `..._INPUT_PRICE`, `..._OUTPUT_PRICE`);
3. a TOML file (`--roles FILE`, else `$DROWZEE_ROLES`, else `<home>/roles.toml` when it exists) with one
   table per role: `[target] base_url = "http://localhost:8000/v1"  model = "gpt-4o-mini"`;
4. the embedded default: the local model server on loopback (`drowzee models serve`): the trained
   Guardian adapter shipped in `finetune/adapters/guardian` for `guardian`, base models for the others;
   `judge` defaults to the shipped cross-encoder `finetune/adapters/judge`, run in-process.

`input_price` and `output_price` are USD per million input (prompt) and output (completion) tokens,
used for the verifier's cost accounting (`agents/verifier/accounting.py`); both default to 0, and a role on the local
server always costs 0 whatever its prices say.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field, ValidationError, field_validator

from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.local import LOCAL_HOST, LOCAL_PORT

if TYPE_CHECKING:
    from langchain_core.caches import BaseCache
    from langchain_core.callbacks import BaseCallbackHandler
    from langchain_openai import ChatOpenAI

ROLES = ("seeker", "guardian", "manager", "extractor", "target", "judge")
LOCAL_BASE_URL = f"http://{LOCAL_HOST}:{LOCAL_PORT}/v1"
DEFAULT_MODELS = {
    "seeker": "smollm2-135m",
    "guardian": "guardian",
    "manager": "smollm2-135m",
    "extractor": "smollm2-135m",
    "target": "gemma3-270m",
    "judge": "judge",  # the shipped cross-encoder, run in-process (drowzee_core.llm.judge)
}


class RoleError(DrowzeeError):
    """A role's configuration is invalid or names an unknown role."""


class RoleConfig(BaseModel):
    """One role's endpoint."""

    role: str
    base_url: str = Field(default=LOCAL_BASE_URL, description="OpenAI-compatible base URL, ending in /v1.")
    model: str
    api_key: str = Field(default="not-needed", description="Key sent as a bearer token.")
    temperature: float = Field(default=0.0, ge=0.0, le=2.0)
    timeout: float = Field(default=120.0, gt=0, le=3600)
    max_retries: int = Field(default=2, ge=0, le=20)
    max_tokens: int = Field(default=256, ge=1, le=32768)
    input_price: float = Field(default=0.0, ge=0.0, description="USD per 1M input tokens (0 on the local server).")
    output_price: float = Field(default=0.0, ge=0.0, description="USD per 1M output tokens (0 on the local server).")

    @field_validator("base_url")
    @classmethod
    def _url(cls, v: str) -> str:
        if not v.startswith(("http://", "https://")):
            raise ValueError(f"base_url must start with http:// or https://, got {v!r}")
        return v.rstrip("/")

    @property
    def is_local(self) -> bool:
        """Whether this role points at the embedded local model server."""
        return self.base_url == LOCAL_BASE_URL

    def cost_usd(self, input_tokens: int, output_tokens: int) -> float:
        """What `input_tokens` in and `output_tokens` out cost at this role's prices (0 on the local server)."""
        if self.is_local:
            return 0.0
        return (input_tokens * self.input_price + output_tokens * self.output_price) / 1_000_000


def _file_values(path: Path | None) -> dict[str, Any]:
    if path is None:
        env = os.environ.get("DROWZEE_ROLES")
        path = Path(env) if env else home() / "roles.toml"
        if not env and not path.exists():
            return {}
    if not path.exists():
        raise RoleError(f"role config {path} does not exist; create it or drop --roles / DROWZEE_ROLES")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise RoleError(f"role config {path} is not valid TOML: {exc}") from exc
    unknown = set(data) - set(ROLES)
    if unknown:
        raise RoleError(f"role config {path} has unknown roles {sorted(unknown)}; roles are {list(ROLES)}")
    return data


def load_role(role: str, overrides: dict[str, Any] | None = None, config: Path | None = None) -> RoleConfig:
    """The configuration of `role`: explicit > environment > file > default."""
    if role not in ROLES:
        raise RoleError(f"unknown role {role!r}; roles are {list(ROLES)}")
    values: dict[str, Any] = {"model": DEFAULT_MODELS[role]}
    values.update(_file_values(config).get(role, {}))
    for name in RoleConfig.model_fields:
        env = os.environ.get(f"DROWZEE_{role.upper()}_{name.upper()}")
        if env is not None and name != "role":
            values[name] = env
    values.update({k: v for k, v in (overrides or {}).items() if v is not None})
    try:
        return RoleConfig(role=role, **values)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise RoleError(f"role {role!r} is misconfigured: {problems}") from exc


def chat_model(
    cfg: RoleConfig,
    stop: list[str] | None = None,
    *,
    cache: BaseCache | bool | None = None,
    callbacks: Sequence[BaseCallbackHandler] | None = None,
) -> ChatOpenAI:
    """The `ChatOpenAI` client of a role (starts the local server first when the role points at it).

    Every call ends within the role's `timeout`, retries included (`DeadlineChatOpenAI`).

    Args:
        cfg: The role's configuration.
        stop: Sequences that end every completion of this client.
        cache: LangChain's `cache` field: a `BaseCache` the client reads and writes, `False` for none,
            `None` for LangChain's global cache (none unless one was set).
        callbacks: Handlers told about every call (e.g. token accounting).

    """
    hint = ""
    if cfg.is_local:  # first: the server starts loading while the OpenAI client library is imported
        from drowzee_core.llm.launch import server_log, start_soon

        start_soon()
        hint = f"See {server_log()}."
    from drowzee_core.llm.deadline import DeadlineChatOpenAI
    from drowzee_core.llm.launch import ensure_local_server

    if cfg.is_local:
        ensure_local_server()
    return DeadlineChatOpenAI(
        deadline_s=cfg.timeout,
        hint=hint,
        base_url=cfg.base_url,
        model=cfg.model,
        api_key=cfg.api_key,  # type: ignore[arg-type]
        temperature=cfg.temperature,
        timeout=cfg.timeout,
        max_retries=cfg.max_retries,
        max_completion_tokens=cfg.max_tokens,
        stop_sequences=stop,
        cache=cache,
        callbacks=list(callbacks) if callbacks is not None else None,
    )
