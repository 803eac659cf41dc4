"""Verdicts and an HTML balance check shared by the Chat tab's rendering tests."""

from __future__ import annotations

from html.parser import HTMLParser
from typing import Any

from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.proof import ProofNode
from drowzee_core.records.verdict import (
    ClaimVerdict,
    DecidedBy,
    Decision,
    EvidenceItem,
    EvidenceSource,
    Opinion,
    OpinionSource,
    UndecidedPolicy,
    Verdict,
    VerdictProvenance,
)

XSS = "<script>alert('x')</script>"
VOID = {"br", "img", "input", "meta", "link", "hr", "wbr"}


class Balance(HTMLParser):
    """Checks that every opened tag is closed in order (the HTML stays well-formed)."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.errors: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def balanced(html: str) -> bool:
    p = Balance()
    p.feed(html)
    p.close()
    return not p.errors and not p.stack


def proof() -> ProofNode:
    leaf = ProofNode(rule="fact", fact=("Paris", "capital_of", "France"), text="Paris is the capital of France.")
    return ProofNode(
        rule="functional",
        fact=("Lyon", "capital_of", "France"),
        text="Lyon is not the capital of France.",
        premises=[leaf],
    )


def claim(
    status: ProofStatus,
    span: tuple[int, int] | None,
    text: str = "a claim",
    ev: list[str] | None = None,
    by: DecidedBy | None = None,
    ids: list[str] | None = None,
) -> Any:
    return ClaimVerdict(
        text=text, span=span, status=status, evidence_ids=ev or [], decided_by=by, decided_ids=ids or []
    )


def verdict(**update: Any) -> Verdict:
    base = Verdict(
        decision=Decision.REFUTED,
        label=Label.NON_FACTUAL,
        confidence=0.93,
        explanation="NON-FACTUAL. Paris is the capital of France [E1]; see also [E9].",
        claims=[
            claim(ProofStatus.CONTRADICTED, (0, 29), "The capital of France is Lyon.", ["E1"], DecidedBy.PROOF, ["E1"])
        ],
        evidence=[EvidenceItem(id="E1", source=EvidenceSource.KB, text="Paris is the capital of France.", ref="kb")],
        proofs=[proof()],
        opinions=[
            Opinion(source=OpinionSource.KB_CHECK, label=Label.NON_FACTUAL, confidence=1.0, explanation="refuted"),
            Opinion(source=OpinionSource.GUARDIAN, error="guardian: ConnectError: refused"),
        ],
    )
    return base.model_copy(update=update)


def undecided(**update: Any) -> Verdict:
    return verdict(
        decision=Decision.UNDECIDED,
        label=Label.FACTUAL,
        lean=Label.FACTUAL,
        confidence=0.58,
        explanation="FACTUAL.\nNot verified: nothing I could check decides this claim.",
        provenance=VerdictProvenance(undecided_policy=UndecidedPolicy.LEAN),
    ).model_copy(update=update)


# ---------------------------------------------------------------------------------------------- escaping
