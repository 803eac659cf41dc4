"""`Verifier`: one object that checks Query-Response pairs with the graph (the CLI, batch and API use it)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from langchain_core.runnables import RunnableConfig

from agents.verifier.accounting import CallStats
from agents.verifier.context import VerifierContext
from agents.verifier.graph import build_graph, verifier_checkpointer
from agents.verifier.services import Services
from agents.verifier.settings import VerifierSettings
from agents.verifier.state import VerifierInput
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import Verdict, VerifyRequest


@dataclass(frozen=True, slots=True)
class NodeEvent:
    """One node finished: its name and the state update it returned."""

    node: str
    update: dict[str, Any]


class Verifier:
    """The triangulation verifier over one KB, with a SQLite checkpointer (in memory unless a path is given)."""

    def __init__(
        self, settings: VerifierSettings | None = None, checkpoints: Path | None = None, *, keep_threads: bool = True
    ) -> None:
        """A verifier over `settings` (default: from the environment), checkpointing to `checkpoints`.

        `keep_threads=False` deletes each pair's checkpoints once its run ends (a long-lived server's
        choice: they are only needed while the pair runs, and would otherwise grow without bound).
        """
        self.settings = settings or VerifierSettings.load()
        self.services = Services(self.settings)
        self.context = VerifierContext(self.settings, self.services)
        self.saver = verifier_checkpointer(checkpoints)
        self.graph = build_graph(self.saver)
        self.keep_threads = keep_threads

    def warm(self) -> None:
        """Load what one statement of the KB does not touch: the label linker and the evidence reader.

        The linker is WordNet and embeddings of the catalog's labels; the evidence reader is loaded when
        the Seeker is on. A server calls this at start-up (`service.warmup`), so a user's first freely
        worded sentence does not wait for them.
        """
        self.services.sentence_reader.linker  # noqa: B018 (loads on first access)
        if self.settings.use_seeker:
            self.services.evidence_reader  # noqa: B018

    def _config(self, request: VerifyRequest, thread: str | None) -> RunnableConfig:
        return {"configurable": {"thread_id": thread or f"{request.id or 'pair'}:{uuid.uuid4().hex}"}}

    def stream(self, request: VerifyRequest, thread: str | None = None) -> Iterator[NodeEvent]:
        """Node events as each node finishes; the last is `verdict_manager` with the verdict."""
        state = cast(VerifierInput, request.model_dump())
        config = self._config(request, thread)
        try:
            for chunk in self.graph.stream(state, config, context=self.context, stream_mode="updates"):
                for name, update in chunk.items():
                    yield NodeEvent(name, dict(update or {}))
        finally:
            if not self.keep_threads:
                self.saver.delete_thread(config["configurable"]["thread_id"])

    def verify(self, request: VerifyRequest, thread: str | None = None) -> Verdict:
        """The verdict of one pair."""
        verdict = None
        for event in self.stream(request, thread):
            if event.node == "verdict_manager":
                verdict = event.update.get("verdict")
        if not isinstance(verdict, Verdict):
            raise DrowzeeError("the verifier graph ended without a verdict")
        return verdict

    def call_stats(self) -> CallStats:
        """Model, judge and proof calls so far: calls, cache hits, tokens and cost per role."""
        return self.services.call_stats()

    def close(self) -> None:
        """Release the KB thread and the call cache."""
        self.services.close()

    def __enter__(self) -> Verifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["NodeEvent", "Verifier"]
