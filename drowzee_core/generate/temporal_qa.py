"""Temporal questions with proven answers: random MTL formulas over events, asked at chosen years.

Each case is balanced by construction (cases alternate between a true and a false target), and the
answer comes from the Prolog encoding (`TemporalEngine`), never from the generator's intent: the year
is picked from the formula's computed intervals (true) or outside them (false), and the case stores
those intervals and every fact behind the atoms, so it can be re-proved.
"""

from __future__ import annotations

import bisect
import logging
import random
from collections.abc import Callable
from dataclasses import asdict, dataclass, field

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.splits import SplitPlan
from drowzee_core.generate.templates_mtl import drowzee_question, readable_question
from drowzee_core.logic.events import Event, EventTable
from drowzee_core.logic.mtl import (
    OPERATORS,
    Atom,
    Conj,
    Disj,
    Finally,
    Formula,
    Globally,
    MTLQuery,
    Neg,
    Next,
    Until,
    depth,
    operator_name,
    subformulas,
)
from drowzee_core.logic.mtl_encode import contains
from drowzee_core.logic.mtl_syntax import query_to_drowzee, to_json
from drowzee_core.logic.temporal import TemporalEngine, event_sentence, formula_sentence
from drowzee_core.records.cases import Interval, TemporalCase, TemporalConclusion, TemporalEventRef, TemporalParams
from drowzee_core.records.enums import Split, YesNo
from prompts import render

log = logging.getLogger(__name__)

TOP_OPERATORS = tuple(o for o in OPERATORS if o != "Atom")
MAX_ATTEMPTS = 200


@dataclass(frozen=True, slots=True)
class TemporalQAConfig:
    """What to generate; validated at construction."""

    n: int
    seed: int = 0
    operators: tuple[str, ...] = TOP_OPERATORS
    """Top-level operators, used in turn (so each gets an equal share)."""
    max_depth: int = 2
    """Operator nesting depth of a formula (1: one operator over atoms)."""
    max_window: int = 20
    """Windows [a, b] of F, G and U have 0 <= a <= b <= max_window."""
    boundary_share: float = 0.4
    """Share of years picked at an interval boundary (+-1), where models slip most."""
    id_prefix: str = "temporal"

    def __post_init__(self) -> None:
        if self.n < 1:
            raise DrowzeeError(f"`n` must be >= 1, got {self.n}")
        bad = [o for o in self.operators if o not in TOP_OPERATORS]
        if bad or not self.operators:
            raise DrowzeeError(f"`operators` must be a non-empty subset of {list(TOP_OPERATORS)}, got {bad or '[]'}")
        if not 1 <= self.max_depth <= 6:
            raise DrowzeeError(f"`max_depth` must be in [1, 6], got {self.max_depth}")
        if not 1 <= self.max_window <= 500:
            raise DrowzeeError(f"`max_window` must be in [1, 500], got {self.max_window}")
        if not 0.0 <= self.boundary_share <= 1.0:
            raise DrowzeeError(f"`boundary_share` must be in [0, 1], got {self.boundary_share}")


