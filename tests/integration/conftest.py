"""Fixtures of the integration tier shared across modules."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from agents.reading.evidence.build import default_reader
from agents.reading.evidence.reader import EvidenceReader
from agents.verifier.runner import Verifier
from agents.verifier.settings import VerifierSettings
from drowzee_core.kb.model import Stats


@pytest.fixture(scope="session")
def reader() -> EvidenceReader:
    """The embedded evidence reader (spaCy, WordNet, embeddings), loaded once."""
    return default_reader()


@pytest.fixture(scope="module")
def verifier(seed_kb: tuple[Path, Stats]) -> Iterator[Verifier]:
    """KB check, claims and Seeker on the seed KB; the Guardian (a model server, about a minute a pair) is left out."""
    settings = VerifierSettings.load({"kb": seed_kb[0], "use_guardian": False, "extractor": "templates"})
    with Verifier(settings) as v:
        yield v
