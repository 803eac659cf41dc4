"""Parsers and printers of MTL formulas: Drowzee's syntax and the JSON form (pure).

See `mtl.py` for the AST and the semantics.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from drowzee_core.logic.mtl import (
    MAX_DEPTH,
    MAX_TEXT,
    MAX_YEAR,
    OPERATORS,
    WINDOWED,
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
    check_name,
    check_window,
    operator_name,
)


# ------------------------------------------------------------------ Drowzee syntax: printing
def to_drowzee(f: Formula) -> str:
    """Print a formula in Drowzee's syntax (names are printed as they are)."""
    if isinstance(f, Atom):
        return f"Atom({f.name})"
    if isinstance(f, Finally | Globally):
        return f"{operator_name(f)}[{f.lo}, {f.hi}]({to_drowzee(f.child)})"
    if isinstance(f, Until):
        return f"Until[{f.lo}, {f.hi}]({to_drowzee(f.left)}, {to_drowzee(f.right)})"
    if isinstance(f, Next | Neg):
        return f"{operator_name(f)}({to_drowzee(f.child)})"
    return f"{operator_name(f)}({to_drowzee(f.left)}, {to_drowzee(f.right)})"


def query_to_drowzee(q: MTLQuery) -> str:
    """Print a query as ``formula, YEAR``."""
    return f"{to_drowzee(q.formula)}, {q.year}"


# ------------------------------------------------------------------ Drowzee syntax: parsing
_INT = re.compile(r"-?\d{1,9}")
_WORD = re.compile(r"[A-Za-z]+")
_UNARY: dict[str, Callable[[Formula], Formula]] = {"Next": Next, "Neg": Neg}
_BINARY: dict[str, Callable[[Formula, Formula], Formula]] = {"Conj": Conj, "Disj": Disj}
_WINDOW_UNARY: dict[str, Callable[[int, int, Formula], Formula]] = {"Finally": Finally, "Globally": Globally}


class _Parser:
    def __init__(self, text: str) -> None:
        if len(text) > MAX_TEXT:
            raise MTLSyntaxError(f"formula text longer than {MAX_TEXT} characters")
        self.text = text
        self.pos = 0
        self.depth = 0

    def fail(self, expected: str) -> MTLSyntaxError:
        near = self.text[self.pos : self.pos + 25]
        found = repr(near) if near else "end of text"
        return MTLSyntaxError(f"at column {self.pos + 1}: expected {expected}, found {found}")

    def skip_ws(self) -> None:
        while self.pos < len(self.text) and self.text[self.pos].isspace():
            self.pos += 1

    def expect(self, ch: str) -> None:
        self.skip_ws()
        if not self.text.startswith(ch, self.pos):
            raise self.fail(repr(ch))
        self.pos += 1

    def integer(self) -> int:
        self.skip_ws()
        m = _INT.match(self.text, self.pos)
        if not m:
            raise self.fail("an integer")
        self.pos = m.end()
        return int(m.group())

    def word(self) -> str:
        self.skip_ws()
        m = _WORD.match(self.text, self.pos)
        if not m:
            raise self.fail("an operator (" + ", ".join(OPERATORS) + ")")
        self.pos = m.end()
        return m.group()

    def atom_name(self) -> str:
        # Everything up to the parenthesis that closes Atom( ... ), allowing balanced inner parentheses
        # (event names such as `2010_FIFA_World_Cup_qualification_(CONMEBOL)` contain them).
        start, level = self.pos, 0
        while self.pos < len(self.text):
            ch = self.text[self.pos]
            if ch == "(":
                level += 1
            elif ch == ")":
                if level == 0:
                    break
                level -= 1
            self.pos += 1
        else:
            raise self.fail("')' closing Atom(")
        name = self.text[start : self.pos].strip()
        check_name(name)
        return name

    def window(self) -> tuple[int, int]:
        self.expect("[")
        lo = self.integer()
        self.expect(",")
        hi = self.integer()
        self.expect("]")
        check_window(lo, hi)
        return lo, hi

    def formula(self) -> Formula:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise MTLSyntaxError(f"formula nests deeper than {MAX_DEPTH} operators")
        at = self.pos
        op = self.word()
        result: Formula
        if op == "Atom":
            self.expect("(")
            result = Atom(self.atom_name())
            self.expect(")")
        elif op in _WINDOW_UNARY:
            lo, hi = self.window()
            self.expect("(")
            result = _WINDOW_UNARY[op](lo, hi, self.formula())
            self.expect(")")
        elif op == "Until":
            lo, hi = self.window()
            self.expect("(")
            left = self.formula()
            self.expect(",")
            result = Until(lo, hi, left, self.formula())
            self.expect(")")
        elif op in _UNARY:
            self.expect("(")
            result = _UNARY[op](self.formula())
            self.expect(")")
        elif op in _BINARY:
            self.expect("(")
            left = self.formula()
            self.expect(",")
            result = _BINARY[op](left, self.formula())
            self.expect(")")
        else:
            self.pos = at
            raise self.fail("an operator (" + ", ".join(OPERATORS) + f"); {op!r} is not one")
        self.depth -= 1
        return result

    def end(self) -> None:
        self.skip_ws()
        if self.pos != len(self.text):
            raise self.fail("end of text")


