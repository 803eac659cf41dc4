"""Encode an MTL formula as rules over sets of year intervals (pure: no Prolog here).

A formula becomes a *program*: one rule per distinct subformula, children before parents, each
rule an integer row ``(node, op, a, b, child1, child2)``. `prolog/mtl.pl` runs the program: every
node's value is a normalized set of closed year intervals (sorted, disjoint, adjacent ones merged),
computed from its children's sets as in the Drowzee paper:

* atom: the union of the event's intervals (the cross product of its begins and ends, begin <= end);
* ``Next``: shift by one, [s-1, e-1];
* ``Finally[a,b]``: [s-b, e-a] for each interval of the child;
* ``Globally[a,b]``: [s-a, e-b] when non-empty (exact because the child's intervals are maximal);
* ``Until[a,b](f, g)``: for each maximal interval [s, e] of f and [p, q] of g, with a' = max(a, 1):
  J = [max(p, s+1), min(q, e+1)] (where g may start while f has held since s) and then
  [max(J.lo-b, s), min(J.hi-a', e)]; plus g itself when a = 0 (so ``Until[0,0](f, g)`` is g);
* ``Neg``: the complement within the horizon; ``Conj``/``Disj``: intersection/union.

Atom rows carry an index into the program's atom list; the engine maps names to event ids, so no
name ever becomes Prolog source.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from drowzee_core.logic.mtl import Atom, Conj, Disj, Finally, Formula, Globally, Neg, Next, Until, validate


class Op(IntEnum):
    """Operation codes shared with `prolog/mtl.pl` (keep the two in step)."""

    ATOM = 0
    NEXT = 1
    FINALLY = 2
    GLOBALLY = 3
    UNTIL = 4
    NEG = 5
    CONJ = 6
    DISJ = 7


Row = tuple[int, int, int, int, int, int]


@dataclass(frozen=True, slots=True)
class Program:
    """The rules of one formula: `rows` in evaluation order; the last row is the root."""

    rows: tuple[Row, ...]
    atoms: tuple[str, ...]

    @property
    def root(self) -> int:
        """Node id of the whole formula."""
        return self.rows[-1][0]


def encode(formula: Formula) -> Program:
    """Compile `formula` into a program; identical subformulas share one node."""
    validate(formula)
    rows: list[Row] = []
    nodes: dict[Formula, int] = {}
    atom_index: dict[str, int] = {}

    def visit(f: Formula) -> int:
        known = nodes.get(f)
        if known is not None:
            return known
        row: tuple[int, int, int, int, int]
        if isinstance(f, Atom):
            row = (Op.ATOM, atom_index.setdefault(f.name, len(atom_index)), 0, 0, 0)
        elif isinstance(f, Next):
            row = (Op.NEXT, 0, 0, visit(f.child), 0)
        elif isinstance(f, Finally):
            row = (Op.FINALLY, f.lo, f.hi, visit(f.child), 0)
        elif isinstance(f, Globally):
            row = (Op.GLOBALLY, f.lo, f.hi, visit(f.child), 0)
        elif isinstance(f, Until):
            row = (Op.UNTIL, f.lo, f.hi, visit(f.left), visit(f.right))
        elif isinstance(f, Neg):
            row = (Op.NEG, 0, 0, visit(f.child), 0)
        elif isinstance(f, Conj):
            row = (Op.CONJ, 0, 0, visit(f.left), visit(f.right))
        elif isinstance(f, Disj):
            row = (Op.DISJ, 0, 0, visit(f.left), visit(f.right))
        else:  # pragma: no cover - the Formula union is closed
            raise TypeError(f"not a formula: {f!r}")
        node = len(rows)
        rows.append((node, int(row[0]), row[1], row[2], row[3], row[4]))
        nodes[f] = node
        return node

    visit(formula)
    return Program(tuple(rows), tuple(atom_index))


def bind_atoms(program: Program, event_ids: list[int]) -> list[Row]:
    """Rows with each atom index replaced by its event id (`event_ids[i]` for atom i; -1: no event)."""
    if len(event_ids) != len(program.atoms):
        raise ValueError(f"need {len(program.atoms)} event ids, got {len(event_ids)}")
    return [
        (n, op, event_ids[a], b, c1, c2) if op == Op.ATOM else (n, op, a, b, c1, c2)
        for n, op, a, b, c1, c2 in program.rows
    ]


def normalize(intervals: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sort, drop empty, and merge overlapping or adjacent closed intervals (the set's normal form)."""
    out: list[tuple[int, int]] = []
    for s, e in sorted(i for i in intervals if i[0] <= i[1]):
        if out and s <= out[-1][1] + 1:
            if e > out[-1][1]:
                out[-1] = (out[-1][0], e)
        else:
            out.append((s, e))
    return out


def contains(intervals: list[tuple[int, int]], year: int) -> bool:
    """Membership of `year` in a set of intervals (truth at a year)."""
    return any(s <= year <= e for s, e in intervals)
