"""Prompt prefix reuse for the local model server: the key/value states of a prompt's shared beginning.

Every Guardian request begins with the same ~140 tokens (FactCHD's instruction) and differs only in
its question and answer; the benchmark's target prompts share their instructions too. The server keeps,
per served model (a base or one of its adapters), the last prompt's token ids and its cache
(`transformers` `DynamicCache`); a new prompt that shares at least `MIN_SHARED` leading tokens with it
starts from a copy of that cache cut to the shared part, so only its own tokens are computed. The
logits are those of the full computation (tested: equal). Prompts longer than the model's sliding
attention window are computed in full, since a sliding layer's cache cannot be cut back exactly.
"""

from __future__ import annotations

import copy
from typing import Any

MIN_SHARED = 32
"""Fewest shared leading tokens worth a copy of the cache."""


def shared_prefix(a: list[int], b: list[int]) -> int:
    """How many leading token ids `a` and `b` have in common."""
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


class PrefixCache:
    """The last prompt and its cache, per served model name."""

    def __init__(self, window: int | None = None, min_shared: int = MIN_SHARED) -> None:
        self.window = window
        self.min_shared = min_shared
        self._last: dict[str, tuple[list[int], Any]] = {}
        self.reused_tokens = 0

    @classmethod
    def of(cls, model: Any) -> PrefixCache:
        """The cache for a `transformers` model (its config's `sliding_window`, when it has one, bounds reuse)."""
        window = getattr(getattr(model, "config", None), "sliding_window", None)
        return cls(window=int(window) if window else None)

    def start(self, name: str, ids: list[int]) -> Any | None:
        """A cache to start `ids` from (a copy, cut to the shared prefix), or None to compute it all.

        At least the prompt's last token is always left to compute, so the model returns its logits.
        """
        if self.window is not None and len(ids) >= self.window:
            return None
        last = self._last.get(name)
        if last is None:
            return None
        tokens, cache = last
        n = min(shared_prefix(tokens, ids), len(ids) - 1)
        if n < self.min_shared:
            return None
        start = copy.deepcopy(cache)
        start.crop(-(start.get_seq_length() - n))  # a negative count removes that many trailing tokens
        self.reused_tokens += n
        return start

    def remember(self, name: str, ids: list[int], cache: Any | None) -> None:
        """Keep `cache` (the one generation returned for prompt `ids`) for the next prompt of `name`."""
        if cache is None or (self.window is not None and len(ids) >= self.window):
            self._last.pop(name, None)
            return
        self._last[name] = (list(ids), cache)


__all__ = ["MIN_SHARED", "PrefixCache", "shared_prefix"]
