"""The process that `test_batch_kill` kills: `run_batch` over a JSONL file with a deterministic fake verifier.

Run: python -m tests.integration.batch_kill_child IN.jsonl OUT.jsonl fresh|resume [SECONDS_PER_ROW]
"""

from __future__ import annotations

import sys
import time
import zlib
from functools import partial
from pathlib import Path

from agents.batch.engine import read_rows, run_batch
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import ClaimVerdict, Decision, EvidenceItem, EvidenceSource, Verdict, VerifyRequest

STATUSES = (ProofStatus.SUPPORTED, ProofStatus.CONTRADICTED, ProofStatus.UNKNOWN)


def fake_verify(req: VerifyRequest, pause: float = 0.0) -> Verdict:
    """A verdict that depends only on the request, after `pause` seconds (the time a real check takes)."""
    time.sleep(pause)
    h = zlib.crc32(f"{req.id}|{req.query}|{req.response}".encode())
    label = Label.FACTUAL if h % 2 else Label.NON_FACTUAL
    return Verdict(
        id=req.id,
        decision=Decision.SUPPORTED if label == Label.FACTUAL else Decision.REFUTED,
        label=label,
        confidence=(h % 997) / 996,
        explanation=f"{label}. " + req.response * (1 + h % 5),  # lines of varied length
        claims=[ClaimVerdict(text=req.response, status=STATUSES[h % 3], evidence_ids=["S1"])],
        evidence=[EvidenceItem(id="S1", source=EvidenceSource.SUPPLIED, text=str(req.evidence))],
    )


def main(argv: list[str]) -> None:
    """Check IN into OUT, resuming when told."""
    inputs, out, mode = Path(argv[0]), Path(argv[1]), argv[2]
    pause = float(argv[3]) if len(argv) > 3 else 0.0
    run_batch(
        read_rows(inputs), out, partial(fake_verify, pause=pause), evidence_field="evidence", resume=mode == "resume"
    )


if __name__ == "__main__":
    main(sys.argv[1:])
