"""The LLM path of evidence reading: a model judges each claim against its aligned sentences (scripted fakes).

The model's reply is parsed into `ModelJudgement` and checked (a decided claim cites sentences it was
shown); a bad reply is answered and asked again; after `ATTEMPTS` bad replies the embedded reader reads
the claim and the failure is recorded. No network, Prolog or embedding model is used.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from agents.reading.claim_types import Claim
from agents.reading.evidence.llm_reader import ATTEMPTS, ModelEvidenceReader, ModelReadingError, reading_role
from agents.reading.evidence.support import EvidenceDecision, EvidenceReading
from agents.verifier.runner import Verifier
from agents.verifier.schemas import KBResult
from agents.verifier.settings import VerifierSettings
from drowzee_core.kb.catalog import Catalog
from drowzee_core.llm.roles import RoleConfig
from drowzee_core.records.verdict import DecidedBy, Decision, EvidenceItem, VerifyRequest
from tests.unit.verifier_fakes import CountingJudge, EmptyStore, FakeReader, FakeSentenceReader, ScriptedChat

pytestmark = pytest.mark.filterwarnings("ignore:The function `load` is in beta")


@dataclass(frozen=True)
class Said:
    """An evidence sentence as the model reader uses it: an id and a text."""

    id: str
    text: str


SAID = [Said("S1.1", "Insulin was first isolated in 1921."), Said("S1.2", "It treats diabetes.")]


def reply(decision: str, sentences: Sequence[str], reason: str = "the evidence gives 1921, not 1931") -> str:
    return json.dumps({"decision": decision, "sentences": list(sentences), "reason": reason})


def test_a_valid_reply_is_the_reading_with_its_cited_sentences() -> None:
    chat = ScriptedChat(replies=[f"```json\n{reply('refuted', ['S1.1'])}\n```"])
    reading = ModelEvidenceReader(chat, "judge: m").read("When?", "Insulin was isolated in 1931.", SAID)
    assert (reading.decision, reading.cited, reading.reason) == (
        EvidenceDecision.REFUTED,
        ("S1.1",),
        "the evidence gives 1921, not 1931",
    )
    (prompt,) = chat.prompts
    assert "[S1.1] Insulin was first isolated in 1921." in prompt and "Claim: Insulin was isolated in 1931." in prompt


def test_the_model_reads_only_the_best_aligned_sentences() -> None:
    chat = ScriptedChat(replies=[reply("not enough info", [])])
    many = [Said(f"S{i}", f"Sentence number {i}.") for i in range(1, 21)]
    ModelEvidenceReader(chat, "judge: m", shown=3).read("", "A claim.", many)
    assert "[S3]" in chat.prompts[0] and "[S4]" not in chat.prompts[0]


@pytest.mark.parametrize(
    ("bad", "problem"),
    [
        ("SUPPORTED, clearly.", "not the requested JSON"),
        (reply("supported", ["S9"]), "not among the evidence sentences"),
        (reply("refuted", []), "must cite the sentences it rests on"),
        (json.dumps({"decision": "maybe", "sentences": [], "reason": "x"}), "not the requested JSON"),
    ],
)
def test_a_bad_reply_is_answered_with_its_problem_and_asked_again(bad: str, problem: str) -> None:
    chat = ScriptedChat(replies=[bad, reply("supported", ["S1.2"], "it treats diabetes")])
    reading = ModelEvidenceReader(chat, "judge: m").read("", "Insulin treats diabetes.", SAID)
    assert reading.decision == EvidenceDecision.SUPPORTED and reading.cited == ("S1.2",)
    assert len(chat.prompts) == 2 and problem in chat.prompts[1]


def test_replies_that_never_parse_raise_with_the_last_problem() -> None:
    chat = ScriptedChat(replies=["no idea"])
    with pytest.raises(ModelReadingError, match=f"judge: m gave no valid judgement in {ATTEMPTS} calls"):
        ModelEvidenceReader(chat, "judge: m").read("", "Insulin treats diabetes.", SAID)
    assert len(chat.prompts) == ATTEMPTS


@pytest.mark.parametrize(
    ("mode", "judge_role", "in_process", "role"),
    [
        ("auto", "judge", True, None),  # the embedded default: no model reads
        ("auto", "judge", False, "judge"),  # the judge role points at an endpoint
        ("auto", "seeker", True, "seeker"),
        ("llm", "judge", True, "seeker"),
        ("llm", "judge", False, "judge"),
        ("embedded", "seeker", False, None),
    ],
)
def test_which_role_reads_the_evidence(mode: str, judge_role: str, in_process: bool, role: str | None) -> None:
    assert reading_role(mode, judge_role, in_process) == role


# ------------------------------------------------------------------------------------ whole verification
class FakeEvidenceReader:
    """The embedded reader of a unit test: one sentence per item, aligned in order, reads nothing."""

    def __init__(self) -> None:
        self.read_claims: list[str] = []

    def sentences(self, items: Sequence[EvidenceItem]) -> list[Said]:
        return [Said(e.id, e.text) for e in items]

    def aligned(self, query: str, claim: str, sentences: Sequence[Said]) -> list[Said]:
        return list(sentences)

    def read(self, query: str, claim: str, sentences: Sequence[Said]) -> EvidenceReading:
        self.read_claims.append(claim)
        return EvidenceReading(
            EvidenceDecision.NOT_ENOUGH_INFO, reason="the evidence does not mention Lyon", absent=("Lyon",)
        )

    def unanswered(self, query: str, response: str) -> str | None:
        return None


def _verifier(monkeypatch: pytest.MonkeyPatch, replies: list[str], evidence_reader: FakeEvidenceReader) -> Verifier:
    import drowzee_core.llm.judge.scoring as judge_mod
    import drowzee_core.llm.roles as roles

    kb_check = importlib.import_module("agents.verifier.nodes.kb_check")
    chats: dict[str, ScriptedChat] = {}

    def chat_model(cfg: RoleConfig, stop: list[str] | None = None, **kw: Any) -> ScriptedChat:
        chats[cfg.role] = ScriptedChat(model=cfg.model, replies=replies, **kw)
        return chats[cfg.role]

    def nothing_proved(main: Any, supplied: Any, claims: Sequence[Claim], events: Any = None) -> list[KBResult]:
        return []

    monkeypatch.setattr(roles, "chat_model", chat_model)
    monkeypatch.setattr(judge_mod, "judge_for", lambda cfg, callbacks=None: CountingJudge())
    monkeypatch.setattr(kb_check, "check_claims", nothing_proved)
    settings = VerifierSettings(
        policy="majority",
        manager="aggregate",
        extractor="templates",
        roles=None,
        use_guardian=False,
        cache=False,
        evidence_reading="llm",
        kb_corpus=False,
    )
    v = Verifier(settings)
    v.services.__dict__.update(
        reader=FakeReader(),
        sentence_reader=FakeSentenceReader(),
        evidence_reader=evidence_reader,
        store=EmptyStore(),
        kb_fingerprint="fake-kb",
        reasoner=object(),
        catalog=Catalog.from_toml(),
    )
    v.chats = chats  # type: ignore[attr-defined]
    return v


REQ = VerifyRequest(
    id="p1",
    query="What is the capital of France?",
    response="Lyon is the capital of France.",
    evidence="Paris is the capital of France.",
)


def test_the_model_decides_the_claim_and_the_verdict_says_it_is_uncalibrated(monkeypatch: pytest.MonkeyPatch) -> None:
    embedded = FakeEvidenceReader()
    with _verifier(monkeypatch, [reply("refuted", ["S1"], "the evidence gives Paris [S1], not Lyon")], embedded) as v:
        verdict = v.verify(REQ)
    assert (verdict.decision, verdict.label) == (Decision.REFUTED, "NON-FACTUAL")
    (claim,) = verdict.claims
    assert claim.decided_by == DecidedBy.EVIDENCE and claim.finding is not None
    assert claim.finding.read_by == "seeker: smollm2-135m" and [s.id for s in claim.finding.sentences] == ["S1"]
    assert verdict.confidence <= 0.70  # a model's reading is not what the calibration measured
    assert "The evidence gives Paris [S1], not Lyon." in verdict.explanation
    assert "read by the model seeker: smollm2-135m" in verdict.explanation
    assert embedded.read_claims == [] and not verdict.degraded, verdict.degraded_reasons


def test_a_model_that_never_answers_validly_leaves_the_claim_to_the_embedded_reader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    embedded = FakeEvidenceReader()
    with _verifier(monkeypatch, ["I think it is wrong."], embedded) as v:
        verdict = v.verify(REQ)
        calls = len(v.chats["seeker"].prompts)  # type: ignore[attr-defined]
    assert calls == ATTEMPTS and embedded.read_claims == ["Lyon is the capital of France."]
    (claim,) = verdict.claims
    assert claim.finding is not None and claim.finding.read_by == "embedded"
    assert verdict.decision == Decision.UNSUPPORTED and verdict.degraded
    (reason,) = [r for r in verdict.degraded_reasons if "evidence reading" in r]
    assert "seeker: smollm2-135m" in reason and "ModelReadingError" in reason
