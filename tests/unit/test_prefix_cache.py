"""The model server's prompt-prefix reuse: when it reuses, how much, and that the kept cache is never changed."""

from __future__ import annotations

from typing import Any

from drowzee_core.llm.prefix_cache import PrefixCache, shared_prefix


class FakeCache:
    """What `PrefixCache` uses of a transformers cache: its length and a crop by a negative count."""

    def __init__(self, length: int) -> None:
        self.length = length

    def get_seq_length(self) -> int:
        return self.length

    def crop(self, n: int) -> None:
        assert n <= 0, "a positive count is not a removal"
        self.length += n


def ids(shared: int, own: int, tag: int) -> list[int]:
    return list(range(shared)) + [1000 * tag + i for i in range(own)]


def test_shared_prefix() -> None:
    assert shared_prefix([1, 2, 3], [1, 2, 4, 5]) == 2
    assert shared_prefix([], [1]) == 0
    assert shared_prefix([1, 2], [1, 2]) == 2


def test_reuses_the_shared_part_only() -> None:
    pc = PrefixCache()
    first = ids(100, 20, 1)
    assert pc.start("m", first) is None  # nothing kept yet
    kept = FakeCache(len(first) + 1)  # the prompt and one generated token
    pc.remember("m", first, kept)
    start: Any = pc.start("m", ids(100, 30, 2))
    assert start is not None and start.get_seq_length() == 100
    assert kept.get_seq_length() == len(first) + 1  # the kept cache is copied, never cut
    assert pc.reused_tokens == 100


def test_always_leaves_the_last_token_to_compute() -> None:
    pc = PrefixCache()
    prompt = ids(80, 0, 1)
    pc.remember("m", prompt, FakeCache(81))
    start: Any = pc.start("m", prompt)  # the same prompt again: its logits still need a forward pass
    assert start.get_seq_length() == 79


def test_no_reuse_below_the_minimum_across_models_or_past_the_window() -> None:
    pc = PrefixCache(window=512)
    pc.remember("m", ids(20, 50, 1), FakeCache(70))
    assert pc.start("m", ids(20, 50, 2)) is None  # 20 shared tokens: below MIN_SHARED
    pc.remember("m", ids(100, 5, 1), FakeCache(105))
    assert pc.start("other", ids(100, 5, 2)) is None
    assert pc.start("m", ids(600, 5, 2)) is None  # longer than the sliding window: computed in full
    pc.remember("m", ids(600, 5, 3), FakeCache(605))
    assert pc.start("m", ids(100, 9, 4)) is None  # a prompt past the window is not kept either


def test_of_reads_the_window_from_the_config() -> None:
    class Config:
        sliding_window = 512

    class Model:
        config = Config()

    assert PrefixCache.of(Model()).window == 512
    assert PrefixCache.of(object()).window is None
