"""Paths and defaults; explicit arguments beat environment variables, which beat defaults."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

M = TypeVar("M", bound=BaseModel)


def home() -> Path:
    """Drowzee's cache and data folder: $DROWZEE_CACHE, else ~/.cache/drowzee."""
    return Path(os.environ.get("DROWZEE_CACHE") or Path.home() / ".cache" / "drowzee")


def default_kb_path() -> Path:
    """The KB used when no --kb is given: $DROWZEE_KB, else <home>/kb/seed.sqlite."""
    env = os.environ.get("DROWZEE_KB")
    return Path(env) if env else home() / "kb" / "seed.sqlite"


def layered_settings(
    cls: type[M],
    explicit: Mapping[str, Any] | None,
    env_name: Callable[[str], str],
    fail: Callable[[str], Exception],
) -> M:
    """A settings model from explicit values (None = unset), then `env_name(field)` variables, then defaults.

    An invalid value raises `fail(problems)`, with every field's problem on one line.
    """
    values: dict[str, Any] = {}
    for name in cls.model_fields:
        env = os.environ.get(env_name(name))
        if env:
            values[name] = env
    values.update({k: v for k, v in (explicit or {}).items() if v is not None})
    try:
        return cls(**values)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors())
        raise fail(problems) from exc
