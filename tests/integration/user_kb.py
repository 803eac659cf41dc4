"""A verifier over an invented user KB, loaded the way `drowzee kb load FILE --relations REL.toml` loads it."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from agents.verifier.runner import Verifier
from agents.verifier.settings import VerifierSettings
from drowzee_core.kb.declarations import read_declarations
from drowzee_core.kb.loaders.tabular import load_csv
from drowzee_core.kb.loading import finish_load, writer_for_load
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.scratch import bundled_catalog
from drowzee_core.records.verdict import Decision, VerifyRequest


@contextmanager
def user_kb_verifier(folder: Path, relations: str, facts: str) -> Iterator[Verifier]:
    """A verifier (no Guardian, no call cache) over the KB of `relations` (TOML) and `facts` (CSV) in `folder`."""
    (folder / "relations.toml").write_text(relations, encoding="utf-8")
    (folder / "kb.csv").write_text(facts, encoding="utf-8")
    path = folder / "kb.sqlite"
    with KBStore(path, create=True) as store:
        plan = writer_for_load(store, read_declarations(folder / "relations.toml"), bundled_catalog())
        report = load_csv(folder / "kb.csv", plan.writer)
        finish_load(store, plan, report)
    assert report.errors == [] and report.undeclared == [], (report.errors, report.undeclared)
    settings = VerifierSettings.load({"kb": path, "use_guardian": False, "extractor": "templates", "cache": False})
    with Verifier(settings) as v:
        yield v


def assert_decided(verifier: Verifier, query: str, response: str, decision: Decision) -> None:
    """The pair's verdict is `decision`; a failure shows the explanation and each claim's status."""
    v = verifier.verify(VerifyRequest(id="v", query=query, response=response))
    assert v.decision == decision, (v.explanation, [(c.status, c.text) for c in v.claims])
