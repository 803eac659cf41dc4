"""The evidence reader's findings in the verdict arithmetic: they decide claims a proof left open, and explain."""

from __future__ import annotations

import re

from agents.reading.claim_types import (
    ClaimOrigin,
    TextClaim,
    TripleClaim,
)
from agents.reading.evidence.conflicts import Conflict
from agents.reading.evidence.support import EvidenceDecision, EvidenceReading, yes_no_reading, yes_or_no
from agents.verifier.decision import ClaimStatus, assess, claim_statuses
from agents.verifier.explain import compose
from agents.verifier.schemas import ClaimSupport, KBOrigin, KBResult
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import (
    CitedSentence,
    DecidedBy,
    Decision,
    EvidenceFinding,
    EvidenceItem,
    EvidenceSource,
)

CLAIM = TextClaim(id="C1", text="Insulin was isolated in 1931.", origin=ClaimOrigin.SENTENCE)
ITEM = EvidenceItem(
    id="S1", source=EvidenceSource.SUPPLIED, text="Insulin was first isolated in 1921. It treats diabetes."
)
SENT = CitedSentence(id="S1.1", text="Insulin was first isolated in 1921.")
REFUTED = EvidenceFinding(decision="refuted", reason="the evidence gives 1921 [S1.1], not 1931", sentences=[SENT])
SUPPORTED = EvidenceFinding(decision="supported", reason="3 of 3 units of the claim are in S1.1", sentences=[SENT])
OPEN = EvidenceFinding(
    decision="not enough info", reason="the evidence does not mention Toronto", missing=["Toronto"], absent=["Toronto"]
)
UNALIGNED = EvidenceFinding(
    decision="not enough info",
    reason="the evidence mentions 1921, but no sentence states what the claim says of it",
    missing=["isolate"],
)


def statuses(finding: EvidenceFinding, proof: ProofStatus | None = None) -> tuple[ClaimStatus, ...]:
    results = [KBResult(claim_id="C1", status=proof, kb=KBOrigin.MAIN)] if proof else []
    support = [ClaimSupport(claim_id="C1", p_supported=0.5, finding=finding)]
    return claim_statuses([CLAIM], results, support, [ITEM], judge_threshold=None)


def test_a_finding_decides_an_open_claim_and_cites_the_item_of_its_sentence() -> None:
    (refuted,) = statuses(REFUTED)
    assert (refuted.status, refuted.decided_by, refuted.decided_ids) == (
        ProofStatus.CONTRADICTED,
        DecidedBy.EVIDENCE,
        ("S1",),
    )
    (supported,) = statuses(SUPPORTED)
    assert (supported.status, supported.decided_by) == (ProofStatus.SUPPORTED, DecidedBy.EVIDENCE)
    (open_,) = statuses(OPEN)
    assert (open_.status, open_.decided_by) == (ProofStatus.UNKNOWN, None)


def test_a_proof_outranks_the_evidence_reader() -> None:
    (st,) = statuses(REFUTED, proof=ProofStatus.SUPPORTED)
    assert (st.status, st.decided_by) == (ProofStatus.SUPPORTED, DecidedBy.PROOF)


def test_the_response_follows_and_names_the_evidence_as_decider() -> None:
    assert assess([CLAIM], statuses(SUPPORTED), None, True).decided_by == DecidedBy.EVIDENCE
    refuted = assess([CLAIM], statuses(REFUTED), None, True)
    assert (refuted.decision, refuted.decided_by) == (Decision.REFUTED, DecidedBy.EVIDENCE)
    unsupported = assess([CLAIM], statuses(OPEN), None, True)
    assert (unsupported.decision, unsupported.decided_by) == (Decision.UNSUPPORTED, DecidedBy.EVIDENCE)
    assert "the evidence does not mention Toronto" in unsupported.reason


def test_a_claim_whose_units_the_evidence_all_mentions_is_left_open_not_unsupported() -> None:
    (st,) = statuses(UNALIGNED)
    assert (st.status, st.unsupported) == (ProofStatus.UNKNOWN, "")
    a = assess([CLAIM], (st,), None, True)
    assert (a.decision, a.decided_by) == (Decision.UNDECIDED, None)
    text = compose(a, Label.NON_FACTUAL, CLAIM.text, [CLAIM], [], [ITEM], [], findings={"C1": UNALIGNED})
    assert "Not verified" in text
    assert "The evidence mentions 1921, but no sentence states what the claim says of it." in text


def test_an_llm_readers_not_enough_info_is_its_judgement_and_makes_the_claim_unsupported() -> None:
    model = UNALIGNED.model_copy(update={"read_by": "judge: gpt-4o-mini", "reason": "no sentence says so"})
    (st,) = statuses(model)
    assert st.unsupported == "judge: gpt-4o-mini found no support: no sentence says so"
    assert assess([CLAIM], (st,), None, True).decision == Decision.UNSUPPORTED


def test_with_evidence_supplied_and_no_claim_read_nothing_is_decided() -> None:
    a = assess([], (), None, True)
    assert (a.decision, a.reason) == (Decision.UNDECIDED, "no claim was read")


