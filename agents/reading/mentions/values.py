"""Typed values in text (pure): years and numbers as a KB writes them.

A year is a 3- or 4-digit number that a date phrase may surround ("in 1879", "back in 1879", "on
4 July 1776", "in the year 1776"); a decade ("the 1870s") is no single year and is not read. A
number may carry thousands commas ("3,784,539") or a scale word ("67 million" -> 67000000; the KB
check then decides it within its own tolerance rules, never by rounding here), or be written in
words ("sixty-seven million", "two hundred and five thousand"; `words_to_number`). A year may be
spoken in two-digit blocks ("nineteen eighty-nine"; `year_in_words`).
"""

from __future__ import annotations

import re
import unicodedata

_YEAR = re.compile(r"^(?:1\d{3}|20\d{2}|[1-9]\d{2})$")
_NUMBER = re.compile(r"^\d{1,3}(?:,\d{3})+(?:\.\d+)?$|^\d+(?:\.\d+)?$")
SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}


def as_year(text: str) -> int | None:
    """The year a token names ("1879"), or None (a decade, a longer number, a word)."""
    t = text.strip()
    return int(t) if _YEAR.match(t) else None


_DECADE = re.compile(r"^(1[0-9]|20)[1-9]0s$")


def as_decade(text: str) -> int | None:
    """The first year of a decade a token names ("1730s": 1730), or None ("the 1800s" may be a century)."""
    t = text.strip()
    return int(t[:-1]) if _DECADE.match(t) else None


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


_UNIT_WORDS = "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen"
_UNIT_WORDS += " sixteen seventeen eighteen nineteen"
UNITS = {w: i for i, w in enumerate(_UNIT_WORDS.split())}
_TEN_WORDS = "twenty thirty forty fifty sixty seventy eighty ninety"
TENS = {w: 10 * i for i, w in enumerate(_TEN_WORDS.split(), 2)}
NUMBER_WORDS = frozenset({*UNITS, *TENS, "hundred", *SCALES, "and"})


def words_to_number(words: list[str]) -> int | None:
    """The value of a number written in words ("sixty-seven million" -> 67000000), or None.

    Words: units, tens (a hyphenated "sixty-seven" is two), "hundred", the scale words and an inner
    "and" ("two hundred and five"). Anything else, a scale out of order ("thousand million"), or no
    number word at all gives None.
    """
    parts = [p for w in words for p in w.lower().split("-") if p]
    if not parts or parts[0] == "and" or parts[-1] == "and":
        return None
    total = current = 0
    last_scale = 10**18
    seen = False
    for p in parts:
        if p == "and":
            continue
        if p in UNITS:
            current += UNITS[p]
        elif p in TENS:
            current += TENS[p]
        elif p == "hundred":
            current = (current or 1) * 100
        elif p in SCALES:
            scale = SCALES[p]
            if scale >= last_scale:
                return None
            total += (current or 1) * scale
            current, last_scale = 0, scale
        else:
            return None
        seen = True
    return total + current if seen else None


YEAR_ZERO = frozenset({"oh", "o"})
"""The spoken zero of a year ("nineteen oh five")."""


def _two_digits(parts: list[str]) -> int | None:
    """The value of one spoken two-digit block ("nineteen", "eighty nine", "twenty"), or None."""
    if len(parts) == 1:
        return UNITS.get(parts[0], TENS.get(parts[0]))
    if len(parts) == 2 and parts[0] in TENS and 0 < UNITS.get(parts[1], 0) < 10:
        return TENS[parts[0]] + UNITS[parts[1]]
    return None


def year_in_words(words: list[str]) -> tuple[int, bool] | None:
    """A year spoken as two-digit blocks, and whether it may also be a plain number; or None.

    "nineteen eighty-nine" -> (1989, False), "twenty twenty" -> (2020, False) and "nineteen oh five" ->
    (1905, False) are read only as years; "fifteen hundred" -> (1500, True) and "nineteen hundred and
    one" -> (1901, True) may also be counts ("fifteen hundred soldiers"). The first block
    runs from ten to twenty (the years 1000-2099); "twenty five" is 25, not a year, and a number in
    scale words ("two thousand and five") is `words_to_number`'s.
    """
    parts = [p for w in words for p in w.lower().split("-") if p]
    for split in (1, 2):
        century, rest = _two_digits(parts[:split]), parts[split:]
        if century is None or not 10 <= century <= 20 or not rest:
            continue
        if rest[0] == "hundred":  # "nineteen hundred", "nineteen hundred and one"
            after = rest[2:] if rest[1:2] == ["and"] else rest[1:]
            tail = _two_digits(after) if after else 0
            return (century * 100 + tail, True) if tail is not None else None
        if rest[0] in YEAR_ZERO and len(rest) == 2 and 0 < UNITS.get(rest[1], 0) < 10:
            return century * 100 + UNITS[rest[1]], False  # "nineteen oh five"
        tail = _two_digits(rest)
        if tail is not None and tail >= 10:
            return century * 100 + tail, False
    return None


