"""Verdict arithmetic: policies, the calibrated model, explanations composed from evidence only."""

from __future__ import annotations

import re

import pytest

from agents.aggregate import FEATURES, Calibration, Decision, Signals, decide
from agents.explain import compose
from agents.schemas import Claim, ClaimKind, ClaimOrigin, KBOrigin, KBResult
from agents.state import merge_evidence, merge_timings
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.proof import ProofNode
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource, Opinion, OpinionSource

F, N = Label.FACTUAL, Label.NON_FACTUAL


def sig(kb: Label | None = None, p: float | None = None, guardian: Label | None = None) -> Signals:
    seeker = None if p is None else (F if p >= 0.5 else N)
    return Signals(kb=kb, kb_partial=0.0, seeker_p=p, seeker=seeker, guardian=guardian)


CAL = Calibration(features=list(FEATURES), coef=[3, -3, 1, 1.5, 0, 0.5, -0.5, 1.0, 1.0, -2.0], intercept=0.0)


@pytest.mark.parametrize("policy", ["calibrated", "strict"])
def test_a_proof_is_decisive(policy: str) -> None:
    d = decide(policy, sig(kb=N, p=0.99, guardian=F), CAL)
    assert (d.label, d.rule) == (N, "proof")
    assert decide(policy, sig(kb=F, p=0.01, guardian=N), CAL).label == F


def test_majority_counts_the_kb_as_one_vote() -> None:
    d = decide("majority", sig(kb=N, p=0.9, guardian=F), None)
    assert d.label == F and d.confidence == pytest.approx(2 / 3)


def test_majority_tie_goes_to_the_seeker_then_non_factual() -> None:
    assert decide("majority", sig(p=0.8, guardian=N), None).label == F  # tie 1-1 -> judge p
    assert decide("majority", sig(), None) == Decision(
        N, 0.5, "majority: no source decided; unverified counts as NON-FACTUAL"
    )


def test_strict_takes_any_conflict() -> None:
    assert decide("strict", sig(p=0.9, guardian=N), None).label == N
    assert decide("strict", sig(p=0.9, guardian=F), None).label == F


def test_calibrated_uses_the_fitted_weights() -> None:
    hi, lo = decide("calibrated", sig(p=0.95), CAL), decide("calibrated", sig(p=0.05), CAL)
    assert hi.label == F and lo.label == N and 0.5 < hi.confidence < 1


def test_calibrated_without_a_fit_or_with_stale_features_says_what_to_do() -> None:
    with pytest.raises(ValueError, match="drowzee verifier fit"):
        decide("calibrated", sig(p=0.9), None)
    stale = CAL.model_copy(update={"features": ["old"]})
    with pytest.raises(ValueError, match="refit"):
        decide("calibrated", sig(p=0.9), stale)
    with pytest.raises(ValueError, match="unknown policy"):
        decide("vibes", sig(), CAL)


def test_signals_read_the_last_opinion_per_source_and_skip_failures() -> None:
    ops = [
        Opinion(source=OpinionSource.SEEKER, label=N, confidence=0.8),
        Opinion(source=OpinionSource.GUARDIAN, error="timed out"),
    ]
    s = Signals.of(ops, 0.5)
    assert s.seeker_p == pytest.approx(0.2) and s.guardian is None and s.kb is None
    assert len(s.vector()) == len(FEATURES)


def _proof() -> ProofNode:
    leaf = ProofNode(rule="fact", fact=("Bradstreet", "died_in_year", "1672"), text="Bradstreet died in 1672.")
    return ProofNode(
        rule="negation_functional",
        fact=("Bradstreet", "died_in_year", "1642"),
        text="Bradstreet did not die in 1642.",
        premises=[leaf],
    )


def test_explanation_of_a_refutation_cites_the_proof_fact() -> None:
    claim = Claim(id="C1", text="Bradstreet died in 1642.", kind=ClaimKind.TRIPLE, origin=ClaimOrigin.TEMPLATE)
    res = KBResult(claim_id="C1", status=ProofStatus.CONTRADICTED, kb=KBOrigin.MAIN, proof=_proof())
    ev = [EvidenceItem(id="K1", source=EvidenceSource.KB, text="Bradstreet died in 1672.")]
    text = compose(Decision(N, 1.0, "proof"), "Bradstreet died in 1642.", [claim], [res], ev, [])
    assert text.startswith("NON-FACTUAL.\nThe answer that Bradstreet died in 1642 is incorrect.")
    assert "Bradstreet died in 1672 [K1]" in text
    assert text.endswith("Therefore, the answer contains an incorrect conclusion.")
    short = compose(Decision(N, 1.0, "proof"), "No. He died in 1642.", [claim], [res], ev, [])
    assert short.startswith('NON-FACTUAL.\nThe answer "No. He died in 1642." is incorrect.')


