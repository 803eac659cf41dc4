from __future__ import annotations

from pathlib import Path

import pytest

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.writer import KBWriter
from drowzee_core.logic.engine import PrologEngine
from drowzee_core.logic.prolog_facts import load_prolog_facts
from tests.conftest import peers_path

pytestmark = pytest.mark.integration


def _writer() -> KBWriter:
    return KBWriter(KBStore(":memory:", create=True), Catalog.from_toml(), auto_relations=True)


def test_fact_file_loads_facts_and_never_runs_code(tmp_path: Path) -> None:
    sentinel = tmp_path / "pwned"
    f = tmp_path / "facts.pl"
    f.write_text(
        "located_in('Paris', 'France').\n"
        f":- shell('touch {sentinel}').\n"
        "capital(X) :- halt.\n"
        "\\+ located_in('Paris', 'Germany').\n"
        "weird('it''s :- halt.', \"str\").\n"
        "bad( .\n"
        "f(g(x), y).\n"
        "begin('War', 1, 1, 1914).\nbegin('War', 1, 1, 1916).\nend('War', 11, 11, 1918).\n"
        "begin('Odd', 1, 1, 2000).\nend('Odd', 1, 1, 1990).\n",
        encoding="utf-8",
    )
    w = _writer()
    report = load_prolog_facts(f, w, PrologEngine())
    reasons = {e.line: e.reason for e in report.errors}
    assert "facts only" in reasons[2] and "facts only" in reasons[3]
    assert "syntax error" in reasons[6]
    assert "atomic arguments" in reasons[7]
    assert any("no begin <= end" in r for r in reasons.values())
    stats = w.store.stats()
    assert stats.negative_facts == 1
    assert stats.temporal_facts == 2  # War: [1914, 1918] and [1916, 1918]
    assert "it's :- halt." in set(w.store.labels(w.store.entity_ids().values()).values())
    assert not sentinel.exists()


def test_drowzee_temporal_facts_file_loads_completely() -> None:
    facts = peers_path("drowzee_temporal", "facts.pl")
    report = load_prolog_facts(facts, _writer(), PrologEngine())
    assert report.accepted == 3028 and not report.errors
    assert report.new_triples >= 1514
