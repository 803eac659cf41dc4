"""Wording of MTL questions (pure): Drowzee's templates (paper Table III) and a readable sentence.

Drowzee's template names nested parts `Event1`, `Event2`, ... and says what each is:
"Did Event1 finally happen within the time frame of the 2nd to the 5th after the year 1900 onwards;
where Event1 is Boxer_Rebellion happen?". The readable form spells the years out instead:
"Did the Boxer Rebellion take place at some point between 1902 and 1905?" for a single operator,
and nests "in that year" clauses for deeper formulas.
"""

from __future__ import annotations

from collections.abc import Callable

from drowzee_core.logic.mtl import Atom, Conj, Disj, Finally, Formula, Globally, Neg, Next, Until


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st ..."""
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def drowzee_question(f: Formula, year: int, name: Callable[[str], str] = str) -> str:
    """The question in Drowzee's template wording (Table III of the temporal extension)."""
    counter = [0]

    def fresh() -> str:
        counter[0] += 1
        return f"Event{counter[0]}"

    def window(lo: int, hi: int) -> str:
        return f"the {ordinal(lo)} to the {ordinal(hi)} after the year {year} onwards"

    def describe(g: Formula) -> str:
        if isinstance(g, Atom):
            return f"{name(g.name)} happen"
        if isinstance(g, Finally | Globally | Next | Neg):
            inner = fresh()
            if isinstance(g, Finally):
                head = f"{inner} finally happen within the time frame of {window(g.lo, g.hi)}"
            elif isinstance(g, Globally):
                head = f"{inner} globally happen within the time frame of {window(g.lo, g.hi)}"
            elif isinstance(g, Next):
                head = f"{inner} happen in the next year"
            else:
                head = f"{inner} not happen"
            return f"{head}; where {inner} is {describe(g.child)}"
        left, right = fresh(), fresh()
        lw = describe(g.left)
        rw = describe(g.right)
        if isinstance(g, Until):
            head = f"{left} happen continuously until {right} started, during the period from {window(g.lo, g.hi)}"
        elif isinstance(g, Conj):
            head = f"{left} happen and {right} also happen"
        else:
            head = f"{left} happen or {right} happen"
        return f"{head}; where {left} is {lw} and {right} is {rw}"

    if isinstance(f, Atom):
        return f"At year {year}, did {name(f.name)} happen?"
    body = describe(f)
    if isinstance(f, Finally | Globally | Until):
        return f"Did {body}?"
    return f"At year {year}, did {body}?"


def readable_question(f: Formula, year: int, name: Callable[[str], str] = str) -> str:
    """A plain-English question with the years spelled out."""
    return "Is it true that " + _clause(f, year, name, depth=0) + "?"


def _when(year: int | None) -> str:
    return f"in {year}" if year is not None else "in that year"


def _clause(f: Formula, year: int | None, name: Callable[[str], str], depth: int) -> str:
    """`f` at `year` (None: a year bound by an enclosing 'some'/'every' year)."""
    when = _when(year)
    if isinstance(f, Atom):
        return f"{name(f.name)} was taking place {when}"
    if isinstance(f, Next):
        if year is not None:
            return _clause(f.child, year + 1, name, depth)
        return f"in the year after that, {_clause(f.child, None, name, depth + 1)}"
    if isinstance(f, Neg):
        return f"it is not the case that {_clause(f.child, year, name, depth)}"
    if isinstance(f, Conj | Disj):
        word = "and" if isinstance(f, Conj) else "or"
        parts = []
        for side in (f.left, f.right):
            text = _clause(side, year, name, depth)
            parts.append(f"({text})" if depth or isinstance(side, Conj | Disj) else text)
        return f"{parts[0]} {word} {parts[1]}"
    span = (
        f"between {year + f.lo} and {year + f.hi}"
        if year is not None
        else f"from {f.lo} to {f.hi} years after that year"
    )
    if isinstance(f, Finally):
        return f"at some year {span}, {_clause(f.child, None, name, depth + 1)}"
    if isinstance(f, Globally):
        return f"in every year {span}, {_clause(f.child, None, name, depth + 1)}"
    assert isinstance(f, Until)
    start = f"{year}" if year is not None else "that year"
    right = _clause(f.right, None, name, depth + 1)
    if isinstance(f.left, Atom):
        return f"{name(f.left.name)} went on without a break from {start} until some year {span} in which {right}"
    left = _clause(f.left, None, name, depth + 1)
    return f"from {start} on, every year met the condition that {left}, until some year {span} in which {right}"
