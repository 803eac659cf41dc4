"""Paths and defaults; explicit arguments beat environment variables, which beat defaults."""

from __future__ import annotations

import os
from pathlib import Path


def home() -> Path:
    """Drowzee's cache and data folder: $DROWZEE_CACHE, else ~/.cache/drowzee."""
    return Path(os.environ.get("DROWZEE_CACHE") or Path.home() / ".cache" / "drowzee")


def default_kb_path() -> Path:
    """The KB used when no --kb is given: $DROWZEE_KB, else <home>/kb/seed.sqlite."""
    env = os.environ.get("DROWZEE_KB")
    return Path(env) if env else home() / "kb" / "seed.sqlite"
