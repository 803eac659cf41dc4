"""Stage 6 of the reading floor, evidence: a claim read against supplied evidence sentences.

Evidence sentences and what they speak of (`sentences`), a claim's content units (`units`), where they stand
(`matching`), conflicts and polarity, then `support.decide`: supported, refuted, or not enough info.
`EvidenceReader` wires these with bm25s and embeddings; `default_reader` is the embedded one;
`ModelEvidenceReader` asks an LLM role instead.
"""

from agents.reading.evidence.build import build_reader, default_reader
from agents.reading.evidence.llm_reader import ModelEvidenceReader, reading_role
from agents.reading.evidence.reader import EvidenceReader, finding_of, value_stated
from agents.reading.evidence.support import FEATURES, EvidenceDecision, yes_or_no

__all__ = [
    "FEATURES",
    "EvidenceDecision",
    "EvidenceReader",
    "ModelEvidenceReader",
    "build_reader",
    "default_reader",
    "finding_of",
    "reading_role",
    "value_stated",
    "yes_or_no",
]
