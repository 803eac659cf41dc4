"""The evidence reader's fixture text and one-claim helper, shared by the evidence-reading test modules."""

from __future__ import annotations

from agents.reading.evidence.reader import EvidenceReader, finding_of
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource

TEXT = (
    "Insulin was first isolated in 1921 by Frederick Banting and Charles Best at the University of Toronto. "
    "Radium was discovered by Marie Curie in 1898. "
    "She later won a second Nobel Prize."
)


def read(reader: EvidenceReader, claim: str, query: str = "", text: str = TEXT) -> tuple[str, str, list[str]]:
    """One claim read against one supplied item: (decision, reason, cited sentence ids)."""
    items = [EvidenceItem(id="S1", source=EvidenceSource.SUPPLIED, text=text)]
    sentences = reader.sentences(items)
    f = finding_of(reader.read(query, claim, sentences), sentences)
    return f.decision, f.reason, [s.id for s in f.sentences]
