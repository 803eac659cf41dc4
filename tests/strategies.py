"""Hypothesis strategies shared by the MTL tests."""

from __future__ import annotations

from hypothesis import strategies as st

from drowzee_core.logic.mtl import Atom, Conj, Disj, Finally, Formula, Globally, Neg, Next, Until


def windows(max_b: int) -> st.SearchStrategy[tuple[int, int]]:
    """Windows [a, b] with 0 <= a <= b <= max_b, [0, 0] included often."""
    return st.one_of(
        st.just((0, 0)),
        st.tuples(st.integers(0, max_b), st.integers(0, max_b)).map(lambda w: (min(w), max(w))),
    )


def formulas(leaves: st.SearchStrategy[Atom], max_b: int, max_leaves: int) -> st.SearchStrategy[Formula]:
    """Random nested formulas over `leaves`, with every operator."""

    def extend(sub: st.SearchStrategy[Formula]) -> st.SearchStrategy[Formula]:
        return st.one_of(
            st.builds(lambda w, c: Finally(w[0], w[1], c), windows(max_b), sub),
            st.builds(lambda w, c: Globally(w[0], w[1], c), windows(max_b), sub),
            st.builds(Next, sub),
            st.builds(Neg, sub),
            st.builds(lambda w, a, b: Until(w[0], w[1], a, b), windows(max_b), sub, sub),
            st.builds(Conj, sub, sub),
            st.builds(Disj, sub, sub),
        )

    return st.recursive(leaves, extend, max_leaves=max_leaves)
