"""The verifier graph with scripted fake services: wiring, streaming, checkpoints and every fault path."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from langchain_core.language_models.fake_chat_models import FakeListChatModel

from agents.verifier.background import Background
from agents.verifier.context import VerifierContext
from agents.verifier.graph import build_graph, verifier_checkpointer
from agents.verifier.runner import Verifier
from agents.verifier.settings import VerifierSettings
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.gate import KBGate
from drowzee_core.llm.roles import RoleConfig
from drowzee_core.records.enums import Label
from drowzee_core.records.judge import JudgeScore, Support
from drowzee_core.records.verdict import (
    DecidedBy,
    Decision,
    EvidenceItem,
    EvidenceSource,
    ModelRef,
    OpinionSource,
    Verdict,
    VerifyRequest,
)
from tests.unit.verifier_fakes import EmptyStore, FakeReader, FakeSentenceReader


class FakeJudge:
    threshold = 0.5

    def __init__(self, p: float = 0.9, fail: Exception | None = None) -> None:
        self.p, self.fail, self.seen = p, fail, []

    def score(self, inputs: Sequence[Any]) -> list[JudgeScore]:
        if self.fail is not None:
            raise self.fail
        self.seen.extend(inputs)
        dec = Support.SUPPORTED if self.p >= 0.5 else Support.NOT_SUPPORTED
        return [JudgeScore(p_supported=self.p, decision=dec, best_chunk=0) for _ in inputs]


class FakeSearch:
    def __init__(self, items: list[EvidenceItem] | None = None, fail: Exception | None = None) -> None:
        self.items, self.fail = items or [], fail

    def search(self, query: str, k: int) -> list[EvidenceItem]:
        if self.fail is not None:
            raise self.fail
        return self.items[:k]


class FakeServices:
    """What the nodes call, scripted."""

    def __init__(self, guardian: Callable[[], Any], judge: FakeJudge, corpus: FakeSearch, web: FakeSearch) -> None:
        self.gate = KBGate()
        self.reader = FakeReader()
        self.sentence_reader = FakeSentenceReader()
        self.store = EmptyStore()
        self.catalog = Catalog.from_toml()  # the claims node narrows and types readings by it
        self.judge = judge
        self.corpus = corpus
        self.web = web
        self._guardian = guardian
        self.kb_fingerprint = "fake"
        self.background = Background()

    def chat(self, role: str, max_tokens: int | None = None) -> Any:
        return self._guardian()

    def role(self, name: str) -> RoleConfig:
        return RoleConfig(role=name, model=f"fake-{name}", base_url="http://127.0.0.1:1/v1")

    def model_ref(self, role: str) -> ModelRef:
        return ModelRef(model=f"fake-{role}")

    def close(self) -> None:
        self.background.close()
        self.gate.close()


def _doc(text: str) -> EvidenceItem:
    return EvidenceItem(id="x", source=EvidenceSource.CORPUS, text=text, score=1.0)


def _verifier(
    guardian: Callable[[], Any] | None = None,
    judge: FakeJudge | None = None,
    corpus: FakeSearch | None = None,
    web: FakeSearch | None = None,
    settings: dict[str, Any] | None = None,
    keep_threads: bool = True,
) -> Verifier:
    v = Verifier.__new__(Verifier)
    v.settings = VerifierSettings.load(
        {"use_kb": False, "policy": "majority", "manager": "aggregate", "extractor": "templates", **(settings or {})}
    )
    v.services = FakeServices(  # type: ignore[assignment]
        guardian or (lambda: FakeListChatModel(responses=["NON"])),
        judge or FakeJudge(0.2),
        corpus or FakeSearch([_doc("Paris is the capital of France.")]),
        web or FakeSearch([_doc("web says so")]),
    )
    v.context = VerifierContext(v.settings, v.services)  # type: ignore[arg-type]
    v.saver = verifier_checkpointer()
    v.graph = build_graph(v.saver)
    v.keep_threads = keep_threads
    return v


REQ = VerifyRequest(id="p1", query="What is the capital of France?", response="Lyon is the capital of France.")


def test_a_server_verifier_forgets_each_pair_once_its_run_ends() -> None:
    kept, forgetful = _verifier(), _verifier(keep_threads=False)
    for v in (kept, forgetful):
        v.verify(REQ, thread="t1")
    assert kept.saver.get_tuple({"configurable": {"thread_id": "t1"}}) is not None
    assert forgetful.saver.get_tuple({"configurable": {"thread_id": "t1"}}) is None


def test_streams_every_node_and_ends_with_a_verdict() -> None:
    v = _verifier()
    events = list(v.stream(REQ))
    names = [e.node for e in events]
    assert names[0] == "prepare" and names[-1] == "verdict_manager"
    assert {"claims", "seeker", "guardian"} <= set(names)
    verdict = events[-1].update["verdict"]
    assert isinstance(verdict, Verdict)
    assert verdict.label == Label.NON_FACTUAL and not verdict.degraded
    assert {o.source for o in verdict.opinions} == {OpinionSource.SEEKER, OpinionSource.GUARDIAN}
    assert set(verdict.provenance.timings) >= {"prepare", "claims", "seeker", "guardian", "verdict_manager"}
    assert verdict.claims[0].text == "Lyon is the capital of France."
    v.close()


def test_the_guardian_holds_nothing_back_while_its_model_answers() -> None:
    """Its request starts in `prepare`; the claims, KB and Seeker run while it waits; `guardian` collects it."""
    answered = threading.Event()
    seen_before_answer: list[str] = []

    class SlowModel:
        def bind(self, **_: Any) -> SlowModel:
            return self

        def invoke(self, _prompt: Any) -> Any:
            if not answered.wait(timeout=30):
                raise TimeoutError("the test never let the Guardian answer")
            return FakeListChatModel(responses=["NON"]).invoke("x")

    v = _verifier(guardian=SlowModel)
    events = []
    for e in v.stream(REQ):
        events.append(e.node)
        if e.node == "seeker":  # the Guardian has not answered yet: everything before it ran anyway
            seen_before_answer = list(events)
            answered.set()
    assert seen_before_answer == ["prepare", "claims", "seeker"]
    assert events[-2:] == ["guardian", "verdict_manager"]
    v.close()


def test_a_guardian_failure_in_the_background_degrades_the_verdict() -> None:
    def broken() -> Any:
        raise ConnectionError("model server gone")

    v = _verifier(guardian=broken)
    verdict = v.verify(REQ)
    assert any(r.startswith("guardian: ConnectionError: model server gone") for r in verdict.degraded_reasons)
    assert [o.error for o in verdict.opinions if o.source == OpinionSource.GUARDIAN] == [
        "guardian: ConnectionError: model server gone"
    ]
    v.close()


def test_explanation_cites_only_gathered_evidence(tmp_path: Path) -> None:
    from agents.verifier.aggregation import FEATURES, Calibration

    trusted = Calibration(features=list(FEATURES), coef=[0.0] * len(FEATURES), intercept=0.0, judge_threshold=0.8)
    (cal := tmp_path / "cal.json").write_text(trusted.model_dump_json(), "utf-8")
    v = _verifier(
        judge=FakeJudge(0.9), guardian=lambda: FakeListChatModel(responses=["FACT"]), settings={"calibration": cal}
    )
    verdict = v.verify(REQ)
    assert (verdict.decision, verdict.label) == (Decision.SUPPORTED, Label.FACTUAL)
    assert verdict.claims[0].decided_by == DecidedBy.JUDGE and verdict.claims[0].decided_ids
    cited = set(re.findall(r"\[([A-Z]\d+)\]", verdict.explanation))
    assert cited and cited <= set(verdict.claims[0].decided_ids)
    v.close()


def test_an_untrusted_judge_leaves_the_pair_undecided_and_says_so() -> None:
    v = _verifier(judge=FakeJudge(0.9), guardian=lambda: FakeListChatModel(responses=["FACT"]))
    verdict = v.verify(REQ)
    assert verdict.decision == Decision.UNDECIDED and verdict.confidence <= 0.70
    assert verdict.claims[0].decided_by is None
    assert verdict.explanation.split("\n")[1].startswith("Not verified: nothing I could check decides this claim.")
    assert "correct" not in verdict.explanation and not re.search(r"\[[A-Z]\d+\]", verdict.explanation)
    v.close()


def test_checkpoint_holds_the_records() -> None:
    v = _verifier()
    v.verify(REQ, thread="t-1")
    state = v.graph.get_state({"configurable": {"thread_id": "t-1"}})
    assert isinstance(state.values["verdict"], Verdict)
    assert state.values["claims"][0].id == "C1"
    v.close()


def test_checkpoints_revive_the_answer_set_record() -> None:
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    from agents.reading.claims.answer_set import AnswerSet
    from agents.verifier.checkpoints import revivable
    from agents.verifier.graph import CHECKPOINTED_TYPES

    serde = JsonPlusSerializer(allowed_msgpack_modules=revivable(CHECKPOINTED_TYPES))
    record = AnswerSet(anchors=("Milan", "Turin"), answers=("Lyon",), named=())
    assert serde.loads_typed(serde.dumps_typed({"answer_set": record})) == {"answer_set": record}


def _field_types(annotation: Any) -> set[type]:
    """Our record and enum types an annotation names, through unions, optionals and containers."""
    import enum
    import typing

    import pydantic

    found: set[type] = set()
    ours = isinstance(annotation, type) and annotation.__module__.startswith(("agents.", "drowzee_core."))
    if ours and issubclass(annotation, (pydantic.BaseModel, enum.Enum)):
        found.add(annotation)
    for arg in typing.get_args(annotation):
        found |= _field_types(arg)
    return found


@pytest.mark.parametrize("graph", ["agents.verifier.graph", "agents.loop.graph"])
def test_checkpoints_revive_every_type_their_records_hold(graph: str) -> None:
    """A record type a checkpointed record holds (a claim's `TimeWord`) must be revivable too."""
    import importlib

    import pydantic

    types: tuple[type, ...] = importlib.import_module(graph).CHECKPOINTED_TYPES
    listed, missing, todo = set(types), set(), list(types)
    while todo:
        t = todo.pop()
        if not issubclass(t, pydantic.BaseModel):
            continue
        for f in t.model_fields.values():
            for held in _field_types(f.annotation) - listed - missing:
                missing.add(held)
                todo.append(held)
    assert missing == set(), f"held by checkpointed records, not revivable: {sorted(m.__name__ for m in missing)}"


def test_checkpoints_revive_a_dated_claim() -> None:
    from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer

    from agents.reading.claim_types import ClaimOrigin, TripleClaim
    from agents.verifier.checkpoints import revivable
    from agents.verifier.graph import CHECKPOINTED_TYPES
    from drowzee_core.records.enums import TimeWord

    serde = JsonPlusSerializer(allowed_msgpack_modules=revivable(CHECKPOINTED_TYPES))
    claim = TripleClaim(
        id="C1",
        text="Since 1950, the capital of Orland is Vesk.",
        span=None,
        origin=ClaimOrigin.TEMPLATE,
        subject="Orland",
        relation="has_capital",
        object="Vesk",
        year=1950,
        time=TimeWord.SINCE,
    )
    revived = serde.loads_typed(serde.dumps_typed({"claims": [claim]}))["claims"][0]
    assert revived == claim and revived.time is TimeWord.SINCE


class BoomError(RuntimeError):
    pass


@pytest.mark.parametrize(
    ("kwargs", "source", "reason"),
    [
        ({"guardian": lambda: FakeListChatModel(responses=["maybe"])}, OpinionSource.GUARDIAN, "starts no label"),
        (
            {"guardian": lambda: (_ for _ in ()).throw(TimeoutError("read timed out"))},
            OpinionSource.GUARDIAN,
            "timed out",
        ),
        ({"judge": FakeJudge(fail=BoomError("judge crashed"))}, OpinionSource.SEEKER, "judge crashed"),
    ],
)
def test_a_failing_source_degrades_the_verdict(kwargs: dict[str, Any], source: OpinionSource, reason: str) -> None:
    v = _verifier(**kwargs)
    verdict = v.verify(REQ)
    assert verdict.degraded
    assert any(reason in r for r in verdict.degraded_reasons)
    failed = [o for o in verdict.opinions if o.source == source]
    assert failed and failed[0].error is not None and failed[0].label is None
    v.close()


def test_web_failure_degrades_but_corpus_evidence_is_judged() -> None:
    judge = FakeJudge(0.2)
    v = _verifier(judge=judge, web=FakeSearch(fail=BoomError("no network")), settings={"web": True})
    verdict = v.verify(REQ)
    assert verdict.degraded and any("no network" in r for r in verdict.degraded_reasons)
    assert any(e.source == EvidenceSource.CORPUS for e in verdict.evidence)
    assert judge.seen
    v.close()


def test_disabled_sources_give_no_opinion() -> None:
    v = _verifier(settings={"use_guardian": False, "use_seeker": False})
    verdict = v.verify(REQ)
    assert verdict.opinions == []
    assert verdict.decision == Decision.UNDECIDED
    assert "no source gave a label" in verdict.explanation
    v.close()
