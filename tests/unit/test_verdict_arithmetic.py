"""Verdict arithmetic: policies, the calibrated model, explanations composed from evidence only."""

from __future__ import annotations

import re

import pytest

from agents.reading.claim_types import ClaimOrigin, TextClaim, TripleClaim
from agents.verifier.aggregation import FEATURES, Calibration, Lean, Signals, decide, settle
from agents.verifier.decision import Assessment, ClaimStatus, assess, claim_statuses
from agents.verifier.explain import compose
from agents.verifier.schemas import ClaimSupport, KBOrigin, KBResult
from agents.verifier.state import merge_evidence, merge_timings
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.proof import ProofNode
from drowzee_core.records.verdict import (
    DecidedBy,
    Decision,
    EvidenceItem,
    EvidenceSource,
    Opinion,
    OpinionSource,
    UndecidedPolicy,
)

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
    assert decide("majority", sig(), None) == Lean(N, 0.5, "the majority lean (no source gave a label: NON-FACTUAL)")


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
    claim = TripleClaim(
        id="C1", text="Bradstreet died in 1642.", origin=ClaimOrigin.TEMPLATE, subject="Bradstreet",
        relation="died_in_year", object="1642",
    )  # fmt: skip
    res = KBResult(claim_id="C1", status=ProofStatus.CONTRADICTED, kb=KBOrigin.MAIN, proof=_proof())
    ev = [EvidenceItem(id="K1", source=EvidenceSource.KB, text="Bradstreet died in 1672.")]
    refuted = _refuted("C1")
    text = compose(refuted, N, "Bradstreet died in 1642.", [claim], [res], ev, [])
    assert text.startswith("NON-FACTUAL.\nThe answer that Bradstreet died in 1642 is incorrect.")
    assert "Bradstreet died in 1672 [K1]" in text
    assert text.endswith("Therefore, the answer contains an incorrect conclusion.")
    short = compose(refuted, N, "No. He died in 1642.", [claim], [res], ev, [])
    assert short.startswith('NON-FACTUAL.\nThe answer "No. He died in 1642." is incorrect.')
    hedged = compose(refuted, N, "If I recall, Bradstreet died in 1642.", [claim], [res], ev, [])
    assert hedged.startswith('NON-FACTUAL.\nThe answer "If I recall, Bradstreet died in 1642." is incorrect.')


def test_explanation_of_a_refuted_denial_and_of_an_answer_given_both_ways() -> None:
    denial = TripleClaim(
        id="C1", text="It is not the case that (L, child, C).", origin=ClaimOrigin.QUERY, subject="L",
        relation="child", object="C",
    )  # fmt: skip
    res = KBResult(claim_id="C1", status=ProofStatus.CONTRADICTED, kb=KBOrigin.SUPPLIED, proof=_proof())
    text = compose(_refuted("C1"), N, "No.", [denial], [res], [], [])
    assert "So (L, child, C) holds." in text and "not the case that It" not in text
    yes = denial.model_copy(update={"text": "(L, child, C) holds."})
    unknown = [KBResult(claim_id="C1", status=ProofStatus.UNKNOWN)]
    why = "the response answers both ways: 'a' and 'b'; one of them is false whatever the facts"
    ops = [Opinion(source=OpinionSource.KB_CHECK, label=N, confidence=1.0, explanation=why)]
    both = compose(Assessment(Decision.REFUTED, DecidedBy.PROOF), N, "Yes. No.", [yes, denial], unknown, [], ops)
    assert "The response answers both ways: 'a' and 'b'; one of them is false whatever the facts." in both


def _refuted(claim_id: str) -> Assessment:
    return Assessment(
        Decision.REFUTED,
        DecidedBy.PROOF,
        (ClaimStatus(claim_id, ProofStatus.CONTRADICTED, DecidedBy.PROOF, ("K1",)),),
    )


def _undecided(*claim_ids: str) -> Assessment:
    return Assessment(Decision.UNDECIDED, None, tuple(ClaimStatus(i, ProofStatus.UNKNOWN) for i in claim_ids))


LYON = TextClaim(id="C1", text="Lyon is the capital of France.", origin=ClaimOrigin.SENTENCE)
PARIS = [
    EvidenceItem(id="D1", source=EvidenceSource.CORPUS, text="Lyon is in France.", score=0.2),
    EvidenceItem(id="D2", source=EvidenceSource.CORPUS, text="Paris is the capital of France.", score=0.9),
]