def test_explanation_of_a_refuted_denial_and_of_an_answer_given_both_ways() -> None:
    denial = Claim(
        id="C1", text="It is not the case that (L, child, C).", kind=ClaimKind.TRIPLE, origin=ClaimOrigin.DROWZEE
    )
    res = KBResult(claim_id="C1", status=ProofStatus.CONTRADICTED, kb=KBOrigin.SUPPLIED, proof=_proof())
    text = compose(Decision(N, 1.0, "proof"), "No.", [denial], [res], [], [])
    assert "So (L, child, C) holds." in text and "not the case that It" not in text
    yes = denial.model_copy(update={"text": "(L, child, C) holds."})
    unknown = [KBResult(claim_id="C1", status=ProofStatus.UNKNOWN)]
    why = "the response answers both ways: 'a' and 'b'; one of them is false whatever the facts"
    ops = [Opinion(source=OpinionSource.KB_CHECK, label=N, confidence=1.0, explanation=why)]
    both = compose(Decision(N, 1.0, "proof"), "Yes. No.", [yes, denial], unknown, [], ops)
    assert "The response answers both ways: 'a' and 'b'; one of them is false whatever the facts." in both


def test_explanation_without_a_proof_quotes_evidence_and_names_the_rule() -> None:
    ev = [
        EvidenceItem(id="D1", source=EvidenceSource.CORPUS, text="Lyon is in France.", score=0.2),
        EvidenceItem(id="D2", source=EvidenceSource.CORPUS, text="Paris is the capital of France.", score=0.9),
    ]
    ops = [Opinion(source=OpinionSource.SEEKER, label=N, confidence=0.7)]
    text = compose(Decision(N, 0.7, "majority vote"), "Lyon is the capital.", [], [], ev, ops)
    assert re.findall(r"\[(\w+)\]", text) == ["D2", "D1"]
    assert "Decided by majority vote (seeker: NON-FACTUAL (0.70))" in text


def test_reducers_keep_first_evidence_per_id_and_add_timings() -> None:
    a = EvidenceItem(id="S1", source=EvidenceSource.SUPPLIED, text="a")
    b = EvidenceItem(id="S1", source=EvidenceSource.SUPPLIED, text="b")
    c = EvidenceItem(id="K1", source=EvidenceSource.KB, text="c")
    assert [e.text for e in merge_evidence([a], [b, c])] == ["a", "c"]
    assert merge_timings({"seeker": 1.0}, {"seeker": 0.5, "guardian": 2.0}) == {"seeker": 1.5, "guardian": 2.0}


def test_supplied_evidence_weighs_the_judge_more() -> None:
    plain = sig(p=0.8)
    supplied = Signals(kb=None, kb_partial=0.0, seeker_p=0.8, seeker=F, guardian=None, supplied=True)
    at = FEATURES.index("seeker_logit_supplied")
    assert plain.vector()[at] == 0.0 and supplied.vector()[at] == pytest.approx(supplied.vector()[3])
    assert CAL.p_factual(supplied) > CAL.p_factual(plain)


def test_the_answer_set_signal_is_absent_unless_the_evidence_gives_one() -> None:
    named, missed = FEATURES.index("answers_named"), FEATURES.index("answers_missed")
    assert [sig(p=0.8).vector()[i] for i in (named, missed)] == [0.0, 0.0]
    none_named = Signals(kb=None, kb_partial=0.0, seeker_p=0.8, seeker=F, guardian=None, answers=0.0)
    some = Signals(kb=None, kb_partial=0.0, seeker_p=0.8, seeker=F, guardian=None, answers=0.6)
    assert [none_named.vector()[i] for i in (named, missed)] == [0.0, 1.0]
    assert [some.vector()[i] for i in (named, missed)] == pytest.approx([0.6, 0.4])
    assert CAL.p_factual(none_named) < CAL.p_factual(some) < CAL.p_factual(sig(p=0.8))


def test_explanation_states_the_supplied_answer_set_and_cites_its_triples() -> None:
    from agents.answer_set import AnswerSet

    ev = [
        EvidenceItem(
            id="S1", source=EvidenceSource.SUPPLIED, text="Milan twinned Bethlehem.", ref="Milan | twinned | Bethlehem"
        ),
        EvidenceItem(id="S2", source=EvidenceSource.SUPPLIED, text="Milan mayor Sala.", ref="Milan | mayor | Sala"),
        EvidenceItem(id="D1", source=EvidenceSource.CORPUS, text="Rome is in Italy.", score=0.9),
    ]
    answers = AnswerSet(anchors=("Milan", "Saint Petersburg"), answers=("Bethlehem",), named=())
    text = compose(Decision(N, 0.9, "calibrated aggregation"), "It is Rome.", [], [], ev, [], answers)
    assert "The supplied evidence answers the question with Bethlehem; the response names none of them [S1]." in text
    assert "D1" not in text  # the answer set, not the best-ranked retrieved item, explains the decision
    outweighed = compose(Decision(F, 0.6, "calibrated aggregation"), "It is Rome.", [], [], ev, [], answers)
    assert "names none of them [S1]; the other sources outweighed this." in outweighed