@dataclass(slots=True)
class _Sampler:
    rng: random.Random
    events: list[Event]
    starts: list[int]
    cfg: TemporalQAConfig
    used: dict[str, Event] = field(default_factory=dict)

    def event_near(self, anchor: Event | None) -> Event:
        if anchor is None:
            return self.rng.choice(self.events)
        # a neighbour in start order, so that two events of one formula overlap or nearly do
        i = bisect.bisect_left(self.starts, anchor.intervals[0][0])
        j = min(len(self.events) - 1, max(0, i + self.rng.randint(-25, 25)))
        return self.events[j]

    def window(self) -> tuple[int, int]:
        if self.rng.random() < 0.05:
            return 0, 0
        lo = self.rng.randint(0, self.cfg.max_window // 2)
        return lo, self.rng.randint(lo, self.cfg.max_window)

    def formula(self, op: str, levels: int, anchor: Event | None) -> Formula:
        def sub() -> Formula:
            if levels <= 1 or self.rng.random() < 0.5:
                event = self.event_near(anchor)
                self.used[event.key] = event
                return Atom(event.key)
            return self.formula(self.rng.choice(TOP_OPERATORS), levels - 1, anchor)

        if op in ("Finally", "Globally"):
            lo, hi = self.window()
            return (Finally if op == "Finally" else Globally)(lo, hi, sub())
        if op == "Next":
            return Next(sub())
        if op == "Neg":
            return Neg(sub())
        left, right = sub(), sub()
        if op == "Until":
            lo, hi = self.window()
            return Until(lo, hi, left, right)
        return (Conj if op == "Conj" else Disj)(left, right)


def _pick_year(
    rng: random.Random, intervals: list[Interval], span: tuple[int, int], want: bool, boundary_share: float
) -> int | None:
    """A year in [span] where the formula's truth is `want`, or None when there is none."""
    lo, hi = span
    if want:
        inside = [(max(s, lo), min(e, hi)) for s, e in intervals if s <= hi and e >= lo]
        if not inside:
            return None
        s, e = rng.choice(inside)
        if rng.random() < boundary_share:
            return rng.choice((s, e))
        return rng.randint(s, e)
    if rng.random() < boundary_share:
        edges = [y for s, e in intervals for y in (s - 1, e + 1) if lo <= y <= hi and not contains(intervals, y)]
        if edges:
            return rng.choice(edges)
    for _ in range(50):
        y = rng.randint(lo, hi)
        if not contains(intervals, y):
            return y
    return None


def generate_temporal_qa(
    engine: TemporalEngine,
    cfg: TemporalQAConfig,
    name: Callable[[str], str] | None = None,
    progress: Callable[[int], None] | None = None,
    plan: SplitPlan | None = None,
) -> list[TemporalCase]:
    """Generate `cfg.n` cases over the engine's events (see the module docstring for guarantees).

    Each case is split by its event keys under `plan` (default: `SplitPlan()`).
    """
    plan = plan or SplitPlan()
    params = TemporalParams.model_validate(asdict(cfg) | {"operators": list(cfg.operators)})
    rng = random.Random(cfg.seed)
    label = name or (lambda key: engine.table.events[key].label)
    # a question names events by label: one several events share ("the lifetime of Curie", "Ypres") would
    # make the question ambiguous, so only events their label names alone are drawn
    events = sorted(
        (e for e in engine.table if e.intervals and len(engine.table.candidates(label(e.key))) == 1),
        key=lambda e: (e.intervals[0][0], e.key),
    )
    if len(events) < 2:
        raise DrowzeeError(
            "temporal generation needs at least two events with intervals whose names are unique; load facts with years"
        )
    hlo, hhi = engine.horizon
    starts = [e.intervals[0][0] for e in events]
    cases: list[TemporalCase] = []
    for i in range(cfg.n):
        want = i % 2 == 0
        op = cfg.operators[(i // 2) % len(cfg.operators)]
        for _attempt in range(MAX_ATTEMPTS):
            sampler = _Sampler(rng, events, starts, cfg)
            anchor = rng.choice(events)
            formula = sampler.formula(op, rng.randint(1, cfg.max_depth), anchor)
            intervals = engine.intervals(formula)
            first = min(s for e in sampler.used.values() for s, _ in e.intervals)
            last = max(x for e in sampler.used.values() for _, x in e.intervals)
            span = (max(hlo, first - cfg.max_window - 10), min(hhi, last + cfg.max_window + 10))
            if span[0] > span[1]:
                continue
            year = _pick_year(rng, intervals, span, want, cfg.boundary_share)
            if year is not None:
                break
        else:
            raise DrowzeeError(
                f"could not build a {'true' if want else 'false'} {op} case in {MAX_ATTEMPTS} attempts;"
                " the events may be too few or all outside the horizon"
            )
        truth = contains(intervals, year)
        assert truth == want  # the year was chosen from the computed intervals
        refs = [
            TemporalEventRef(
                key=e.key, label=e.label, intervals=list(e.intervals), facts=list(e.facts), domain=e.domain
            )
            for e in sampler.used.values()
        ]
        query = MTLQuery(formula, year)
        case_id = f"{cfg.id_prefix}-{cfg.seed}-{i:06d}"
        cases.append(_case(case_id, query, intervals, refs, (hlo, hhi), params, label, plan))
        if progress:
            progress(i + 1)
    return cases


def _case(
    case_id: str,
    query: MTLQuery,
    intervals: list[Interval],
    events: list[TemporalEventRef],
    horizon: Interval,
    params: TemporalParams,
    label: Callable[[str], str],
    plan: SplitPlan,
) -> TemporalCase:
    """One decided query as a record: the temporal fields plus the fields every QA case has.

    The split is by event keys, the domain is the first event's, the rule is the top operator, and
    the gold reasoning states each event's years, then the formula's, then the answer.
    """
    formula, year = query.formula, query.year
    truth = contains(intervals, year)
    mtl = query_to_drowzee(query)
    answer = YesNo.YES if truth else YesNo.NO
    operators = sorted({operator_name(g) for g in subformulas(formula)} - {"Atom"})
    reasoning = [event_sentence(e.label, e.intervals) for e in events]
    reasoning += [formula_sentence(formula, intervals, year), f"So the answer is {answer}."]
    keys = [e.key for e in events]
    split = plan.case_split(keys)
    question = drowzee_question(formula, year, label)
    return TemporalCase(
        id=case_id,
        mtl=mtl,
        formula=to_json(formula),
        year=year,
        operator=operator_name(formula),
        operators=operators,
        depth=depth(formula),
        question=question,
        question_readable=readable_question(formula, year, label),
        answer=answer,
        truth=truth,
        intervals=intervals,
        events=events,
        horizon=horizon,
        config=params,
        split=None if split is None else Split(split),
        domain=next((e.domain for e in events if e.domain), "unspecified"),
        rule=operator_name(formula),
        rule_detail="+".join(operators),
        form="positive",
        entities=keys,
        facts=[f for e in events for f in e.facts],
        conclusion=TemporalConclusion(mtl=mtl, year=year, truth=truth, intervals=intervals),
        reasoning=reasoning,
        prompt=render("drowzee_qa", question=question),
    )


def generate_temporal_records(
    table: EventTable,
    horizon: tuple[int, int],
    cfg: TemporalQAConfig,
    plan: SplitPlan,
    split: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> list[TemporalCase]:
    """Temporal cases over `table`; with `split`, only over that split's events.

    Restricting the events (not filtering cases) keeps every event of a `split` case in that split.
    """
    if split is not None:
        sub = EventTable()
        for e in table:
            if plan.admits(e.key, split):
                sub.add(e)
        table = sub
    engine = TemporalEngine(table, horizon)
    return generate_temporal_qa(engine, cfg, progress=progress, plan=plan)