APPROX_WORDS = frozenset({"about", "around", "approximately", "roughly", "nearly", "almost", "circa", "some", "~"})
"""Words that say a number is approximate ("about 67 million")."""
APPROX_TOLERANCE = 0.05
"""Relative tolerance of an approximate number: "about 67 million" covers 63.65 to 70.35 million."""


APPROX_YEARS = 5
"""Years an approximate year covers either way ("around 1600": 1595 to 1605)."""


def year_tolerance(year: int, approx: bool) -> float | None:
    """The relative tolerance of a year: `APPROX_YEARS` either way when approximate ("around 1600"), else None."""
    return APPROX_YEARS / abs(year) if approx and year else None


def tolerance(value: str, approx: bool, rounded: bool) -> float | None:
    """The relative tolerance a stated number carries, or None for an exact one.

    A rounded number (with a scale word or in words: "67 million") covers half a unit of its last
    significant digit (67 million: +-0.5 million, 0.75 %); an approximate one ("about ...") at least
    `APPROX_TOLERANCE`. A plain number ("67,390,000") is exact.
    """
    if not approx and not rounded:
        return None
    number = float(value)
    if number == 0:
        return None
    digits = str(int(abs(number))) if number.is_integer() else ""
    trailing = len(digits) - len(digits.rstrip("0")) if digits else 0
    rel = 0.5 * 10**trailing / abs(number) if rounded else 0.0
    return max(rel, APPROX_TOLERANCE) if approx else rel


def number_phrase(text: str) -> tuple[str, float | None] | None:
    """A whole phrase read as a number: (the number as the KB writes it, its tolerance), or None.

    "about 83 million" -> ("83000000", 0.05); "3,784,539" -> ("3784539", None); "eighty-three
    million" -> ("83000000", 0.006); anything else (a name, a year with words around it) -> None.
    """
    words = text.strip().rstrip(".").replace("~", "~ ").split()
    approx = False
    while words and (words[0].lower() in APPROX_WORDS or [w.lower() for w in words[:2]] == ["close", "to"]):
        words = words[2:] if words[0].lower() == "close" else words[1:]
        approx = True
    if not words or len(words) > 8:
        return None
    if len(words) <= 2:
        number = as_number(words[0], words[1] if len(words) == 2 else None)
        if number is not None:
            return number, tolerance(number, approx, rounded=len(words) == 2)
    value = words_to_number(words)
    if value is None:
        return None
    return str(value), tolerance(str(value), approx, rounded=True)


_DOTTED = re.compile(r"(?<=\b[A-Z])\.(?=[A-Z]\b)|(?<=\b[A-Z])\.(?=[A-Z]\.)|(?<=\b[A-Z]\.[A-Z])\.")
"""The dots of a dotted acronym ("U.S.", "D.C."), dropped so that it folds as one word ("us", "dc")."""


def undot(text: str) -> str:
    """A text with its dotted acronyms undotted ("the U.S. Navy" -> "the US Navy")."""
    return _DOTTED.sub("", text)


def fold(text: str) -> str:
    """Text for matching: no diacritics, case-folded, acronyms undotted, punctuation as spaces, single spaces."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", _DOTTED.sub("", text)) if not unicodedata.combining(c))
    return " ".join("".join(c if c.isalnum() else " " for c in plain.casefold()).split())


__all__ = [
    "APPROX_TOLERANCE",
    "APPROX_WORDS",
    "NUMBER_WORDS",
    "SCALES",
    "as_decade",
    "as_number",
    "as_year",
    "fold",
    "number_phrase",
    "tolerance",
    "undot",
    "words_to_number",
]
