"""The bundled seed KB: built offline from registry packages, reasoned over in full."""

from __future__ import annotations

from pathlib import Path

import pytest

from drowzee_core.kb.model import DOMAINS
from drowzee_core.kb.store import KBStore, Stats
from drowzee_core.logic.reasoner import Reasoner

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def seed(seed_kb: tuple[Path, Stats]) -> tuple[Path, Stats]:
    return seed_kb


def test_seed_kb_meets_the_coverage_targets(seed: tuple[Path, Stats]) -> None:
    _, stats = seed
    assert stats.triples >= 100_000
    assert stats.temporal_facts >= 1_000
    assert set(DOMAINS) <= set(stats.domains)
    assert all(stats.domains[d] >= 200 for d in DOMAINS), stats.domains


def test_every_source_records_a_licence(seed: tuple[Path, Stats]) -> None:
    with KBStore(seed[0]) as store:
        sources = store.sources()
        assert {s["name"] for s in sources} == set(store.stats().sources)
        assert all(s["licence"] and "GPL" not in s["licence"].replace("LGPL", "") for s in sources)


def test_seed_kb_reasoning(seed: tuple[Path, Stats]) -> None:
    reasoner = Reasoner(KBStore(seed[0]))
    runs = {str(r.family): r.facts for r in reasoner.derive()}
    assert all(runs[f] > 0 for f in ("symmetric", "inverse", "transitive", "composite")), runs
    assert reasoner.triples == seed[1].triples  # all of it, no sampling
    assert reasoner.prove("Paris", "located_in", "Europe").status == "supported"
    assert reasoner.prove("Berlin", "capital_of", "France").status == "contradicted"
    assert reasoner.prove("Lyon", "uses_currency", "Euro").status == "supported"
    assert reasoner.prove("Helium", "discovery_year", "1895").status == "supported"
    assert reasoner.prove("Helium", "discovery_year", "1900").status == "contradicted"
    assert reasoner.prove("Python", "created_by", "Guido van Rossum").status == "supported"
    assert reasoner.prove("Guido van Rossum", "created", "Python").status == "supported"
