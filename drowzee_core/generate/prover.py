"""How generators talk to the reasoner: the `Prover` protocol, the Prolog engine behind it, and a fake.

Generators never decide a claim's status themselves: they ask a `Prover`. The real one is the KB's
Prolog engine (`EngineProver`); `FakeProver` answers from a dict, so the pattern makers can be unit
tested without Prolog. Entities and relations are integer ids, as in the engine.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Protocol

from drowzee_core.logic.engine import PrologEngine
from drowzee_core.records.enums import ProofStatus

Fact = tuple[int, int, int]
"""(subject id, relation id, object id)."""

NEW_CONSTANT = -1
"""The object id of a value the KB does not hold (a wrong number no entity stands for).

Entity ids are positive, so no fact mentions it: Prolog treats it as a new constant, distinct from
every stored object (a functional relation's stored value refutes it; otherwise it is unknown).
"""

ENGINE_STATUSES = frozenset({ProofStatus.SUPPORTED, ProofStatus.CONTRADICTED, ProofStatus.UNKNOWN})
"""What a logic engine may answer; `closed_world` is a generator's judgement, never the engine's."""


class Prover(Protocol):
    """What a generator needs from the reasoner."""

    def statuses(self, facts: Sequence[Fact]) -> list[ProofStatus]:
        """Prolog's status of each fact: supported, contradicted (with a proof of the opposite) or unknown."""
        ...

    def subject_sets(self, pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
        """For each (relation, object): the sorted subjects x whose (x, relation, object) is supported."""
        ...


def status(prover: Prover, s: int, r: int, o: int) -> ProofStatus:
    """The status of one fact."""
    return prover.statuses([(s, r, o)])[0]


def _engine_status(value: object) -> ProofStatus:
    st = ProofStatus(str(value))
    if st not in ENGINE_STATUSES:
        raise ValueError(f"the logic engine answered {st!r}; expected one of {sorted(ENGINE_STATUSES)}")
    return st


class EngineProver:
    """The KB's Prolog engine as a `Prover` (statuses come from `prove_batch/2` in core.pl)."""

    def __init__(self, engine: PrologEngine) -> None:
        self.engine = engine

    def statuses(self, facts: Sequence[Fact]) -> list[ProofStatus]:
        """Prolog's status of each fact, in one call."""
        return [_engine_status(s) for s in self.engine.prove_many(list(facts))]

    def subject_sets(self, pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
        """Subjects of base and level-1 facts, by Prolog (exact for non-transitive, non-composite relations)."""
        return self.engine.subject_sets(list(pairs))


class FakeProver:
    """A dict-backed `Prover` for tests: listed facts have their listed status, every other one is unknown."""

    def __init__(self, statuses: Mapping[Fact, ProofStatus] | None = None) -> None:
        self.table: dict[Fact, ProofStatus] = {}
        self.asked: list[Fact] = []
        """Every fact asked about, in order (tests check what was asked)."""
        for fact, st in (statuses or {}).items():
            self.set(fact, st)

    def set(self, fact: Fact, st: ProofStatus) -> None:
        """Give `fact` a status (`unknown` removes it; `closed_world` is refused: engines never answer it)."""
        if _engine_status(st) == ProofStatus.UNKNOWN:
            self.table.pop(fact, None)
        else:
            self.table[fact] = st

    def support(self, facts: Iterable[Fact]) -> FakeProver:
        """Mark facts supported; returns self."""
        for f in facts:
            self.set(f, ProofStatus.SUPPORTED)
        return self

    def refute(self, facts: Iterable[Fact]) -> FakeProver:
        """Mark facts contradicted; returns self."""
        for f in facts:
            self.set(f, ProofStatus.CONTRADICTED)
        return self

    def statuses(self, facts: Sequence[Fact]) -> list[ProofStatus]:
        """The listed status of each fact, else unknown."""
        self.asked.extend(facts)
        return [self.table.get(f, ProofStatus.UNKNOWN) for f in facts]

    def subject_sets(self, pairs: Sequence[tuple[int, int]]) -> list[list[int]]:
        """The subjects of the supported facts of each (relation, object)."""
        return [
            sorted(s for (s, r2, o2), st in self.table.items() if (r2, o2) == (r, o) and st == ProofStatus.SUPPORTED)
            for r, o in pairs
        ]


__all__ = ["ENGINE_STATUSES", "NEW_CONSTANT", "EngineProver", "Fact", "FakeProver", "Prover", "status"]
