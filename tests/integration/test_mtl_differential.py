"""The Prolog encoding against the reference semantics on random formulas and random events.

Each hypothesis example is one random event set (atoms with 0-3 possibly overlapping or adjacent
intervals), one random horizon and a batch of random nested formulas; every formula's interval set
from Prolog must equal, year by year over a window wider than the events, the set of years where the
reference evaluator says it holds. At least 10,000 formulas are checked.
"""

from __future__ import annotations

import logging

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drowzee_core.logic.events import Event, EventTable
from drowzee_core.logic.mtl import Atom, Formula
from drowzee_core.logic.mtl_encode import contains
from drowzee_core.logic.mtl_reference import ReferenceEvaluator
from drowzee_core.logic.mtl_syntax import to_drowzee
from drowzee_core.logic.temporal import TemporalEngine
from tests import strategies

pytestmark = pytest.mark.integration
log = logging.getLogger(__name__)

NAMES = ["a", "b", "c", "d"]  # "d" is never given intervals: an unknown event
EXAMPLES = 500
PER_EXAMPLE = 20
SPAN = (-30, 70)  # checked years; events lie in [-5, 40]


def formulas() -> st.SearchStrategy[Formula]:
    return strategies.formulas(st.sampled_from([Atom(n) for n in NAMES]), max_b=8, max_leaves=6)


def intervals() -> st.SearchStrategy[list[tuple[int, int]]]:
    one = st.tuples(st.integers(-5, 40), st.integers(0, 12)).map(lambda p: (p[0], p[0] + p[1]))
    return st.lists(one, max_size=3)


@st.composite
def cases(draw: st.DrawFn) -> tuple[dict[str, list[tuple[int, int]]], tuple[int, int], list[Formula]]:
    events = {n: draw(intervals()) for n in NAMES[:3]}
    lo = draw(st.integers(-10, 20))
    hi = draw(st.integers(lo, 50))
    return events, (lo, hi), draw(st.lists(formulas(), min_size=PER_EXAMPLE, max_size=PER_EXAMPLE))


def test_encoder_agrees_with_reference_semantics() -> None:
    seen = {"formulas": 0, "years": 0, "max_depth": 0}

    @settings(max_examples=EXAMPLES, derandomize=True, deadline=None, database=None)
    @given(cases())
    def check(case: tuple[dict[str, list[tuple[int, int]]], tuple[int, int], list[Formula]]) -> None:
        events, horizon, fs = case
        table = EventTable()
        for name, ivs in events.items():
            table.add(Event(name, name, tuple(ivs), ()))
        engine = TemporalEngine(table, horizon)
        ref = ReferenceEvaluator(events, horizon)
        for f, got in zip(fs, engine.intervals_many(fs), strict=True):
            want = ref.years(f, *SPAN)
            mine = [t for t in range(SPAN[0], SPAN[1] + 1) if contains(got, t)]
            assert mine == want, f"{to_drowzee(f)} events={events} horizon={horizon} prolog={got}"
            seen["formulas"] += 1
            seen["years"] += SPAN[1] - SPAN[0] + 1

    check()
    log.warning("MTL differential test: %d formulas, %d year checks, 0 disagreements", seen["formulas"], seen["years"])
    assert seen["formulas"] >= 10_000
