"""The verifier's services, built lazily from its settings: KB + Prolog, readers, retrieval, models.

Model, judge, proof and web calls go through the call cache (`agents/verifier/cache.py`, unless
`settings.cache` is off) and are counted per role (`agents/verifier/accounting.py`): `call_stats()`
reads the counts.

Every call that touches the KB or Prolog goes through `drowzee_core.kb.gate.KBGate`, the one thread that
owns the store and the engines.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar

from agents.verifier.accounting import CallRecorder, CallStats, UsageHandler
from agents.verifier.background import Background
from agents.verifier.settings import VerifierSettings
from drowzee_core.kb.gate import KBGate
from drowzee_core.llm.roles import RoleConfig, load_role
from drowzee_core.records.verdict import ModelRef

if TYPE_CHECKING:
    from langchain_openai import ChatOpenAI

    from agents.reading.claims import SentenceReader
    from agents.reading.evidence import EvidenceReader, ModelEvidenceReader
    from agents.reading.templates import QueryReader
    from drowzee_core.kb.catalog import Catalog
    from drowzee_core.kb.linking import KBLinker
    from drowzee_core.kb.store import KBStore
    from drowzee_core.llm.judge import Judge
    from drowzee_core.logic.reasoner import Reasoner
    from drowzee_core.logic.temporal import TemporalEngine
    from drowzee_core.retrieval.cache import JsonCache
    from drowzee_core.retrieval.corpus import Corpus
    from drowzee_core.retrieval.kbfacts import KBFacts
    from drowzee_core.retrieval.web import WebSearch

log = logging.getLogger(__name__)
T = TypeVar("T")
MODEL_READING_TOKENS = 400
"""Completion tokens for one claim's evidence judgement (JSON: decision, sentence ids, one-sentence reason)."""