def test_an_undecided_explanation_says_not_verified_first_and_cites_nothing_as_support() -> None:
    ops = [
        Opinion(source=OpinionSource.SEEKER, label=F, confidence=0.95),
        Opinion(source=OpinionSource.GUARDIAN, label=F, confidence=0.6, counted=False),
    ]
    text = compose(_undecided("C1"), F, "Lyon is the capital.", [LYON], [], PARIS, ops, lean=Lean(F, 0.58, "the lean"))
    head, body = text.split("\n", 1)
    assert head == "FACTUAL." and body.startswith("Not verified: nothing I could check decides this claim.")
    assert "correct" not in text and not re.search(r"\[[A-Z]\d+\]", text)  # nothing cited as support
    assert "Searched: 2 corpus passages (D1, D2)." in text
    assert "The label is the lean, P(FACTUAL) 0.58, not a finding" in text and "not counted" in text
    assert "the judge's P(supported) 0.95" in text


def test_an_unsupported_explanation_names_what_the_evidence_lacks() -> None:
    ev = [EvidenceItem(id="S1", source=EvidenceSource.SUPPLIED, text="Paris has been the capital since 508.")]
    open_ = Assessment(Decision.UNSUPPORTED, DecidedBy.EVIDENCE, (ClaimStatus("C1", ProofStatus.UNKNOWN),))
    text = compose(open_, N, "Lyon is the capital.", [LYON], [], ev, [])
    assert text.startswith("NON-FACTUAL.\nThe answer that Lyon is the capital is not supported by the supplied")
    assert 'No item of it was found to state "Lyon is the capital of France".' in text
    assert "The evidence says: Paris has been the capital since 508 [S1]." in text
    assert "is incorrect" not in text


def test_a_judge_decided_explanation_cites_only_the_judges_items() -> None:
    judged = Assessment(
        Decision.SUPPORTED, DecidedBy.JUDGE, (ClaimStatus("C1", ProofStatus.SUPPORTED, DecidedBy.JUDGE, ("D2",)),)
    )
    text = compose(judged, F, "Paris is the capital.", [LYON], [], PARIS, [])
    assert re.findall(r"\[(\w+)\]", text) == ["D2"]


def test_claim_statuses_a_proof_first_then_a_trusted_judge_else_unknown() -> None:
    claims = [LYON, LYON.model_copy(update={"id": "C2"}), LYON.model_copy(update={"id": "C3"})]
    results = [KBResult(claim_id="C1", status=ProofStatus.CONTRADICTED, kb=KBOrigin.MAIN, proof=_proof())]
    support = [ClaimSupport(claim_id=i, p_supported=p, evidence_ids=["D2"]) for i, p in [("C1", 0.99), ("C2", 0.9)]]
    support.append(ClaimSupport(claim_id="C3", p_supported=0.5))
    ev = [EvidenceItem(id="K1", source=EvidenceSource.KB, text="Bradstreet died in 1672.")]
    st = claim_statuses(claims, results, support, ev, judge_threshold=0.85)
    assert [(s.status, s.decided_by, s.decided_ids) for s in st] == [
        (ProofStatus.CONTRADICTED, DecidedBy.PROOF, ("K1",)),
        (ProofStatus.SUPPORTED, DecidedBy.JUDGE, ("D2",)),
        (ProofStatus.UNKNOWN, None, ()),
    ]
    untrusted = claim_statuses(claims, [], support, ev, judge_threshold=None)
    assert all(s.status == ProofStatus.UNKNOWN for s in untrusted)


@pytest.mark.parametrize(
    ("statuses", "kb_label", "supplied", "want", "lacking"),
    [
        ((ProofStatus.SUPPORTED, ProofStatus.CONTRADICTED), None, False, Decision.REFUTED, ""),
        ((ProofStatus.UNKNOWN,), N, False, Decision.REFUTED, ""),  # answered both ways
        ((ProofStatus.SUPPORTED, ProofStatus.UNKNOWN), F, True, Decision.SUPPORTED, ""),  # a proved answer
        ((ProofStatus.SUPPORTED, ProofStatus.SUPPORTED), None, True, Decision.SUPPORTED, ""),
        ((ProofStatus.SUPPORTED, ProofStatus.UNKNOWN), None, True, Decision.UNDECIDED, ""),  # open: maybe a paraphrase
        ((ProofStatus.SUPPORTED, ProofStatus.UNKNOWN), None, True, Decision.UNSUPPORTED, "it never mentions Lyon"),
        ((), None, True, Decision.UNDECIDED, ""),  # no claim read
        ((ProofStatus.SUPPORTED, ProofStatus.UNKNOWN), None, False, Decision.UNDECIDED, ""),
        ((), None, False, Decision.UNDECIDED, ""),
    ],
)
def test_the_response_decision_follows_its_claims(
    statuses: tuple[ProofStatus, ...], kb_label: Label | None, supplied: bool, want: Decision, lacking: str
) -> None:
    claims = [LYON.model_copy(update={"id": f"C{i}"}) for i in range(len(statuses))]
    st = [
        ClaimStatus(c.id, s, DecidedBy.PROOF if s != ProofStatus.UNKNOWN else None, unsupported=lacking)
        for c, s in zip(claims, statuses, strict=True)
    ]
    kb = Opinion(source=OpinionSource.KB_CHECK, label=kb_label) if kb_label else None
    assert assess(claims, st, kb, supplied).decision == want


