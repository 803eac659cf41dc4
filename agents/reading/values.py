"""Typed values in text (pure): years and numbers as a KB writes them.

A year is a 3- or 4-digit number that a date phrase may surround ("in 1879", "back in 1879", "on
4 July 1776", "in the year 1776"); a decade ("the 1870s") is no single year and is not read. A
number may carry thousands commas ("3,784,539") or a scale word ("67 million" -> 67000000; the KB
check then decides it within its own tolerance rules, never by rounding here).
"""

from __future__ import annotations

import re

_YEAR = re.compile(r"^(?:1\d{3}|20\d{2}|[1-9]\d{2})$")
_NUMBER = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^\d+(?:\.\d+)?$")
SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}


def as_year(text: str) -> int | None:
    """The year a token names ("1879"), or None (a decade, a longer number, a word)."""
    t = text.strip()
    return int(t) if _YEAR.match(t) else None


def as_number(text: str, scale: str | None = None) -> str | None:
    """A number token (with an optional scale word after it) as the KB writes numbers ("67000000"), or None."""
    t = text.strip()
    if not _NUMBER.match(t):
        return None
    value = float(t.replace(",", ""))
    if scale is not None:
        if scale.lower() not in SCALES:
            return None
        value *= SCALES[scale.lower()]
    return str(int(value)) if value.is_integer() else str(value)


__all__ = ["SCALES", "as_number", "as_year"]
