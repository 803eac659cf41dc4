"""`derive` times each rule family on its own Prolog call (a scripted clock, no wall-clock asserts)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from drowzee_core.logic.reasoner import Reasoner
from tests.conftest import make_store

pytestmark = pytest.mark.integration


def _clock(readings: list[float]) -> Callable[[], float]:
    it = iter(readings)
    return lambda: next(it)


def test_each_family_is_timed_separately() -> None:
    store = make_store(
        [
            ("Paris", "located_in", "France"),
            ("France", "located_in", "Europe"),
            ("France", "shares_border_with", "Germany"),
            ("France", "has_capital", "Paris"),
            ("France", "has_currency", "Euro"),
        ]
    )
    engine = Reasoner(store).engine
    # start/stop readings of symmetric, inverse, transitive, inverse of the closure, composite:
    # they last 1, 2, 3, 4 and 5 "seconds"; the old code split one joint level-1 call in halves
    clock = _clock([0, 1, 10, 12, 20, 23, 30, 34, 40, 45])
    seen: list[str] = []
    runs = {str(r.family): r for r in engine.derive(seen.append, clock=clock)}
    assert seen == ["symmetric", "inverse", "transitive", "inverse_of_closure", "composite"]
    assert {f: r.seconds for f, r in runs.items()} == {
        "symmetric": 1,
        "inverse": 2 + 4,
        "transitive": 3,
        "composite": 5,
    }
    assert runs["symmetric"].facts == 1 and runs["transitive"].facts == 1  # Germany-France; Paris-Europe
    assert engine.prepared and engine.count("prepared") == 1  # the Prolog side knows level 1 is done
