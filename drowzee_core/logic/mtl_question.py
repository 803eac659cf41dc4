"""Read a question in Drowzee's MTL template wording back into its formula and year (pure).

The inverse of `generate.templates_mtl.drowzee_question` (Table III of Drowzee's temporal extension):
"Did Event1 finally happen within the time frame of the 2nd to the 5th after the year 1900 onwards;
where Event1 is Boxer_Rebellion happen?" reads as `Finally[2, 5](Atom(Boxer_Rebellion)), 1900`.
Atoms keep the wording of their event ("the birth of Stowe"); `EventTable.resolve` links them.

Nested parts are named `Event1`, `Event2`, ... and each name is unique, so a binary part's two
descriptions split at the one place " and EventK is " occurs for its right-hand name, whatever the
event names themselves contain. Every window must name the question's year. A question in any other
wording reads as None.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from drowzee_core.logic.mtl import (
    Atom,
    Conj,
    Disj,
    Finally,
    Formula,
    Globally,
    MTLQuery,
    MTLSyntaxError,
    Neg,
    Next,
    Until,
    validate,
)

MAX_QUESTION_CHARS = 4_000
"""Longest question read (longer ones are not a template question)."""

_ORD = r"(\d{1,4})(?:st|nd|rd|th)"
_WINDOW = rf"the {_ORD} to the {_ORD} after the year (-?\d{{1,4}}) onwards"
_E = r"(Event\d{1,3})"
_WINDOWED = re.compile(rf"{_E} (finally|globally) happen within the time frame of {_WINDOW}; where \1 is (.+)", re.S)
_NEXT = re.compile(rf"{_E} happen in the next year; where \1 is (.+)", re.S)
_NEG = re.compile(rf"{_E} not happen; where \1 is (.+)", re.S)
_UNTIL = re.compile(
    rf"{_E} happen continuously until {_E} started, during the period from {_WINDOW}; where \1 is (.+)", re.S
)
_BOTH = re.compile(rf"{_E} happen (and|or) {_E} (?:also )?happen; where \1 is (.+)", re.S)
_ATOM = re.compile(r"(.+) happen", re.S)
_LABEL = re.compile(r"Event\d{1,3} ")
"""A part's name followed by more words: a description no template reads, never an event name."""
_TOP_WINDOWED = re.compile(r"Did (.+)\?", re.S)
_TOP_AT = re.compile(r"At year (-?\d{1,4}), did (.+)\?", re.S)
_BINARY: dict[str, Callable[[Formula, Formula], Formula]] = {"and": Conj, "or": Disj}


class _NotTemplateError(ValueError):
    """The text is not in the template wording."""


def _split(rest: str, right: str) -> tuple[str, str]:
    """`LEFT and RIGHT is R` -> (LEFT, R), split where " and RIGHT is " occurs (once)."""
    sep = f" and {right} is "
    if rest.count(sep) != 1:
        raise _NotTemplateError(f"expected one {sep.strip()!r}")
    left, described = rest.split(sep)
    return left, described


def _window(lo: str, hi: str, year: str, expected: int | None) -> tuple[int, int, int]:
    if expected is not None and int(year) != expected:
        raise _NotTemplateError(f"window after {year}, question at {expected}")
    return int(lo), int(hi), int(year)


def _describe(text: str, year: int | None) -> tuple[Formula, int | None]:
    """The formula a description names, and the year its windows give (None when it has none)."""
    if m := _WINDOWED.fullmatch(text):
        lo, hi, at = _window(m[3], m[4], m[5], year)
        child, _ = _describe(m[6], at)
        op = Finally if m[2] == "finally" else Globally
        return op(lo, hi, child), at
    if m := _UNTIL.fullmatch(text):
        lo, hi, at = _window(m[3], m[4], m[5], year)
        left_text, right_text = _split(m[6], m[2])
        left, _ = _describe(left_text, at)
        right, _ = _describe(right_text, at)
        return Until(lo, hi, left, right), at
    if m := _BOTH.fullmatch(text):
        left_text, right_text = _split(m[4], m[3])
        left, found = _describe(left_text, year)
        right, found_right = _describe(right_text, found if found is not None else year)
        return _BINARY[m[2]](left, right), found if found is not None else found_right
    if m := _NEXT.fullmatch(text):
        child, found = _describe(m[2], year)
        return Next(child), found
    if m := _NEG.fullmatch(text):
        child, found = _describe(m[2], year)
        return Neg(child), found
    if (m := _ATOM.fullmatch(text)) and not _LABEL.match(m[1]):
        return Atom(m[1].strip()), year
    raise _NotTemplateError(f"no template reads {text[:60]!r}")


def read_mtl_question(text: str) -> MTLQuery | None:
    """The MTL query a template-worded question asks; None for any other question.

    Example:
        >>> q = read_mtl_question("At year 1999, did Event1 not happen; where Event1 is the euro happen?")
        >>> q.year, q.formula
        (1999, Neg(child=Atom(name='the euro')))

    """
    text = " ".join(text.split())
    if not text or len(text) > MAX_QUESTION_CHARS:
        return None
    try:
        if m := _TOP_AT.fullmatch(text):
            year = int(m[1])
            formula, _ = _describe(m[2], year)
        elif m := _TOP_WINDOWED.fullmatch(text):
            formula, found = _describe(m[1], None)
            if found is None or isinstance(formula, Atom):
                return None
            year = found
        else:
            return None
        return MTLQuery(validate(formula), year)
    except (_NotTemplateError, MTLSyntaxError, RecursionError):
        return None


__all__ = ["MAX_QUESTION_CHARS", "read_mtl_question"]
