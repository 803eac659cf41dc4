"""MTL AST: Drowzee and JSON syntaxes, round trips, errors; the reference evaluator; the encoder rows."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
    atoms,
    depth,
)
from drowzee_core.logic.mtl_encode import Op, bind_atoms, contains, encode, normalize
from drowzee_core.logic.mtl_reference import ReferenceEvaluator
from drowzee_core.logic.mtl_syntax import (
    from_json,
    parse_formula,
    parse_query,
    query_from_json,
    query_to_drowzee,
    query_to_json,
    to_drowzee,
    to_json,
)
from tests import strategies

NAME_RE = r"[A-Za-z0-9_][A-Za-z0-9_ .'\-]{0,20}(\([A-Za-z0-9_]{1,8}\))?"
NAMES = st.from_regex(NAME_RE, fullmatch=True).map(str.strip).filter(bool)


def formulas() -> st.SearchStrategy[Formula]:
    return strategies.formulas(st.builds(Atom, NAMES), max_b=50, max_leaves=12)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Until[1, 3](Atom(Second_Industrial_Revolution), Atom(January_Uprising)), 1826",
            MTLQuery(Until(1, 3, Atom("Second_Industrial_Revolution"), Atom("January_Uprising")), 1826),
        ),
        (
            "Neg(Globally[6, 11](Atom(Council_of_Florence))), 797",
            MTLQuery(Neg(Globally(6, 11, Atom("Council_of_Florence"))), 797),
        ),
        ("Next(Finally[3,11](Atom(Weeds))),1956", MTLQuery(Next(Finally(3, 11, Atom("Weeds"))), 1956)),
        (
            " Disj( Atom(A (film)) ,Conj(Atom(B), Atom(C)) ) , -44 ",
            MTLQuery(Disj(Atom("A (film)"), Conj(Atom("B"), Atom("C"))), -44),
        ),
    ],
)
def test_parse_drowzee_syntax(text: str, expected: MTLQuery) -> None:
    assert parse_query(text) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("Eventually[1, 2](Atom(X)), 3", "'Eventually' is not one"),
        ("Finally[3, 1](Atom(X)), 3", "0 <= a <= b"),
        ("Finally[-1, 1](Atom(X)), 3", "0 <= a <= b"),
        ("Until[1, 2](Atom(X)), 3", "expected ','"),
        ("Atom(X), ", "expected an integer"),
        ("Atom(X)", "expected ','"),
        ("Atom(X), 12 extra", "expected end of text"),
        ("Atom(), 1", "non-empty event name"),
        ("Atom(X, 1", "')' closing Atom("),
        ("Next" + "(Next" * 70 + "(Atom(X))" + ")" * 71 + ", 1", "deeper than"),
    ],
)
def test_parse_errors_say_what_to_fix(text: str, message: str) -> None:
    with pytest.raises(MTLSyntaxError, match=None) as info:
        parse_query(text)
    assert message in str(info.value)


@settings(max_examples=300, derandomize=True)
@given(formulas(), st.integers(-3000, 3000))
def test_round_trips(f: Formula, year: int) -> None:
    q = MTLQuery(f, year)
    assert parse_query(query_to_drowzee(q)) == q
    assert parse_formula(to_drowzee(f)) == f
    assert query_from_json(query_to_json(q)) == q
    assert from_json(to_json(f)) == f


def test_json_form_and_errors() -> None:
    f = Until(1, 3, Atom("a"), Neg(Atom("b")))
    assert to_json(f) == {
        "op": "until",
        "window": [1, 3],
        "left": {"atom": "a"},
        "right": {"op": "neg", "child": {"atom": "b"}},
    }
    for bad, msg in [
        ({"op": "sometimes"}, "'op' must be one of"),
        ({"op": "finally", "window": [1], "child": {"atom": "a"}}, "'window'"),
        ({"op": "next"}, "needs 'child'"),
        ({"atom": 3}, "must be a string"),
        ([1], "JSON object"),
    ]:
        with pytest.raises(MTLSyntaxError, match=None) as info:
            from_json(bad)
        assert msg in str(info.value)
    with pytest.raises(MTLSyntaxError, match="'year'"):
        query_from_json({"formula": {"atom": "a"}, "year": "1900"})


def test_helpers() -> None:
    f = Conj(Finally(0, 2, Atom("a")), Until(1, 2, Atom("b"), Atom("a")))
    assert atoms(f) == ["a", "b"]
    assert depth(f) == 2
    assert depth(Atom("a")) == 0


# ------------------------------------------------------------------ reference semantics, by hand
EVENTS = {"war": [(1900, 1905)], "peace": [(1906, 1920)], "split": [(1, 3), (5, 6)], "joined": [(1, 3), (4, 6)]}
H = (0, 2024)


@pytest.mark.parametrize(
    ("formula", "year", "expected"),
    [
        (Atom("war"), 1900, True),
        (Atom("war"), 1906, False),
        (Next(Atom("war")), 1899, True),
        (Next(Atom("war")), 1905, False),
        (Finally(1, 3, Atom("war")), 1897, True),  # 1898..1900 reaches 1900
        (Finally(1, 3, Atom("war")), 1896, False),
        (Finally(0, 0, Atom("war")), 1905, True),
        (Globally(0, 5, Atom("war")), 1900, True),
        (Globally(0, 5, Atom("war")), 1901, False),  # 1906 is outside
        (Globally(0, 3, Atom("joined")), 2, True),  # adjacent intervals [1,3] + [4,6] form one span
        (Globally(0, 3, Atom("split")), 2, False),  # 4 is a gap
        (Until(1, 3, Atom("war"), Atom("peace")), 1903, True),  # war 1903-1905, peace from 1906
        (Until(1, 3, Atom("war"), Atom("peace")), 1902, False),  # peace must start by 1905
        (Until(0, 0, Atom("war"), Atom("peace")), 1910, True),  # [0,0]: the right side now
        (Until(0, 5, Atom("war"), Atom("peace")), 1899, False),  # war must hold from the query year
        (Until(2, 4, Atom("peace"), Atom("war")), 1906, False),
        (Neg(Atom("war")), 1899, True),
        (Neg(Atom("war")), 2025, False),  # outside the horizon
        (Neg(Atom("missing")), 100, True),
        (Conj(Atom("war"), Atom("peace")), 1905, False),
        (Disj(Atom("war"), Atom("peace")), 1906, True),
        (Neg(Finally(0, 10, Atom("war"))), 1880, True),
    ],
)
def test_reference_evaluator(formula: Formula, year: int, expected: bool) -> None:
    assert ReferenceEvaluator(EVENTS, H).holds(formula, year) is expected


# ------------------------------------------------------------------ encoder (pure part)
def test_encode_shares_subformulas_and_orders_children_first() -> None:
    a = Finally(1, 2, Atom("x"))
    program = encode(Conj(a, Disj(a, Atom("y"))))
    ops = [Op(r[1]) for r in program.rows]
    assert ops == [Op.ATOM, Op.FINALLY, Op.ATOM, Op.DISJ, Op.CONJ]
    assert program.atoms == ("x", "y")
    for node, _op, _a, _b, c1, c2 in program.rows:
        assert c1 < node or c1 == 0
        assert c2 < node or c2 == 0
    assert bind_atoms(program, [7, 9])[0][2] == 7
    assert bind_atoms(program, [7, 9])[2][2] == 9
    with pytest.raises(ValueError, match="need 2 event ids"):
        bind_atoms(program, [1])


def test_normalize_merges_adjacent_and_overlapping() -> None:
    assert normalize([(5, 6), (1, 3), (4, 4), (10, 12), (11, 11), (8, 7)]) == [(1, 6), (10, 12)]
    assert contains([(1, 6), (10, 12)], 6)
    assert not contains([(1, 6), (10, 12)], 8)
