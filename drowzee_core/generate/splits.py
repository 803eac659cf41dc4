"""Deterministic train / dev / test splits by entity (pure).

Every entity key is hashed with the split seed into a bucket, so the same entity lands in the same
split in every generator and every run. A case belongs to the split that all of its *non-hub*
entities share; a case whose entities straddle two splits belongs to none and is dropped.
Therefore no non-hub entity of a test case appears in a training case.

Hubs are values that nearly every case mentions and that carry no case-specific knowledge:
continents, years, numbers, very general classes. Without the exemption almost every case would
straddle splits; the generators list the hubs they used in their summaries.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field

from drowzee_core.errors import DrowzeeError

SPLITS: tuple[str, ...] = ("train", "dev", "test")
DEFAULT_SHARES: tuple[float, float, float] = (0.8, 0.1, 0.1)


@dataclass(frozen=True, slots=True)
class SplitPlan:
    """How entities map to splits.

    Attributes:
        seed: Hash salt; another seed gives another, equally deterministic, assignment.
        shares: Fractions of entities in train, dev and test (sum 1).
        hubs: Entity keys exempt from the entity rule (shared by all splits).

    """

    seed: int = 0
    shares: tuple[float, float, float] = DEFAULT_SHARES
    hubs: frozenset[str] = field(default_factory=frozenset)

    def __post_init__(self) -> None:
        if len(self.shares) != 3 or any(s < 0 for s in self.shares) or abs(sum(self.shares) - 1) > 1e-9:
            raise DrowzeeError(f"split shares must be three non-negative numbers that sum to 1, got {self.shares}")

    def entity_split(self, key: str) -> str:
        """The split an entity key belongs to."""
        digest = hashlib.blake2b(f"{self.seed}\x00{key}".encode(), digest_size=8).digest()
        u = int.from_bytes(digest, "big") / 2**64
        train, dev, _ = self.shares
        return "train" if u < train else "dev" if u < train + dev else "test"

    def case_split(self, entities: Iterable[str]) -> str | None:
        """The split of a case that mentions `entities`, or None when they straddle splits.

        A case that mentions only hubs is assigned by the hash of its sorted entity keys.
        """
        keys = sorted(set(entities))
        own = {self.entity_split(k) for k in keys if k not in self.hubs}
        if not own:
            return self.entity_split("\x00".join(keys))
        return own.pop() if len(own) == 1 else None

    def admits(self, key: str, split: str | None) -> bool:
        """Whether a case mentioning `key` can still belong to `split` (None: any split)."""
        return split is None or key in self.hubs or self.entity_split(key) == split


def check_split(split: str | None) -> str | None:
    """Validate a split name given by a user."""
    if split is not None and split not in SPLITS:
        raise DrowzeeError(f"unknown split {split!r}; expected one of {', '.join(SPLITS)}")
    return split