def parse_formula(text: str) -> Formula:
    """Parse a formula in Drowzee's syntax (no query year)."""
    p = _Parser(text)
    f = p.formula()
    p.end()
    return f


def parse_query(text: str) -> MTLQuery:
    """Parse ``formula, YEAR`` in Drowzee's syntax."""
    p = _Parser(text)
    f = p.formula()
    p.expect(",")
    year = p.integer()
    p.end()
    if abs(year) > MAX_YEAR:
        raise MTLSyntaxError(f"query year must be within +-{MAX_YEAR}, got {year}")
    return MTLQuery(f, year)


# ------------------------------------------------------------------ JSON form
def to_json(f: Formula) -> dict[str, Any]:
    """The JSON form of a formula (see the module docstring)."""
    if isinstance(f, Atom):
        return {"atom": f.name}
    out: dict[str, Any] = {"op": operator_name(f).lower()}
    if isinstance(f, WINDOWED):
        out["window"] = [f.lo, f.hi]
    if isinstance(f, Finally | Globally | Next | Neg):
        out["child"] = to_json(f.child)
    else:
        out["left"] = to_json(f.left)
        out["right"] = to_json(f.right)
    return out


def query_to_json(q: MTLQuery) -> dict[str, Any]:
    """The JSON form of a query: ``{"formula": ..., "year": ...}``."""
    return {"formula": to_json(q.formula), "year": q.year}


def from_json(data: Any, _depth: int = 0) -> Formula:
    """Build a formula from its JSON form, with errors that name the bad part."""
    if _depth > MAX_DEPTH:
        raise MTLSyntaxError(f"formula nests deeper than {MAX_DEPTH} operators")
    if not isinstance(data, dict):
        raise MTLSyntaxError(f"a formula is a JSON object, got {type(data).__name__}")
    if "atom" in data:
        name = data["atom"]
        if not isinstance(name, str):
            raise MTLSyntaxError(f"'atom' must be a string, got {name!r}")
        check_name(name)
        return Atom(name.strip())
    op = str(data.get("op", "")).lower()
    names = {o.lower(): o for o in OPERATORS if o != "Atom"}
    if op not in names:
        raise MTLSyntaxError(f"'op' must be one of {sorted(names)} (or give 'atom'), got {data.get('op')!r}")

    def sub(key: str) -> Formula:
        if key not in data:
            raise MTLSyntaxError(f"operator {op!r} needs {key!r}")
        return from_json(data[key], _depth + 1)

    if op in ("finally", "globally", "until"):
        w = data.get("window")
        if not (isinstance(w, list) and len(w) == 2 and all(isinstance(x, int) for x in w)):
            raise MTLSyntaxError(f"operator {op!r} needs 'window': [a, b] of two integers, got {w!r}")
        check_window(w[0], w[1])
        if op == "until":
            return Until(w[0], w[1], sub("left"), sub("right"))
        return (Finally if op == "finally" else Globally)(w[0], w[1], sub("child"))
    if op in ("next", "neg"):
        return (Next if op == "next" else Neg)(sub("child"))
    return (Conj if op == "conj" else Disj)(sub("left"), sub("right"))


def query_from_json(data: Any) -> MTLQuery:
    """Build a query from ``{"formula": ..., "year": ...}``."""
    if not isinstance(data, dict) or "formula" not in data or "year" not in data:
        raise MTLSyntaxError("a JSON query is an object with 'formula' and 'year'")
    year = data["year"]
    if not isinstance(year, int) or isinstance(year, bool) or abs(year) > MAX_YEAR:
        raise MTLSyntaxError(f"'year' must be an integer within +-{MAX_YEAR}, got {year!r}")
    return MTLQuery(from_json(data["formula"]), year)
