"""The call cache: chat calls through LangChain's cache path, judge scores, proofs, and a whole verification.

Scripted fakes only (no network, no Prolog, no model): a second verification of the same pair with the
same cache file must call no model, judge or prover and give the same verdict.
"""

from __future__ import annotations

import importlib
import re
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_openai import ChatOpenAI
from pydantic import Field

from agents.call_cache import CachingJudge, RoleCache, default_cache_path, memo, stable_llm_string
from agents.calls import CACHE_HIT, CallRecorder, RoleUsage, UsageHandler
from agents.context import VerifierSettings
from agents.schemas import Claim, KBOrigin, KBResult
from agents.verifier import Verifier
from drowzee_core.llm.roles import RoleConfig
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.judge import JudgeScore, Support
from drowzee_core.records.proof import ProofNode
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource, ModelRef, Verdict, VerifyRequest
from drowzee_core.retrieval.cache import JsonCache

pytestmark = pytest.mark.filterwarnings("ignore:The function `load` is in beta")

REMOTE = "https://api.example.com/v1"
REF = ModelRef(model="guardian", base_url=REMOTE, adapter_sha256="a" * 64)


class ScriptedChat(BaseChatModel):
    """Answers from a script with token usage; raises when `fail` (a model that must not be called)."""

    model: str = "scripted"
    replies: list[str] = Field(default_factory=lambda: ["FACTUAL"])
    prompts: list[str] = Field(default_factory=list)
    fail: bool = False

    @property
    def _llm_type(self) -> str:
        return "scripted"

    @property
    def _identifying_params(self) -> dict[str, Any]:
        return {"model": self.model}

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None, **kwargs: Any) -> ChatResult:
        if self.fail:
            raise AssertionError(f"model {self.model} was called on a cached prompt")
        text = self.replies[len(self.prompts) % len(self.replies)]
        self.prompts.append(str(messages[-1].content))
        usage = {"input_tokens": 12, "output_tokens": 1, "total_tokens": 13}
        message = AIMessage(content=text, usage_metadata=usage, response_metadata={"token_usage": {"x": 1}})  # type: ignore[arg-type]
        return ChatResult(generations=[ChatGeneration(message=message)])


def _client(store: JsonCache | None, rec: CallRecorder, ref: ModelRef = REF, **kw: Any) -> ScriptedChat:
    cfg = RoleConfig(role="guardian", model="guardian", base_url=REMOTE, input_price=1.0, output_price=4.0)
    cache = RoleCache(store, "guardian", ref, rec) if store is not None else False
    return ScriptedChat(cache=cache, callbacks=[UsageHandler(cfg, rec)], **kw)


def test_a_cached_chat_call_is_not_called_again_nor_counted_as_tokens() -> None:
    store, rec = JsonCache(":memory:"), CallRecorder()
    first = _client(store, rec)
    a = first.invoke("Is Paris in France?")
    again = _client(store, rec, fail=True)
    b = again.invoke("Is Paris in France?")
    assert b.content == a.content == "FACTUAL" and not again.prompts
    assert b.response_metadata[CACHE_HIT] and "token_usage" not in b.response_metadata
    assert (b.usage_metadata or {}).get("input_tokens", 0) == 0
    assert rec.snapshot().roles["guardian"] == RoleUsage(
        calls=1, cache_hits=1, input_tokens=12, output_tokens=1, cost_usd=round((12 * 1.0 + 1 * 4.0) / 1e6, 9)
    )
    assert len(store) == 1


@pytest.mark.parametrize(
    ("ref", "model", "prompt"),
    [
        (REF.model_copy(update={"adapter_sha256": "b" * 64}), "scripted", "Is Paris in France?"),  # retrained adapter
        (REF.model_copy(update={"model": "other"}), "scripted", "Is Paris in France?"),  # other served model
        (REF, "other-client", "Is Paris in France?"),  # other client parameters
        (REF, "scripted", "Is Lyon in France?"),  # other prompt
    ],
)
def test_another_model_adapter_or_prompt_misses(ref: ModelRef, model: str, prompt: str) -> None:
    store, rec = JsonCache(":memory:"), CallRecorder()
    _client(store, rec).invoke("Is Paris in France?")
    other = _client(store, rec, ref=ref, model=model)
    other.invoke(prompt)
    assert other.prompts == [prompt]
    assert rec.snapshot().roles["guardian"].cache_hits == 0


