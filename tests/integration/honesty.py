"""Checks of an honest verdict (used by the user-pairs tests), and dishonest verdicts they must catch."""

from __future__ import annotations

import re

import pytest

from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import (
    MAX_UNDECIDED_CONFIDENCE,
    Decision,
    Verdict,
)

NOT_VERIFIED = "Not verified"
VERDICT_WORDS = ("is correct", "is incorrect")
"""What only a decided verdict may say about the answer."""
_SUPPORT = re.compile(r"(?:According to the evidence|Proved:)(?P<body>.*?\])\.(?=\s|$)", re.DOTALL)
"""A sentence that presents its cited items as support ("According to the evidence, ... [K1]."): its body."""
_CITED = re.compile(r"\[([^\[\]]+)\]")
_ID = re.compile(r"^[A-Z]+\d+$")


def _support_ids(explanation: str) -> list[str]:
    """The ids an explanation cites in sentences that present them as support."""
    ids = []
    for m in _SUPPORT.finditer(explanation):
        for group in _CITED.findall(m.group("body")):
            ids += [i.strip() for i in group.split(",") if _ID.match(i.strip())]
    return ids


def _cited_ids(explanation: str) -> list[str]:
    """Every evidence id an explanation cites anywhere."""
    return [i.strip() for group in _CITED.findall(explanation) for i in group.split(",") if _ID.match(i.strip())]


def assert_honest(v: Verdict) -> None:
    """The honesty properties every verdict has, whatever its label's accuracy."""
    head, _, body = v.explanation.partition("\n")
    assert head == f"{v.label}.", f"the explanation starts with the label: {v.explanation!r}"
    if v.decision == Decision.UNDECIDED:
        assert v.confidence <= MAX_UNDECIDED_CONFIDENCE, f"undecided at {v.confidence}"
        assert body.startswith(NOT_VERIFIED), f"an undecided verdict says so first: {v.explanation!r}"
    if v.decision in (Decision.UNDECIDED, Decision.UNSUPPORTED):
        said = [w for w in VERDICT_WORDS if w in v.explanation]
        assert not said, f"{v.decision} but the explanation says {said}: {v.explanation!r}"
        assert not _support_ids(v.explanation), f"{v.decision} presents items as support: {v.explanation!r}"
    if v.decision in (Decision.SUPPORTED, Decision.REFUTED):
        decided = [c for c in v.claims if c.decided_by is not None]
        assert decided, f"{v.decision} but no claim says what decided it: {v.claims}"
        want = Label.FACTUAL if v.decision == Decision.SUPPORTED else Label.NON_FACTUAL
        assert v.label == want, f"{v.decision} labelled {v.label}"
    if v.decision == Decision.SUPPORTED:
        assert all(c.status != ProofStatus.CONTRADICTED for c in v.claims), "supported with a contradicted claim"
    ids = {e.id for e in v.evidence}
    missing = [i for i in _cited_ids(v.explanation) if i not in ids]
    assert not missing, f"the explanation cites ids that are not in the evidence: {missing}"
    deciding = {i for c in v.claims for i in c.decided_ids}
    assert deciding <= ids, f"claims decided by ids that are not in the evidence: {deciding - ids}"
    extra = [i for i in _support_ids(v.explanation) if i not in deciding]
    assert not extra, f"cited as support but decided nothing: {extra} in {v.explanation!r}"


def assert_not_backed_by(v: Verdict, contradicting: set[str]) -> None:
    """A verdict on a response its supplied evidence contradicts: never supported, never backed by those items."""
    assert v.decision != Decision.SUPPORTED, f"supported against the evidence: {v.explanation!r}"
    cited = set(_support_ids(v.explanation)) & contradicting
    if cited:
        assert v.label != Label.FACTUAL, f"FACTUAL, citing the contradicting {sorted(cited)} as support"
    backed = [c.text for c in v.claims if c.status == ProofStatus.SUPPORTED and contradicting & set(c.decided_ids)]
    assert not backed, f"claims supported by the evidence that contradicts them: {backed}"


def _made_up(decision: Decision, label: Label, confidence: float, explanation: str, **claim: object) -> Verdict:
    """A hand-made verdict with one supplied item `S1` and one claim, to check the checks."""
    return Verdict.model_validate(
        {
            "decision": decision,
            "label": label,
            "confidence": confidence,
            "explanation": explanation,
            "claims": [{"text": "Einstein was born in 1905.", "status": "unknown", **claim}],
            "evidence": [{"id": "S1", "source": "supplied", "text": "Einstein was born in 1879."}],
        }
    )


GUESS = "FACTUAL.\nNot verified: nothing I could check decides this claim. The label is the lean, not a finding."
BACKED = "FACTUAL.\nThe answer is correct. According to the evidence, Einstein was born in 1879 [S1]."
SUPPORTED_BY_S1: dict[str, object] = {"status": "supported", "decided_by": "evidence", "decided_ids": ["S1"]}
DISHONEST = [
    pytest.param(_made_up(Decision.UNDECIDED, Label.FACTUAL, 0.9, GUESS), "undecided at 0.9", id="undecided-at-0.9"),
    pytest.param(
        _made_up(Decision.UNDECIDED, Label.FACTUAL, 0.6, BACKED), "says so first", id="undecided-called-correct"
    ),
    pytest.param(
        _made_up(Decision.UNDECIDED, Label.FACTUAL, 0.6, GUESS + " It is correct [S1]: the answer is correct."),
        "is correct",
        id="undecided-says-correct-later",
    ),
    pytest.param(
        _made_up(Decision.UNSUPPORTED, Label.NON_FACTUAL, 0.6, "NON-FACTUAL.\nThe answer is incorrect."),
        "is incorrect",
        id="unsupported-called-incorrect",
    ),
    pytest.param(
        _made_up(Decision.SUPPORTED, Label.FACTUAL, 0.9, "FACTUAL.\nOK."), "what decided it", id="decided-by-nothing"
    ),
    pytest.param(
        _made_up(Decision.SUPPORTED, Label.FACTUAL, 0.9, BACKED, status="supported", decided_by="evidence"),
        "decided nothing",
        id="cites-what-decided-nothing",
    ),
    pytest.param(
        _made_up(Decision.SUPPORTED, Label.FACTUAL, 0.9, BACKED, **SUPPORTED_BY_S1),
        "supported against the evidence",
        id="backed-by-contradicting-item",
    ),
    pytest.param(
        _made_up(Decision.UNDECIDED, Label.FACTUAL, 0.6, GUESS, **SUPPORTED_BY_S1),
        "claims supported by the evidence that contradicts them",
        id="claim-decided-by-contradicting-item",
    ),
]
