"""`drowzee verify` / `drowzee batch`: `--undecided`, the decision in the plain output, per-decision summaries.

The verifier is a fake (no KB, no models): these test the commands' wiring and wording only.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest
from typer.testing import CliRunner

from agents.verifier.accounting import CallStats
from cli.main import app
from cli.verify import claim_tag, headline
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import (
    ClaimVerdict,
    DecidedBy,
    Decision,
    UndecidedPolicy,
    Verdict,
    VerifyRequest,
)

runner = CliRunner()


def open_verdict(request: VerifyRequest) -> Verdict:
    """Undecided, leaning FACTUAL at 0.58 (the label as `--undecided lean` gives it)."""
    return Verdict(
        id=request.id,
        decision=Decision.UNDECIDED,
        label=Label.FACTUAL,
        lean=Label.FACTUAL,
        confidence=0.58,
        explanation="FACTUAL.\nNot verified: nothing I could check decides this claim.",
        claims=[ClaimVerdict(text=request.response, status=ProofStatus.UNKNOWN)],
    )


def refuted_verdict(request: VerifyRequest) -> Verdict:
    claim = ClaimVerdict(
        text=request.response, status=ProofStatus.CONTRADICTED, decided_by=DecidedBy.PROOF, decided_ids=["K1"]
    )
    return Verdict(
        id=request.id,
        decision=Decision.REFUTED,
        label=Label.NON_FACTUAL,
        confidence=0.99,
        explanation="NON-FACTUAL.\nThe capital of France is Paris [K1].",
        claims=[claim],
    )


class FakeVerifier:
    """Stands in for `agents.verifier.runner.Verifier`: records its settings; Lyon is refuted, the rest undecided."""

    settings: ClassVar[list[Any]] = []

    def __init__(self, settings: Any, **_: Any) -> None:
        FakeVerifier.settings.append(settings)
        self.services = SimpleNamespace(call_stats=CallStats)

    def __enter__(self) -> FakeVerifier:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def verify(self, request: VerifyRequest, thread: str | None = None) -> Verdict:
        return refuted_verdict(request) if "Lyon" in request.response else open_verdict(request)


@pytest.fixture()
def fake(monkeypatch: pytest.MonkeyPatch) -> type[FakeVerifier]:
    import agents.verifier.runner

    FakeVerifier.settings = []
    monkeypatch.setattr(agents.verifier.runner, "Verifier", FakeVerifier)
    return FakeVerifier


def test_headline_and_claim_tags() -> None:
    req = VerifyRequest(query="Who discovered oxygen?", response="Oxygen was discovered by Isaac Newton.")
    assert headline(open_verdict(req)) == "NOT VERIFIED (lean FACTUAL, 0.58)"
    relabelled = open_verdict(req).model_copy(update={"label": Label.NON_FACTUAL, "confidence": 0.42})
    assert (
        headline(relabelled) == "NOT VERIFIED (lean FACTUAL, 0.58); labelled NON-FACTUAL (0.42) by the undecided policy"
    )
    refuted = refuted_verdict(req)
    assert headline(refuted) == "NON-FACTUAL — refuted: a claim is contradicted (confidence 0.99)"
    assert claim_tag(refuted.claims[0]) == "contradicted, proved K1"
    assert claim_tag(open_verdict(req).claims[0]) == "unknown, not decided"


def test_verify_takes_undecided_and_prints_the_decision(fake: type[FakeVerifier]) -> None:
    args = ["verify", "--query", "Who discovered oxygen?", "--response", "Oxygen was discovered by Isaac Newton."]
    res = runner.invoke(app, [*args, "--undecided", "non-factual", "--no-cache"])
    assert res.exit_code == 0, res.output
    assert fake.settings[-1].undecided == UndecidedPolicy.NON_FACTUAL
    assert "NOT VERIFIED (lean FACTUAL, 0.58)" in res.output
    assert "[unknown, not decided] Oxygen was discovered by Isaac Newton." in res.output
    res = runner.invoke(app, ["verify", "--query", "Q", "--response", "The capital is Lyon.", "--json"])
    assert json.loads(res.stdout)["decision"] == "refuted"
    assert fake.settings[-1].undecided == UndecidedPolicy.LEAN  # the default
    bad = runner.invoke(app, [*args, "--undecided", "maybe"])
    assert bad.exit_code == 2


def test_batch_takes_undecided_and_reports_per_decision(fake: type[FakeVerifier], tmp_path: Path) -> None:
    rows = [
        {"id": "a", "query": "Who discovered oxygen?", "response": "Isaac Newton.", "label": "NON-FACTUAL"},
        {"id": "b", "query": "What is the capital of France?", "response": "Lyon.", "label": "NON-FACTUAL"},
        {"id": "c", "query": "Where is Paris?", "response": "In France.", "label": "FACTUAL"},
        {"id": "d", "query": "no response field"},
    ]
    src, out = tmp_path / "in.jsonl", tmp_path / "out.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    res = runner.invoke(app, ["batch", str(src), "--out", str(out), "--undecided", "factual", "--no-cache"])
    assert res.exit_code == 1, res.output  # one row is an error record
    assert fake.settings[-1].undecided == UndecidedPolicy.FACTUAL
    text = " ".join(res.output.split())
    assert "decisions: 0 supported, 1 refuted, 0 unsupported, 2 undecided" in text
    assert "coverage (share of rows decided): 0.333" in text and "undecided rows" in text
    meta = json.loads(out.with_name("out.jsonl.meta.json").read_text())
    summary = meta["counts"]
    assert summary["decisions"] == {"refuted": 1, "undecided": 2}
    assert summary["metrics"]["decisions"]["accuracy"]["decided"]["verifier"]["value"] == 1.0
    errors = [json.loads(line) for line in out.read_text().splitlines() if "error" in line]
    assert errors[0]["error"].endswith("in.jsonl:4: missing field 'response'")
