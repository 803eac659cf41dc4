"""Sentence pieces of a response for the statement reader (pure): where a sentence may end.

`fragments` cuts after . ! ? and after a semicolon (before whitespace: "; " joins two independent
clauses) and at line breaks; `StatementReader.sentences`
joins a piece to the next one when the piece ends in an abbreviation (`ends_in_abbreviation`:
"D.C.", "Inc.", a Roman numeral "XVIII.") and the next piece reads as no statement on its own, and
always when the piece is titles only (`titles_only`: "St.", "Dr.", as in "St. Louis").
"""

from __future__ import annotations

import re

Span = tuple[int, int]

_BOUNDARY = re.compile(r"(?<![.!?])[.!?]+[\"'\u201d\u2019)\]]*(?=\s)|;(?=\s)|\n")
_ABBREV = re.compile(
    r"(?:^|[\s(])(?:[A-Za-z]|(?:[A-Za-z]\.)+[A-Za-z]|Mr|Mrs|Ms|Dr|St|Mt|Ft|Jr|Sr|Prof|Gen|Col|Lt|Capt|Sgt|Rev"
    r"|Gov|Sen|Inc|Ltd|Co|Corp|vs|etc|approx|ca|No|Vol|Dept|Univ|Ave)\.$"
)
_ROMAN = re.compile(r"(?:^|\s)(?=[MDCLXVI]{2,}\.$)M{0,3}(?:C[MD]|D?C{0,3})(?:X[CL]|L?X{0,3})(?:I[XV]|V?I{0,3})\.$")
_TITLES = re.compile(r"(?:(?:Mr|Mrs|Ms|Dr|St|Mt|Ft|Prof|Gen|Col|Lt|Capt|Sgt|Rev|Gov|Sen)\.\s*)+")
_QUESTION = re.compile(r"\?[\"'\u201d\u2019)\]]*\s*$")
TAIL = 40
"""Characters at a piece's end searched for an abbreviation (linear in a long run of joined pieces)."""


def fragments(text: str) -> list[Span]:
    """Pieces of `text` between sentence ends, stripped of surrounding whitespace; empty ones dropped."""
    out: list[Span] = []
    start = 0
    bounds = [m.end() for m in _BOUNDARY.finditer(text)] + [len(text)]
    for end in bounds:
        a, b = start, end
        while a < b and text[a].isspace():
            a += 1
        while b > a and text[b - 1].isspace():
            b -= 1
        if a < b:
            out.append((a, b))
        start = end
    return out


def ends_in_abbreviation(piece: str) -> bool:
    """Whether a piece ends in an abbreviation or a Roman numeral with a period ("D.C.", "XVIII.")."""
    pos = max(0, len(piece) - TAIL)
    return bool(_ABBREV.search(piece, pos) or _ROMAN.search(piece, pos))


def titles_only(piece: str) -> bool:
    """Whether a piece (its leading connective cut) is only titles ("St.", "Mt. St."): never a sentence."""
    return len(piece) <= TAIL and bool(_TITLES.fullmatch(piece))


def is_question(sentence: str) -> bool:
    """Whether a sentence ends in a question mark (maybe before a closing quote or bracket)."""
    return bool(_QUESTION.search(sentence, max(0, len(sentence) - TAIL)))


__all__ = ["ends_in_abbreviation", "fragments", "is_question", "titles_only"]