class Services:
    """Everything the nodes call, built on first use from `settings` (so a fast path never loads a model)."""

    def __init__(self, settings: VerifierSettings) -> None:
        self.settings = settings
        self.gate = KBGate()
        self._lock = threading.Lock()
        self._roles: dict[str, RoleConfig] = {}
        self._chats: dict[tuple[str, int | None], ChatOpenAI] = {}
        self._refs: dict[str, ModelRef] = {}
        self._temporal: TemporalEngine | None = None
        self.recorder = CallRecorder()
        self._cache_lock = threading.Lock()
        self._cache: JsonCache | None = None
        self.background = Background()

    # -------------------------------------------------------------- call cache and accounting
    def call_cache(self) -> JsonCache | None:
        """The call cache file, opened on first use; None when `settings.cache` is off."""
        if not self.settings.cache:
            return None
        with self._cache_lock:
            if self._cache is None:
                from agents.verifier.cache import default_cache_path
                from drowzee_core.retrieval.cache import JsonCache

                self._cache = JsonCache(self.settings.cache_path or default_cache_path())
            return self._cache

    def call_stats(self) -> CallStats:
        """Calls, cache hits, tokens and cost per role so far (subtract an earlier snapshot for a delta)."""
        return self.recorder.snapshot()

    def memo(
        self,
        tool: str,
        params: dict[str, Any],
        compute: Callable[[], T],
        encode: Callable[[T], Any],
        decode: Callable[[Any], T],
    ) -> T:
        """`compute()` through the call cache under (tool, params), counted as a hit or a miss of `tool`."""
        from agents.verifier.cache import memo

        return memo(self.call_cache(), self.recorder, tool, params, compute, encode, decode)

    # -------------------------------------------------------------- KB side (on the gate thread)
    @cached_property
    def store(self) -> KBStore:
        """The user's KB (opened on the gate thread; use it only through `gate.run`)."""
        from drowzee_core.kb.store import KBStore

        return self.gate.run(KBStore, self.settings.kb)

    @cached_property
    def catalog(self) -> Catalog:
        """The KB's relation catalog, extended with the bundled relations a KB built before them lacks.

        A user's KB (`drowzee_core.kb.declarations`) is read with its own relations alone: a bundled
        relation it has no fact of would only misread its sentences.
        """
        from drowzee_core.kb.declarations import META_BASE, USER_BASE
        from drowzee_core.logic.scratch import bundled_catalog

        store = self.store
        catalog, meta = self.gate.run(lambda: (store.catalog(), store.meta()))
        return catalog if meta.get(META_BASE) == USER_BASE else catalog.extended_with(bundled_catalog())

    @cached_property
    def kb_fingerprint(self) -> str:
        """Content fingerprint of the KB."""
        store = self.store
        return self.gate.run(store.fingerprint)

    @cached_property
    def reasoner(self) -> Reasoner:
        """The KB loaded into Prolog (module `drowzee`)."""
        from drowzee_core.logic.reasoner import Reasoner

        store = self.store
        return self.gate.run(Reasoner, store)

    def temporal_engine(self) -> TemporalEngine:
        """The MTL engine over the KB's dated events (built on first use, on the KB thread).

        Prolog holds one event set per process: when another engine (the temporal generator, say)
        replaced it, this one is rebuilt.
        """
        if self._temporal is None or not self._temporal.current:
            from drowzee_core.logic.events import events_from_kb
            from drowzee_core.logic.temporal import TemporalEngine, kb_horizon

            store, horizon = self.store, kb_horizon()

            def build() -> TemporalEngine:
                return TemporalEngine(events_from_kb(store, horizon[1]), horizon)

            self._temporal = self.gate.run(build)
        return self._temporal

    @cached_property
    def reader(self) -> QueryReader:
        """Reads catalog-phrased statements and query + short answer into claims."""
        from agents.reading.templates import QueryReader
        from drowzee_core.kb.naming import stored_objects

        store = self.store
        return QueryReader(self.catalog, hops=lambda name, rel: self.gate.run(stored_objects, store, name, rel))

    @cached_property
    def sentence_reader(self) -> SentenceReader:
        """Reads free sentences and yes / no questions into claims (`agents.reading`)."""
        from agents.reading.claims import SentenceReader

        return SentenceReader(self.catalog, learned=self.settings.learned_reader)

    @cached_property
    def evidence_reader(self) -> EvidenceReader:
        """Reads each claim against the supplied evidence's sentences (`agents.reading.evidence.reader`)."""
        from agents.reading.evidence import default_reader

        return default_reader()

    @cached_property
    def model_evidence_reader(self) -> ModelEvidenceReader | None:
        """The LLM evidence reader of `evidence_role()`, or None when the embedded reader reads alone."""
        from agents.reading.evidence import ModelEvidenceReader, reading_role
        from drowzee_core.llm.judge import is_in_process

        settings = self.settings
        role = reading_role(settings.evidence_reading, settings.judge_role, is_in_process(self.role("judge")))
        if role is None:
            return None
        return ModelEvidenceReader(self.chat(role, max_tokens=MODEL_READING_TOKENS), f"{role}: {self.role(role).model}")

    @cached_property
    def linker(self) -> KBLinker:
        """Links free predicates to catalog relations by embedding (entities through the gate)."""
        from drowzee_core.kb.linking import KBLinker
        from drowzee_core.llm.embeddings import embedder

        return KBLinker(self.store, self.catalog, embedder().encode)

    @cached_property
    def kb_facts(self) -> KBFacts:
        """Verbalized KB facts about entities."""
        from drowzee_core.retrieval.kbfacts import KBFacts

        return self.gate.run(KBFacts, self.store)

    @cached_property
    def corpus(self) -> Corpus:
        """Hybrid BM25 + embedding search over the KB's facts and the user's documents."""
        from drowzee_core.retrieval.corpus import Corpus

        store = self.store if self.settings.kb_corpus else None
        return self.gate.run(Corpus.open, store, self.settings.corpus)

    @cached_property
    def web(self) -> WebSearch:
        """DuckDuckGo search with a persistent cache."""
        from drowzee_core.retrieval.web import WebSearch

        return WebSearch(enabled=self.settings.web, cache=self.call_cache())

    # -------------------------------------------------------------- models
    def role(self, name: str) -> RoleConfig:
        """A role's configuration (explicit file from the settings, environment, defaults), read once."""
        if name not in self._roles:
            self._roles[name] = load_role(name, config=self.settings.roles)
        return self._roles[name]

    @cached_property
    def judge(self) -> Judge:
        """The Seeker's judge: the trained `judge` role, or the `seeker` role's LLM with the judge prompt.

        Its scores are cached per input and counted under the role that serves it.
        """
        from agents.verifier.cache import CachingJudge
        from drowzee_core.llm.judge import LLMJudge, judge_for

        role = self.settings.judge_role
        callbacks = [UsageHandler(self.role(role), self.recorder)]
        inner = (
            LLMJudge(self.role(role), callbacks=callbacks)
            if role == "seeker"
            else judge_for(self.role(role), callbacks=callbacks)
        )
        params: dict[str, Any] = getattr(inner, "cache_params", {})  # what else decides a score (prompt, calibration)
        return CachingJudge(
            inner,
            role=role,
            ref=self.model_ref(role),
            params=params,
            recorder=self.recorder,
            store=self.call_cache(),
            count_calls=not isinstance(inner, LLMJudge),  # an LLM judge's client reports its own calls
        )

    def chat(self, role: str, max_tokens: int | None = None) -> ChatOpenAI:
        """A role's chat client, made once per (role, max_tokens).

        When the role points at the local model server, the server is checked on every call (one
        loopback request) and started again when it is gone: a server started by another process
        exits with that process, and a long batch must not degrade every verdict after that.
        """
        from agents.verifier.cache import RoleCache
        from drowzee_core.llm.roles import chat_model

        with self._lock:  # one server start at a time
            if (role, max_tokens) in self._chats and self.role(role).is_local:
                from drowzee_core.llm.launch import ensure_local_server

                ensure_local_server()
            if (role, max_tokens) not in self._chats:
                cfg = self.role(role)
                update: dict[str, Any] = {"timeout": min(cfg.timeout, self.settings.timeout_s)}
                if max_tokens is not None:
                    update["max_tokens"] = max_tokens
                store = self.call_cache()
                # cache=False, not None: with the cache off, LangChain's global cache must not be read either
                cache = RoleCache(store, role, self.model_ref(role), self.recorder) if store is not None else False
                callbacks = [UsageHandler(cfg, self.recorder)]
                self._chats[role, max_tokens] = chat_model(
                    cfg.model_copy(update=update), cache=cache, callbacks=callbacks
                )
            return self._chats[role, max_tokens]

    def model_ref(self, role: str) -> ModelRef:
        """Which model serves `role`, with the adapter's weights hash when it is a local adapter (hashed once).

        The in-process judge's adapter is the shipped cross-encoder (`finetune/adapters/judge`).
        """
        from drowzee_core.llm.judge import is_in_process
        from drowzee_core.llm.local import find_adapters, weights_sha256

        if role not in self._refs:
            cfg = self.role(role)
            sha = None
            if role == "judge" and is_in_process(cfg):
                from drowzee_core.llm.judge.manifest import judge_weights_sha256, shipped_judge_dir

                sha = judge_weights_sha256(shipped_judge_dir())
            elif cfg.is_local and (served := find_adapters().get(cfg.model)) is not None:
                sha = weights_sha256(served.path)
            self._refs[role] = ModelRef(model=cfg.model, base_url=cfg.base_url, adapter_sha256=sha)
        return self._refs[role]

    def close(self) -> None:
        """Release the KB thread and the background calls, and close the call cache."""
        self.background.close()
        self.gate.close()
        with self._cache_lock:
            if self._cache is not None:
                self._cache.close()
                self._cache = None


__all__ = ["Services"]
