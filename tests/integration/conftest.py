"""Fixtures of the integration tier shared across modules."""

from __future__ import annotations

import pytest

from agents.reading.evidence_reader import EvidenceReader, default_reader


@pytest.fixture(scope="session")
def reader() -> EvidenceReader:
    """The embedded evidence reader (spaCy, WordNet, embeddings), loaded once."""
    return default_reader()