def test_settle_a_decided_label_carries_its_dev_accuracy_an_undecided_one_at_most_070() -> None:
    cal = CAL.model_copy(update={"confidence": {"refuted:proof": 0.97, "refuted": 0.97, "unsupported:evidence": 0.64}})
    lean = Lean(F, 0.9, "the lean")
    assert settle(Decision.REFUTED, DecidedBy.PROOF, N, lean, UndecidedPolicy.LEAN, cal) == (N, 0.97)
    assert settle(Decision.UNSUPPORTED, DecidedBy.EVIDENCE, N, lean, UndecidedPolicy.LEAN, cal) == (N, 0.64)
    assert settle(Decision.SUPPORTED, DecidedBy.PROOF, F, lean, UndecidedPolicy.LEAN, cal) == (F, 0.70)  # unmeasured
    # a decider never measured does not borrow the proof's accuracy
    assert settle(Decision.REFUTED, DecidedBy.EVIDENCE, N, lean, UndecidedPolicy.LEAN, cal) == (N, 0.70)
    assert settle(Decision.UNDECIDED, None, None, lean, UndecidedPolicy.LEAN, cal) == (F, 0.70)
    label, p = settle(Decision.UNDECIDED, None, None, lean, UndecidedPolicy.NON_FACTUAL, cal)
    assert label == N and p == pytest.approx(0.1)
    assert settle(Decision.UNDECIDED, None, None, Lean(N, 0.6, "x"), UndecidedPolicy.FACTUAL, cal)[0] == F


def test_a_source_not_counted_moves_nothing() -> None:
    muted = CAL.model_copy(update={"counted": {"guardian": False}})
    assert muted.p_factual(sig(p=0.5, guardian=F)) == muted.p_factual(sig(p=0.5, guardian=N))
    assert CAL.p_factual(sig(p=0.5, guardian=F)) != CAL.p_factual(sig(p=0.5, guardian=N))


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
    from agents.reading.claims.answer_set import AnswerSet

    ev = [
        EvidenceItem(
            id="S1", source=EvidenceSource.SUPPLIED, text="Milan twinned Bethlehem.", ref="Milan | twinned | Bethlehem"
        ),
        EvidenceItem(id="S2", source=EvidenceSource.SUPPLIED, text="Milan mayor Sala.", ref="Milan | mayor | Sala"),
        EvidenceItem(id="D1", source=EvidenceSource.CORPUS, text="Rome is in Italy.", score=0.9),
    ]
    answers = AnswerSet(anchors=("Milan", "Saint Petersburg"), answers=("Bethlehem",), named=())
    unsupported = Assessment(Decision.UNSUPPORTED, DecidedBy.EVIDENCE)
    text = compose(unsupported, N, "It is Rome.", [], [], ev, [], answers)
    assert "The supplied evidence answers the question with Bethlehem; the response names none of them [S1]." in text
    assert "D1" not in text  # the answer set, not the best-ranked retrieved item, explains the decision
    undecided = compose(_undecided(), F, "It is Rome.", [], [], ev, [], answers)
    assert "the response names none of them." in undecided


def test_an_undecided_label_set_by_policy_says_so_beside_the_lean() -> None:
    text = compose(
        _undecided("C1"),
        N,
        "Lyon.",
        [LYON],
        [],
        PARIS,
        [],
        lean=Lean(F, 0.6, "the lean"),
        undecided=UndecidedPolicy.NON_FACTUAL,
    )
    assert "The label is the undecided policy's (non-factual); the lean is P(FACTUAL) 0.60; not a finding." in text
