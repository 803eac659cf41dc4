"""Comparison and set-operation pairs (`factchd_compute`) over a dict-backed prover: no Prolog."""

from __future__ import annotations

import pytest

from drowzee_core.generate.factchd_compute import comparison, set_operation
from drowzee_core.generate.factchd_record import Knobs, grounding_of
from drowzee_core.records.enums import Grounding
from drowzee_core.records.pair import QRPair
from tests.unit.test_factchd_patterns import CON, SUP, claims_match_prover, geo_facts, index, make


def test_comparison_factual_is_computed_from_supported_values() -> None:
    ix = index(geo_facts())
    for pair in make(comparison, ix, True):
        truth = pair.ground_truth
        assert truth is not None and truth.comparison is not None and pair.grounding == Grounding.COMPUTED
        values = truth.comparison.values
        pick = max if truth.comparison.direction == "most" else min
        assert truth.comparison.answer == pick(values, key=values.__getitem__)
        assert {c.status for c in truth.claims} == {SUP} and len(truth.claims) == pair.comparison_size
        assert pair.response.startswith(ix.label(ix.store.entity_ids()[truth.comparison.answer]))


@pytest.mark.parametrize(
    ("share", "corruption", "grounding"),
    [(1.0, "wrong_number", Grounding.PROVED), (0.0, "wrong_comparison", Grounding.COMPUTED)],
)
def test_comparison_corruptions(share: float, corruption: str, grounding: Grounding) -> None:
    ix = index(geo_facts())
    for pair in make(comparison, ix, False, Knobs(wrong_number_share=share)):
        truth = pair.ground_truth
        assert truth is not None and truth.comparison is not None
        assert pair.corruption == corruption and pair.grounding == grounding
        assert not pair.response.startswith(truth.correct or "?")
        statuses = [c.status for c in truth.claims]
        if corruption == "wrong_number":
            assert truth.comparison.stated_value is not None and statuses.count(CON) == 1
        else:
            assert truth.comparison.stated_value is None and set(statuses) == {SUP}
        claims_match_prover(ix, pair)


# ---------------------------------------------------------------------- set operation
def test_set_operation_factual_answer_is_computed_from_prolog_sets() -> None:
    ix = index(geo_facts())
    for pair in make(set_operation, ix, True):
        truth = pair.ground_truth
        assert truth is not None and truth.set_operation is not None and pair.grounding == Grounding.COMPUTED
        sets = [
            set(ix.prover.subject_sets([(ix.rids[s.relation], ix.store.entity_ids()[s.object])])[0])
            for s in truth.set_operation.sets
        ]
        op = truth.set_operation.operation
        answer = (
            sets[0] & sets[1] if op == "intersection" else sets[0] | sets[1] if op == "union" else sets[0] - sets[1]
        )
        assert sorted(ix.key(x) for x in answer) == truth.set_operation.answer
        assert pair.answer_size == len(answer) and {c.status for c in truth.claims} == {SUP}


def test_set_operation_distractor_is_refuted_when_prolog_can() -> None:
    ix = index(geo_facts())
    pairs = make(set_operation, ix, False)
    for pair in pairs:
        truth = pair.ground_truth
        assert truth is not None and truth.set_operation is not None and truth.set_operation.stated is not None
        wrong = set(truth.set_operation.stated) - set(truth.set_operation.answer)
        assert len(wrong) == 1 and pair.corruption == "wrong_set_member"
        deciding = [c.status for c in truth.claims if c.subject in wrong]
        assert deciding and pair.grounding == grounding_of(False, deciding)
        claims_match_prover(ix, pair)
    assert Grounding.PROVED in {p.grounding for p in pairs}
    differences = [p for p in pairs if p.ground_truth and _operation(p) == "difference"]
    assert differences
    for pair in differences:  # the distractor is in both sets: "not in the second" is refuted by a proof
        assert pair.ground_truth is not None and pair.grounding == Grounding.PROVED
        negated = [c for c in pair.ground_truth.claims if c.negated]
        assert len(negated) == 1 and negated[0].status == CON and " not " in (negated[0].text or "")
    # without refutations only a difference's distractor is still refuted (by the proof of its membership)
    for pair in make(set_operation, index(geo_facts(), refute=False), False):
        assert pair.ground_truth is not None and pair.ground_truth.set_operation is not None
        difference = pair.ground_truth.set_operation.operation == "difference"
        assert pair.grounding == (Grounding.PROVED if difference else Grounding.CLOSED_WORLD)


def _operation(pair: QRPair) -> str | None:
    truth = pair.ground_truth
    return truth.set_operation.operation if truth and truth.set_operation else None


# ---------------------------------------------------------------------- the generator
