"""The executable definition of MTL truth over years (pure; slow; the oracle for the encoder).

It reads Definition 1 point by point, with no interval arithmetic, so that the Prolog encoding
(`mtl_encode.py` + `prolog/mtl.pl`) can be checked against it on random formulas.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from drowzee_core.logic.mtl import Atom, Conj, Disj, Finally, Formula, Globally, Neg, Next, Until
from drowzee_core.records.cases import Interval


class ReferenceEvaluator:
    """Truth of formulas at single years, given each atom's intervals and the negation horizon."""

    def __init__(self, events: Mapping[str, Sequence[Interval]], horizon: Interval) -> None:
        self.events = events
        self.lo, self.hi = horizon
        self._memo: dict[tuple[Formula, int], bool] = {}

    def holds(self, f: Formula, t: int) -> bool:
        """Whether `f` holds at year `t`."""
        key = (f, t)
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = self._holds(f, t)
        return hit

    def _holds(self, f: Formula, t: int) -> bool:
        if isinstance(f, Atom):
            return any(s <= t <= e for s, e in self.events.get(f.name, ()))
        if isinstance(f, Next):
            return self.holds(f.child, t + 1)
        if isinstance(f, Finally):
            return any(self.holds(f.child, u) for u in range(t + f.lo, t + f.hi + 1))
        if isinstance(f, Globally):
            return all(self.holds(f.child, u) for u in range(t + f.lo, t + f.hi + 1))
        if isinstance(f, Until):
            return any(
                self.holds(f.right, u) and all(self.holds(f.left, v) for v in range(t, u))
                for u in range(t + f.lo, t + f.hi + 1)
            )
        if isinstance(f, Neg):
            return self.lo <= t <= self.hi and not self.holds(f.child, t)
        if isinstance(f, Conj):
            return self.holds(f.left, t) and self.holds(f.right, t)
        if isinstance(f, Disj):
            return self.holds(f.left, t) or self.holds(f.right, t)
        raise TypeError(f"not a formula: {f!r}")

    def years(self, f: Formula, start: int, end: int) -> list[int]:
        """The years in [start, end] where `f` holds."""
        return [t for t in range(start, end + 1) if self.holds(f, t)]
