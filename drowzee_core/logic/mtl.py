"""Metric Temporal Logic over years: the typed AST and its helpers (pure).

Parsers and printers live in `mtl_syntax.py`. Two concrete syntaxes:

* Drowzee's, as written by its OCaml tool and found in its query files::

      Until[1, 3](Atom(Second_Industrial_Revolution), Atom(January_Uprising)), 1826

  Operators: ``Atom(name)``, ``Finally[a, b](f)``, ``Globally[a, b](f)``, ``Next(f)``,
  ``Until[a, b](f, g)``, ``Neg(f)``, ``Conj(f, g)``, ``Disj(f, g)``; the query year follows a comma.
* JSON: ``{"op": "until", "window": [1, 3], "left": {...}, "right": {...}}`` with ``{"atom": "name"}``
  leaves; a query is ``{"formula": {...}, "year": 1826}``.

Semantics (the point-based reading of Drowzee's Definition 1, over integer years ``t``):
``Finally[a,b] f`` holds at t iff f holds at some t' in [t+a, t+b]; ``Globally[a,b] f`` iff f holds at
every t' in [t+a, t+b]; ``Next f`` iff f holds at t+1; ``Until[a,b](f, g)`` iff g holds at some
t' in [t+a, t+b] and f holds at every year in [t, t'); ``Neg f`` iff t is inside the horizon and f does
not hold at t. See `mtl_reference.py` (the executable definition) and `mtl_encode.py` (the encoding).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import TypeAlias

from drowzee_core.errors import DrowzeeError

MAX_DEPTH = 64
MAX_TEXT = 20_000
MAX_NAME = 300
MAX_YEAR = 1_000_000


class MTLSyntaxError(DrowzeeError):
    """A formula could not be parsed; the message gives the position and what was expected."""


@dataclass(frozen=True, slots=True)
class Atom:
    """An event (or a KB fact with start/end years), true on the years its intervals cover."""

    name: str


@dataclass(frozen=True, slots=True)
class Finally:
    """``Finally[lo, hi](child)``: child holds at some year in [t+lo, t+hi]."""

    lo: int
    hi: int
    child: Formula


@dataclass(frozen=True, slots=True)
class Globally:
    """``Globally[lo, hi](child)``: child holds at every year in [t+lo, t+hi]."""

    lo: int
    hi: int
    child: Formula


@dataclass(frozen=True, slots=True)
class Next:
    """``Next(child)``: child holds at t+1."""

    child: Formula


@dataclass(frozen=True, slots=True)
class Until:
    """``Until[lo, hi](left, right)``: right at some t' in [t+lo, t+hi], left on every year of [t, t')."""

    lo: int
    hi: int
    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Neg:
    """``Neg(child)``: t is in the horizon and child does not hold at t."""

    child: Formula


@dataclass(frozen=True, slots=True)
class Conj:
    """``Conj(left, right)``: both hold at t."""

    left: Formula
    right: Formula


@dataclass(frozen=True, slots=True)
class Disj:
    """``Disj(left, right)``: at least one holds at t."""

    left: Formula
    right: Formula


Formula: TypeAlias = Atom | Finally | Globally | Next | Until | Neg | Conj | Disj
WINDOWED = (Finally, Globally, Until)
OPERATORS = ("Atom", "Finally", "Globally", "Next", "Until", "Neg", "Conj", "Disj")


@dataclass(frozen=True, slots=True)
class MTLQuery:
    """A formula asked at a year."""

    formula: Formula
    year: int


# ------------------------------------------------------------------ helpers
def children(f: Formula) -> tuple[Formula, ...]:
    """The direct subformulas of `f`, left to right."""
    if isinstance(f, Atom):
        return ()
    if isinstance(f, Finally | Globally | Next | Neg):
        return (f.child,)
    return (f.left, f.right)


def subformulas(f: Formula) -> Iterator[Formula]:
    """`f` and every subformula, pre-order, left to right (iterative: safe on deep input)."""
    stack = [f]
    while stack:
        g = stack.pop()
        yield g
        stack.extend(reversed(children(g)))


def atoms(f: Formula) -> list[str]:
    """Atom names of `f`, first occurrence order, without repeats."""
    return list(dict.fromkeys(g.name for g in subformulas(f) if isinstance(g, Atom)))


def depth(f: Formula) -> int:
    """Operator nesting depth (an atom has depth 0)."""
    kids = children(f)
    return 0 if not kids else 1 + max(depth(k) for k in kids)


def operator_name(f: Formula) -> str:
    """The operator's Drowzee name (``Atom``, ``Finally``, ...)."""
    return type(f).__name__


def check_window(lo: int, hi: int) -> None:
    """Raise unless 0 <= lo <= hi (the windows of F, G and U are bounded and non-empty)."""
    if not 0 <= lo <= hi <= MAX_YEAR:
        raise MTLSyntaxError(f"a window [a, b] needs 0 <= a <= b <= {MAX_YEAR}, got [{lo}, {hi}]")


def validate(f: Formula) -> Formula:
    """Check windows, names and depth of a formula built in code; returns it unchanged."""
    if depth(f) > MAX_DEPTH:
        raise MTLSyntaxError(f"formula nests deeper than {MAX_DEPTH} operators")
    for g in subformulas(f):
        if isinstance(g, Atom):
            check_name(g.name)
        if isinstance(g, WINDOWED):
            check_window(g.lo, g.hi)
    return f


def check_name(name: str) -> None:
    """Raise unless `name` is a usable atom name (non-empty, bounded, no NUL)."""
    if not name.strip():
        raise MTLSyntaxError("an atom needs a non-empty event name")
    if len(name) > MAX_NAME:
        raise MTLSyntaxError(f"atom name longer than {MAX_NAME} characters: {name[:40]!r}...")
    if "\x00" in name:
        raise MTLSyntaxError("atom names cannot contain NUL")
