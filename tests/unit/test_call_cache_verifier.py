"""The call cache with a whole verification: a second run of the same pair calls no model, judge or prover.

Scripted fakes only (no network, no Prolog, no model); the cache pieces are tested in `test_call_cache.py`.
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from agents.reading.claim_types import Claim
from agents.verifier.accounting import RoleUsage
from agents.verifier.runner import Verifier
from agents.verifier.schemas import KBOrigin, KBResult
from agents.verifier.settings import VerifierSettings
from drowzee_core.kb.catalog import Catalog
from drowzee_core.llm.roles import RoleConfig
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource, Verdict, VerifyRequest
from drowzee_core.retrieval.cache import JsonCache
from tests.unit.verifier_fakes import CountingJudge, EmptyStore, FakeReader, FakeSentenceReader, ScriptedChat

pytestmark = pytest.mark.filterwarnings("ignore:The function `load` is in beta")


class FakeCorpus:
    def search(self, query: str, k: int) -> list[EvidenceItem]:
        return [EvidenceItem(id="x", source=EvidenceSource.CORPUS, text="Paris is the capital of France.", score=1.0)]


PROOF = ProofNode(
    rule="inverse",
    fact=("Paris", "capital_of", "France"),
    text="Paris is the capital of France.",
    premises=[ProofNode(rule="fact", fact=("France", "capital", "Paris"), text="The capital of France is Paris.")],
)


class Fakes:
    """Scripted models, judge and prover for one Verifier; `fail` makes each raise when called."""

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.chats: list[ScriptedChat] = []
        self.judge = CountingJudge(fail=fail)
        self.proofs = 0

    def chat_model(self, cfg: RoleConfig, stop: list[str] | None = None, **kw: Any) -> ScriptedChat:
        chat = ScriptedChat(model=cfg.model, replies=["NON"], fail=self.fail, **kw)
        self.chats.append(chat)
        return chat

    def check_claims(self, main: Any, supplied: Any, claims: Sequence[Claim], events: Any = None) -> list[KBResult]:
        if self.fail:
            raise AssertionError("the prover was called on a cached pair")
        self.proofs += 1
        first = claims[0].id
        return [KBResult(claim_id=first, status=ProofStatus.SUPPORTED, kb=KBOrigin.MAIN, proof=PROOF, note="n")]


def _verifier(monkeypatch: pytest.MonkeyPatch, fakes: Fakes, **settings: Any) -> Verifier:
    import drowzee_core.llm.judge.scoring as judge_mod
    import drowzee_core.llm.roles as roles

    kb_check = importlib.import_module("agents.verifier.nodes.kb_check")  # the package exports a node of that name

    monkeypatch.setattr(roles, "chat_model", fakes.chat_model)
    monkeypatch.setattr(judge_mod, "judge_for", lambda cfg, callbacks=None: fakes.judge)
    monkeypatch.setattr(kb_check, "check_claims", fakes.check_claims)
    base = {"policy": "majority", "manager": "aggregate", "extractor": "templates", "roles": None}
    v = Verifier(VerifierSettings(**(base | settings)))
    v.services.__dict__.update(  # cached properties, pre-filled: no KB, Prolog or embedder is opened
        reader=FakeReader(),
        sentence_reader=FakeSentenceReader(),
        store=EmptyStore(),
        corpus=FakeCorpus(),
        kb_fingerprint="fake-kb",
        reasoner=object(),
        catalog=Catalog.from_toml(),
    )
    return v


REQ = VerifyRequest(id="p1", query="What is the capital of France?", response="Lyon is the capital. It is big.")


def _same(a: Verdict, b: Verdict) -> None:
    assert a.model_dump(exclude={"provenance": {"timings"}}) == b.model_dump(exclude={"provenance": {"timings"}})


def test_second_verification_calls_nothing_and_gives_the_same_verdict(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    path = tmp_path / "calls.sqlite"
    first_fakes = Fakes()
    with _verifier(monkeypatch, first_fakes, cache_path=path) as v:
        first = v.verify(REQ)
        stats1 = v.call_stats()
    assert not first.degraded and first.proofs == [PROOF]
    assert first_fakes.proofs == 1 and len(first_fakes.judge.batches) == 1
    assert stats1.roles["guardian"].calls == 1 and stats1.roles["guardian"].input_tokens == 12
    assert stats1.roles["judge"] == RoleUsage(calls=3, input_tokens=30)  # the response and its two claims
    assert stats1.misses == {"prove": 1} and stats1.hits == {}

    with _verifier(monkeypatch, Fakes(fail=True), cache_path=path) as v:
        second = v.verify(REQ)
        stats2 = v.call_stats()
    _same(first, second)
    assert stats2.roles["guardian"] == RoleUsage(cache_hits=1)
    assert stats2.roles["judge"] == RoleUsage(cache_hits=3)
    assert stats2.hits == {"prove": 1} and stats2.misses == {}
    with JsonCache(path) as store:
        assert len(store) == 5  # one guardian chat, three judge inputs, one proof


def test_cache_off_writes_nothing(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"
    fakes = Fakes()
    for _ in range(2):
        with _verifier(monkeypatch, fakes, cache=False, cache_path=path) as v:
            v.verify(REQ)
    assert not path.exists()
    assert fakes.proofs == 2 and len(fakes.judge.batches) == 2
    assert all(len(c.prompts) == 1 for c in fakes.chats)


def test_settings_read_the_cache_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DROWZEE_VERIFY_CACHE", "false")
    monkeypatch.setenv("DROWZEE_VERIFY_CACHE_PATH", str(tmp_path / "c.sqlite"))
    s = VerifierSettings.load()
    assert s.cache is False and s.cache_path == tmp_path / "c.sqlite"
    assert VerifierSettings.load({"cache": True}).cache is True


def test_a_local_role_finds_its_server_again_after_it_went_away(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The client is built once, but the local server is checked (and restarted if gone) on every later call."""
    import drowzee_core.llm.launch as launch
    import drowzee_core.llm.roles as roles
    from agents.verifier.services import Services

    checks: list[int] = []
    monkeypatch.setattr(launch, "ensure_local_server", lambda *a, **k: checks.append(1))
    monkeypatch.setattr(roles, "chat_model", lambda cfg, **kw: object())
    services = Services(VerifierSettings.load({"kb": tmp_path / "kb.sqlite", "cache": False}))
    first = services.chat("guardian", 1)
    assert services.chat("guardian", 1) is first and services.chat("guardian", 1) is first
    assert len(checks) == 2
    services.close()
