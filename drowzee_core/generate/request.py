"""Validation shared by every generator's config: how many, of which kinds, in which split (pure)."""

from __future__ import annotations

from collections.abc import Sequence

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.splits import check_split
from drowzee_core.kb.model import DOMAINS

MAX_CASES = 1_000_000


def check_request(
    n: int,
    chosen: Sequence[str],
    allowed: Sequence[str],
    what: str,
    split: str | None,
    domains: Sequence[str] | None = None,
) -> None:
    """Raise a DrowzeeError that says what to fix when a generation request is out of bounds."""
    if not 1 <= n <= MAX_CASES:
        raise DrowzeeError(f"`n` must be in [1, {MAX_CASES}], got {n}")
    bad = [c for c in chosen if c not in allowed]
    if bad or not chosen:
        raise DrowzeeError(f"{what} must be a non-empty subset of {list(allowed)}, got {bad or '[]'}")
    if domains is not None and (not domains or any(d not in DOMAINS for d in domains)):
        raise DrowzeeError(f"domains must be a non-empty subset of {list(DOMAINS)}, got {list(domains)}")
    check_split(split)


def check_share(name: str, value: float, low: float = 0.0, high: float = 1.0) -> None:
    """Raise unless low <= value <= high."""
    if not low <= value <= high:
        raise DrowzeeError(f"`{name}` must be in [{low:g}, {high:g}], got {value}")
