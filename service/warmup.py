"""Warming the verifier at start-up, so that the first check a user makes answers fast.

The verifier loads lazily: the KB into Prolog, spaCy, the relation lexicon, the embedding model and
the model server's Guardian all start on the first request, which then takes 20 s or more. With
`warm` on (the default; `DROWZEE_SERVICE_WARM=false` turns it off), the server starts a background
thread that builds the verifier and checks one pair made from the KB's first stored fact, then loads
what that pair does not touch (`Verifier.warm`: the label linker's WordNet and embeddings, about 7 s,
which the first freely worded sentence would otherwise wait for, and the evidence reader), so that
every part of the graph has loaded. `/healthz` says `ready` once it has finished (and `warming` while
it runs); a failure is logged and shown there, and the server keeps serving (the first request then
loads what is missing, as without warming).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from drowzee_core.kb.template_regex import fill
from drowzee_core.records.verdict import VerifyRequest

if TYPE_CHECKING:
    from agents.verifier.services import Services

log = logging.getLogger(__name__)

WARM_QUERY = "Is this statement true?"


def warm_pair(services: Services) -> VerifyRequest | None:
    """A pair whose response states the KB's first stored fact in its catalog's words (None: no fact).

    Call on the KB thread.
    """
    store = services.store
    row = store.db.execute(
        "SELECT t.s, r.name, t.o FROM triple t JOIN relation r ON r.id = t.r WHERE t.negated = 0 ORDER BY t.id LIMIT 1"
    ).fetchone()
    if row is None:
        return None
    s, relation, o = row
    labels = store.labels([s, o])
    spec = store.catalog().get(relation)
    sentence = fill(spec.positive, labels[s], labels[o])
    return VerifyRequest(id="warm-up", query=WARM_QUERY, response=sentence)


class WarmUp:
    """The state of the start-up warm-up: not started, warming, ready, or failed with a message."""

    def __init__(self) -> None:
        self.state = "off"
        self.error: str | None = None
        self.seconds: float | None = None
        self._thread: threading.Thread | None = None

    def start(self, build: Callable[[], Any], pair: Callable[[], VerifyRequest | None]) -> None:
        """Build the verifier and check `pair()` in a daemon thread (`build` returns the verifier)."""
        self.state = "warming"

        def run() -> None:
            t0 = time.perf_counter()
            try:
                checker = build()
                request = pair()
                if request is not None:
                    checker.verify(request, thread="warm-up")
                load_rest = getattr(checker, "warm", None)
                if callable(load_rest):  # what one statement does not touch: the label linker, the evidence reader
                    load_rest()
            except Exception as exc:  # the server serves on; the first request loads what is missing
                self.state, self.error = "failed", f"{type(exc).__name__}: {exc}"
                log.warning("warming the verifier failed (%s); the first check will load it", self.error)
                return
            self.seconds = round(time.perf_counter() - t0, 1)
            self.state = "ready"
            log.info("verifier warmed in %.1f s: the first check answers fast", self.seconds)

        self._thread = threading.Thread(target=run, name="drowzee-warm-up", daemon=True)
        self._thread.start()

    def join(self, timeout: float | None = None) -> None:
        """Wait for the warm-up thread (tests)."""
        if self._thread is not None:
            self._thread.join(timeout)

    def health(self) -> dict[str, Any]:
        """What `/healthz` says of the warm-up."""
        out: dict[str, Any] = {"warm_up": self.state}
        if self.seconds is not None:
            out["warm_up_seconds"] = self.seconds
        if self.error is not None:
            out["warm_up_error"] = self.error
        return out


__all__ = ["WARM_QUERY", "WarmUp", "warm_pair"]