def test_cache_off_reads_and_writes_nothing() -> None:
    rec = CallRecorder()
    for _ in range(2):
        _client(None, rec).invoke("Is Paris in France?")
    assert rec.snapshot().roles["guardian"] == RoleUsage(
        calls=2, input_tokens=24, output_tokens=2, cost_usd=round(2 * 16 / 1e6, 9)
    )


def test_chat_key_ignores_timeout_retries_and_key_but_not_temperature() -> None:
    def llm_string(**kw: Any) -> str:
        base = {"base_url": REMOTE, "model": "gpt", "api_key": "k1", "timeout": 30.0, "max_retries": 2} | kw
        return stable_llm_string(ChatOpenAI(**base)._get_llm_string())

    assert llm_string() == llm_string(timeout=99.0, max_retries=5, api_key="k2")
    assert llm_string() != llm_string(temperature=0.7)
    assert llm_string() != llm_string(max_completion_tokens=1)
    assert stable_llm_string("not json---[('stop', None)]") == "not json---[('stop', None)]"


class CountingJudge:
    threshold = 0.5

    def __init__(self, fail: bool = False) -> None:
        self.batches: list[list[Any]] = []
        self.input_tokens = 0
        self.fail = fail

    def score(self, inputs: Sequence[Any]) -> list[JudgeScore]:
        if self.fail:
            raise AssertionError("the judge was called on cached inputs")
        self.batches.append(list(inputs))
        self.input_tokens += 10 * len(inputs)
        return [JudgeScore(p_supported=len(r) / 100, decision=Support.SUPPORTED, best_chunk=0) for _, r, _ in inputs]


def _judge(store: JsonCache | None, rec: CallRecorder, inner: CountingJudge, ref: ModelRef = REF) -> CachingJudge:
    return CachingJudge(
        inner, role="judge", ref=ref, params={"calibration": 1}, recorder=rec, store=store, count_calls=True
    )


def test_judge_scores_are_cached_per_input_and_misses_scored_in_one_batch() -> None:
    store, rec = JsonCache(":memory:"), CallRecorder()
    a, b, c = ("q", "A is B.", ["e1"]), ("q", "A is C too.", ["e1"]), ("q", "C.", ["e2", "e3"])
    inner = CountingJudge()
    first = _judge(store, rec, inner).score([a, b])
    mixed = _judge(store, rec, inner).score([b, c, a])
    assert inner.batches == [[a, b], [c]]
    assert mixed == [first[1], JudgeScore(p_supported=0.02, decision=Support.SUPPORTED, best_chunk=0), first[0]]
    assert rec.snapshot().roles["judge"] == RoleUsage(calls=3, cache_hits=2, input_tokens=30)
    again = _judge(store, rec, CountingJudge(fail=True)).score([a, b, c])
    assert again == [first[0], first[1], mixed[1]]
    other = CountingJudge()
    _judge(store, rec, other, REF.model_copy(update={"adapter_sha256": "c" * 64})).score([a])
    assert other.batches == [[a]]


def test_equal_inputs_in_one_call_are_scored_once() -> None:
    rec, inner = CallRecorder(), CountingJudge()
    a, b = ("q", "A is B.", ["e"]), ("q", "B.", ["e"])
    scores = _judge(JsonCache(":memory:"), rec, inner).score([a, a, b])
    assert inner.batches == [[a, b]] and scores[0] is scores[1] and scores[2] != scores[0]
    assert rec.snapshot().roles["judge"] == RoleUsage(calls=2, input_tokens=20)


