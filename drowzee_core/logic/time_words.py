"""A claim put in time by a time word ("until 2001", "since 1999", "before", "by", "after"), as MTL (pure).

Each time word is a Metric Temporal Logic formula over one atom, the claim's fact, read at one year.
The fact's dated periods are the atom's intervals; an open period holds to the horizon's end. The formula
is evaluated by the executable definition of MTL truth (`mtl_reference`), the same semantics as
the Prolog encoding Drowzee's temporal questions are answered with:

| time word | formula | read at |
| --- | --- | --- |
| in Y | `Atom(f)` | Y |
| until Y | `Conj(Atom(f), Finally[1, 3](Neg(Atom(f))))`: held in Y - 1, stopped after Y - 1, Y or Y + 1 | Y - 1 |
| since Y | `Conj(Neg(Atom(f)), Finally[1, 3](Atom(f)))`: began in Y - 1, Y or Y + 1 | Y - 2 |
| before Y | `Finally[0, Y - 1 - lo](Atom(f))`: at some year from the horizon's start to Y - 1 | lo |
| by Y | `Finally[0, Y - lo](Atom(f))` | lo |
| after Y | `Finally[0, hi - Y - 1](Atom(f))`: at some year after Y, up to the horizon's end | Y + 1 |
| in the Ys (a decade) | `Finally[0, 9](Atom(f))`: at some year of the ten from Y | Y |

Both accept a year either side: the KB's years are those of dates ("1960-01-01" to "2002-02-17"), and
English says "until 2001" of a currency withdrawn early in 2002 as well as "until 2002". The horizon
runs from three years before the earliest period (or the claim's year) to three years after the
latest of `today` and the claim's year, so that negation is defined wherever the formulas look.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from drowzee_core.logic.mtl import Atom, Conj, Finally, Formula, Neg
from drowzee_core.logic.mtl_reference import ReferenceEvaluator
from drowzee_core.logic.mtl_syntax import to_drowzee
from drowzee_core.records.cases import Interval
from drowzee_core.records.enums import TimeWord

FACT = "fact"
"""The atom's name: the claim's fact."""


@dataclass(frozen=True, slots=True)
class TimedTruth:
    """Whether a fact's periods make a time-worded claim true, and the formula that decided it."""

    holds: bool
    formula: str
    """The formula in Drowzee's syntax, with the year it was read at ("..., 2000")."""
    periods: tuple[Interval, ...]
    """The fact's periods as evaluated (open ends closed at the horizon's end)."""


def horizon(periods: Sequence[Interval], year: int, today: int) -> Interval:
    """The years the formula may look at (module doc)."""
    starts = [s for s, _ in periods]
    return min([*starts, year]) - 3, max(today, year) + 3


def time_formula(word: TimeWord, year: int, span: Interval) -> tuple[Formula, int]:
    """The formula of a time word at a year, and the year it is read at (module doc)."""
    f = Atom(FACT)
    lo, hi = span
    if word == TimeWord.UNTIL:
        return Conj(f, Finally(1, 3, Neg(f))), year - 1
    if word == TimeWord.SINCE:
        return Conj(Neg(f), Finally(1, 3, f)), year - 2
    if word == TimeWord.BEFORE:
        return Finally(0, max(year - 1 - lo, 0), f), lo
    if word == TimeWord.BY:
        return Finally(0, max(year - lo, 0), f), lo
    if word == TimeWord.AFTER:
        return Finally(0, max(hi - year - 1, 0), f), year + 1
    if word == TimeWord.DECADE:
        return Finally(0, 9, f), year
    return f, year


def time_phrase(word: TimeWord, year: int) -> str:
    """A time word and its year as English says them ("until 1802", "in the 1730s")."""
    return f"in the {year}s" if word == TimeWord.DECADE else f"{word} {year}"


def timed_truth(
    word: TimeWord, year: int, periods: Sequence[tuple[int | None, int | None]], today: int
) -> TimedTruth | None:
    """Whether the fact's dated periods make "it holds <word> <year>" true; None when no period is dated.

    A period with no start holds from its fact's first dated year; one with no end still holds, through
    the horizon's end (so "until" a year never fits a fact that holds today).
    """
    dated = [(s, e) for s, e in periods if s is not None or e is not None]
    if not dated:
        return None
    first = min([s for s, _ in dated if s is not None] or [year])
    span = horizon([(first if s is None else s, today) for s, _ in dated], year, today)
    closed = tuple(sorted((first if s is None else s, span[1] if e is None else e) for s, e in dated))
    formula, at = time_formula(word, year, span)
    truth = ReferenceEvaluator({FACT: closed}, span).holds(formula, at)
    return TimedTruth(truth, f"{to_drowzee(formula)}, {at}", closed)


__all__ = ["FACT", "TimedTruth", "horizon", "time_formula", "time_phrase", "timed_truth"]
