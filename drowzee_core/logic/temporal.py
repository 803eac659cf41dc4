"""Evaluate MTL queries against events in Prolog (through `session`).

Events cross into Prolog as integer ids with their intervals; formulas as integer programs
(`mtl_encode.encode`). Names never become Prolog source.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from drowzee_core.errors import LogicError
from drowzee_core.logic import session
from drowzee_core.logic.events import Event, EventTable
from drowzee_core.logic.mtl import Formula, MTLQuery
from drowzee_core.logic.mtl_encode import bind_atoms, contains, encode
from drowzee_core.logic.mtl_syntax import to_drowzee
from drowzee_core.records.cases import Interval

AUTHORS_HORIZON: Interval = (0, 2024)
"""The Drowzee authors' horizon: it belongs to their `facts.pl` and their queries' `res` values."""


def kb_horizon(today: date | None = None) -> Interval:
    """The horizon for events from the KB: year 0 through the current year ("present" is today)."""
    return (0, (today or date.today()).year)


def default_horizon(fact_file: bool, today: date | None = None) -> Interval:
    """`AUTHORS_HORIZON` for a Drowzee fact file, else `kb_horizon` (KB events run to today)."""
    return AUTHORS_HORIZON if fact_file else kb_horizon(today)


BATCH = 500


def years_text(intervals: Sequence[Interval]) -> str:
    """`1797-1801, 1811` (a single year once); `no year` for an empty set."""
    return ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in intervals) or "no year"


def event_sentence(label: str, intervals: Sequence[Interval]) -> str:
    """An event's years as a sentence, `The birth of Stowe holds in 1811.` (gold reasoning and proofs)."""
    return f"{label[:1].upper() + label[1:]} holds in {years_text(intervals)}."


def formula_sentence(formula: Formula, intervals: Sequence[Interval], year: int) -> str:
    """Where a formula holds and whether `year` is among those years, as one sentence (gold reasoning and proofs)."""
    among = "is" if contains(list(intervals), year) else "is not"
    return f"The formula {to_drowzee(formula)} holds in {years_text(intervals)}, and {year} {among} among those years."


@dataclass(frozen=True, slots=True)
class TemporalAnswer:
    """Truth of a query at its year, the formula's intervals, and the events it used."""

    truth: bool
    intervals: list[Interval]
    events: list[Event]
    missing: list[str]


class TemporalEngine:
    """Events loaded into Prolog, and MTL evaluation over them with a negation horizon.

    Like `PrologEngine`, one instance per process: a new engine replaces the events of the last.
    """

    _generation = 0

    def __init__(self, table: EventTable, horizon: Interval) -> None:
        lo, hi = horizon
        if lo > hi:
            raise LogicError(f"horizon [{lo}, {hi}] is empty; give LO <= HI")
        session.ensure_loaded()
        TemporalEngine._generation += 1
        self._generation_id = TemporalEngine._generation
        self.table = table
        self.horizon = horizon
        self._ids: dict[str, int] = {}
        self._call("drowzee_mtl:reset_events")
        rows: list[tuple[int, int, int]] = []
        for i, event in enumerate(table):
            self._ids[event.key] = i
            rows.extend((i, s, e) for s, e in event.intervals)
        for k in range(0, len(rows), 50_000):
            self._call("drowzee_mtl:load_events(L)", {"L": rows[k : k + 50_000]})

    @property
    def current(self) -> bool:
        """Whether this engine's events are still the ones loaded (no newer engine replaced them)."""
        return self._generation_id == TemporalEngine._generation

    def _call(self, goal: str, inputs: dict[str, object] | None = None) -> dict[str, object]:
        if not self.current:
            raise LogicError("this TemporalEngine's events were replaced by a newer engine; keep one per process")
        return session.call(goal, inputs)

    def _bind(self, formula: Formula) -> tuple[list[tuple[int, int, int, int, int, int]], list[Event], list[str]]:
        program = encode(formula)
        ids, used, missing = [], [], []
        for name in program.atoms:
            event = self.table.resolve(name)
            if event is None:
                ids.append(-1)  # an unknown event has no intervals: it never holds
                missing.append(name)
            else:
                ids.append(self._ids[event.key])
                used.append(event)
        return bind_atoms(program, ids), used, missing

    def _evaluate(self, programs: Sequence[list[tuple[int, int, int, int, int, int]]]) -> list[list[Interval]]:
        out: list[list[Interval]] = []
        lo, hi = self.horizon
        for k in range(0, len(programs), BATCH):
            batch = list(programs[k : k + BATCH])
            results = self._call("drowzee_mtl:eval_batch(P, Lo, Hi, R)", {"P": batch, "Lo": lo, "Hi": hi})["R"]
            assert isinstance(results, list)
            out.extend([(int(s), int(e)) for s, e in r] for r in results)
        return out

    def intervals_many(self, formulas: Sequence[Formula]) -> list[list[Interval]]:
        """The interval sets of many formulas (batched Prolog calls)."""
        return self._evaluate([self._bind(f)[0] for f in formulas])

    def intervals(self, formula: Formula) -> list[Interval]:
        """The set of years (as closed intervals) where `formula` holds."""
        return self.intervals_many([formula])[0]

    def check_many(self, queries: Sequence[MTLQuery]) -> list[TemporalAnswer]:
        """Answer many queries: truth at each query's year, with intervals and events used."""
        bound = [self._bind(q.formula) for q in queries]
        sets = self._evaluate([rows for rows, _, _ in bound])
        return [
            TemporalAnswer(contains(iv, q.year), iv, used, missing)
            for q, iv, (_, used, missing) in zip(queries, sets, bound, strict=True)
        ]

    def check(self, query: MTLQuery) -> TemporalAnswer:
        """Answer one query."""
        return self.check_many([query])[0]