def test_judge_without_a_store_scores_everything() -> None:
    rec, inner = CallRecorder(), CountingJudge()
    for _ in range(2):
        _judge(None, rec, inner).score([("q", "r", ["e"])])
    assert len(inner.batches) == 2 and rec.snapshot().roles["judge"].cache_hits == 0


def test_memo_counts_hits_and_misses_and_recomputes_an_unreadable_entry() -> None:
    store, rec = JsonCache(":memory:"), CallRecorder()
    runs: list[int] = []

    def compute() -> list[int]:
        runs.append(1)
        return [1, 2]

    def decode(v: Any) -> list[int]:
        if not all(isinstance(x, int) for x in v):
            raise ValueError("old shape")
        return list(v)

    assert memo(store, rec, "prove", {"k": 1}, compute, list, decode) == [1, 2]
    assert memo(store, rec, "prove", {"k": 1}, compute, list, decode) == [1, 2]
    assert len(runs) == 1
    store.put("prove", {"k": 2}, ["x"])
    assert memo(store, rec, "prove", {"k": 2}, compute, list, decode) == [1, 2]
    assert memo(None, rec, "prove", {"k": 1}, compute, list, decode) == [1, 2]
    assert len(runs) == 3
    assert rec.snapshot().hits == {"prove": 1} and rec.snapshot().misses == {"prove": 3}


def test_one_file_shared_by_two_connections(tmp_path: Path) -> None:
    path = tmp_path / "calls.sqlite"
    caches = [JsonCache(path), JsonCache(path)]

    def write(c: JsonCache, base: int) -> None:
        for i in range(40):
            c.put("t", {"i": base + i}, i)

    threads = [threading.Thread(target=write, args=(c, 100 * n)) for n, c in enumerate(caches)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(caches[0]) == 80 and caches[1].get("t", {"i": 139}) is not None
    for c in caches:
        c.close()


def test_default_cache_file_is_under_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path))
    assert default_cache_path() == tmp_path / "cache" / "calls.sqlite"


# ------------------------------------------------------------------ a whole verification, twice


class FakeReader:
    def with_query(self, query: str, response: str) -> list[Any]:
        return []

    def read(self, text: str) -> list[Any]:
        return []

    def sentences(self, text: str) -> list[tuple[tuple[int, int], str]]:
        return [((m.start(), m.end()), m.group()) for m in re.finditer(r"[^.]+\.?", text) if m.group().strip()]


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
    import drowzee_core.llm.judge as judge_mod
    import drowzee_core.llm.roles as roles

    kb_check = importlib.import_module("agents.nodes.kb_check")  # the package exports a node of that name

    monkeypatch.setattr(roles, "chat_model", fakes.chat_model)
    monkeypatch.setattr(judge_mod, "judge_for", lambda cfg, callbacks=None: fakes.judge)
    monkeypatch.setattr(kb_check, "check_claims", fakes.check_claims)
    base = {"policy": "majority", "manager": "aggregate", "extractor": "templates", "roles": None}
    v = Verifier(VerifierSettings(**(base | settings)))
    v.services.__dict__.update(  # cached properties, pre-filled: no KB, Prolog or embedder is opened
        reader=FakeReader(), corpus=FakeCorpus(), kb_fingerprint="fake-kb", reasoner=object(), catalog=object()
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
    import drowzee_core.llm.roles as roles
    import drowzee_core.llm.server as server
    from agents.services import Services

    checks: list[int] = []
    monkeypatch.setattr(server, "ensure_local_server", lambda *a, **k: checks.append(1))
    monkeypatch.setattr(roles, "chat_model", lambda cfg, **kw: object())
    services = Services(VerifierSettings.load({"kb": tmp_path / "kb.sqlite", "cache": False}))
    first = services.chat("guardian", 1)
    assert services.chat("guardian", 1) is first and services.chat("guardian", 1) is first
    assert len(checks) == 2
    services.close()