def test_a_refutation_quotes_the_sentence_and_names_the_conflict() -> None:
    a = assess([CLAIM], statuses(REFUTED), None, True)
    text = compose(a, Label.NON_FACTUAL, CLAIM.text, [CLAIM], [], [ITEM], [], findings={"C1": REFUTED})
    assert text.startswith("NON-FACTUAL.\nThe answer that Insulin was isolated in 1931 is incorrect.")
    assert 'The evidence says: "Insulin was first isolated in 1921" [S1.1].' in text
    assert "The evidence gives 1921 [S1.1], not 1931." in text
    assert text.endswith("Therefore, the answer contains an incorrect conclusion.")


def test_a_support_cites_only_the_sentences_that_hold_the_claim() -> None:
    a = assess([CLAIM], statuses(SUPPORTED), None, True)
    text = compose(a, Label.FACTUAL, CLAIM.text, [CLAIM], [], [ITEM], [], findings={"C1": SUPPORTED})
    assert re.findall(r"\[([\w.]+)\]", text) == ["S1.1"]
    assert "It treats diabetes" not in text


def test_an_unsupported_answer_says_what_the_evidence_lacks() -> None:
    a = assess([CLAIM], statuses(OPEN), None, True)
    text = compose(a, Label.NON_FACTUAL, CLAIM.text, [CLAIM], [], [ITEM], [], findings={"C1": OPEN})
    assert "The evidence does not mention Toronto." in text


def test_yes_no_answers_take_the_polarity_of_the_asked_statement() -> None:
    assert [yes_or_no(a) for a in ("Yes.", "no, it is not", "Maybe.", "Yes, because it was built in 1900 by")] == [
        True,
        False,
        None,
        None,
    ]
    held = EvidenceReading(EvidenceDecision.SUPPORTED, ("S2",))
    assert yes_no_reading(held, True).decision == EvidenceDecision.SUPPORTED
    no = yes_no_reading(held, False)
    assert no.decision == EvidenceDecision.REFUTED and "[S2], not No" in no.reason
    against = EvidenceReading(EvidenceDecision.REFUTED, ("S3",), conflict=Conflict("1931", "1921", "S3", "value"))
    assert yes_no_reading(against, False).decision == EvidenceDecision.SUPPORTED
    assert yes_no_reading(against, True).decision == EvidenceDecision.REFUTED
    unknown = EvidenceReading(EvidenceDecision.NOT_ENOUGH_INFO, reason="the evidence does not mention X")
    assert yes_no_reading(unknown, True).decision == EvidenceDecision.NOT_ENOUGH_INFO


def test_a_refuted_short_answer_negates_the_statement_it_was_read_as() -> None:
    short = TextClaim(id="C1", text="Four", origin=ClaimOrigin.SENTENCE)
    finding = REFUTED.model_copy(update={"read_as": "Insulin was isolated four times."})
    support = [ClaimSupport(claim_id="C1", p_supported=0.5, finding=finding)]
    a = assess([short], claim_statuses([short], [], support, [ITEM], judge_threshold=None), None, True)
    text = compose(a, Label.NON_FACTUAL, "Four", [short], [], [ITEM], [], findings={"C1": finding})
    assert "So it is not the case that Insulin was isolated four times." in text
    assert "not the case that Four" not in text


def test_a_refuted_bare_yes_or_no_is_called_wrong_not_negated() -> None:
    no = TextClaim(id="C1", text="No.", origin=ClaimOrigin.SENTENCE)
    support = [ClaimSupport(claim_id="C1", p_supported=0.5, finding=REFUTED)]
    a = assess([no], claim_statuses([no], [], support, [ITEM], judge_threshold=None), None, True)
    text = compose(a, Label.NON_FACTUAL, "No.", [no], [], [ITEM], [], findings={"C1": REFUTED})
    assert 'The answer "No" is therefore wrong.' in text


def test_a_response_that_does_not_answer_its_question_is_unsupported_and_says_why() -> None:
    why = "the question asks for a time (when), and the response gives none"
    a = assess([CLAIM], statuses(SUPPORTED), None, True, unanswered=why)
    assert (a.decision, a.decided_by, a.unanswered) == (Decision.UNSUPPORTED, DecidedBy.EVIDENCE, why)
    text = compose(a, Label.NON_FACTUAL, CLAIM.text, [CLAIM], [], [ITEM], [], findings={"C1": SUPPORTED})
    assert "does not answer the question. The question asks for a time (when)" in text
    assert 'What it does state is in the evidence: "Insulin was first isolated in 1921" [S1.1].' in text
    assert assess([CLAIM], statuses(REFUTED), None, True, unanswered=why).decision == Decision.REFUTED
    assert assess([CLAIM], statuses(SUPPORTED), None, False, unanswered=why).decision == Decision.SUPPORTED


def test_a_claim_that_only_suffices_for_the_answer_is_proved_or_left_open_never_refuted() -> None:
    sufficient = TripleClaim(
        id="C1", text=CLAIM.text, origin=ClaimOrigin.QUERY, subject="Insulin", relation="isolated_in",
        object="1931", sufficient=True,
    )  # fmt: skip
    support = [ClaimSupport(claim_id="C1", p_supported=0.5, finding=REFUTED)]
    (left,) = claim_statuses([sufficient], [], support, [ITEM], judge_threshold=None)
    assert (left.status, left.decided_by) == (ProofStatus.UNKNOWN, None)
    support = [ClaimSupport(claim_id="C1", p_supported=0.5, finding=SUPPORTED)]
    (proved,) = claim_statuses([sufficient], [], support, [ITEM], judge_threshold=None)
    assert proved.status == ProofStatus.SUPPORTED
