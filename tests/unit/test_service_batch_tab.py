"""The Batch tab's metrics and results table (`service/ui/batch.py`), per decision, from a job's status."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from agents.batch.tally import Tally
from service.jobs import BatchJob, BatchStatus
from service.ui import batch


def record(row: int, expected: str, label: str, decision: str | None) -> dict[str, Any]:
    verdict: dict[str, Any] = {"label": label, "confidence": 0.6, "degraded": False, "explanation": f"{label}."}
    if decision is not None:
        verdict["decision"] = decision
    return {"row": row, "id": str(row), "expected": expected, "verdict": verdict}


def status(records: list[dict[str, Any]]) -> BatchStatus:
    tally = Tally()
    for rec in records:
        tally.add(rec)
    job = BatchJob(
        id="0" * 12,
        filename="pairs.jsonl",
        input="pairs.jsonl",
        created=datetime.now(UTC),
        status="done",
        total=len(records),
        columns={},
    )
    return BatchStatus(
        job=job,
        done=tally.rows,
        counts=dict(tally.counts),
        decisions=dict(tally.decisions),
        metrics=tally.metrics(),
        results=records,
        next_offset=None,
    )


def test_metrics_show_counts_coverage_and_accuracy_per_decision() -> None:
    records = [
        record(1, "NON-FACTUAL", "NON-FACTUAL", "refuted"),
        record(2, "FACTUAL", "FACTUAL", "supported"),
        record(3, "NON-FACTUAL", "FACTUAL", "undecided"),
        record(4, "FACTUAL", "FACTUAL", "undecided"),
        {"row": 5, "id": "5", "error": "pairs.jsonl:5: missing field 'response'"},
    ]
    html = batch._metrics_html(status(records))
    assert "decisions: 1 supported, 1 refuted, 0 unsupported, 2 undecided" in html
    assert "coverage (share of rows decided): 0.500" in html and "id='batch-decisions'" in html
    for words in ("decided rows", "undecided rows", "all rows", "always FACTUAL", "always NON-FACTUAL"):
        assert words in html
    table = batch._table(status(records))
    assert [r[3] for r in table] == ["refuted", "supported", "undecided", "undecided", ""]
    assert len(table[0]) == len(batch.HEADERS)


def test_an_older_results_file_shows_its_verdicts_as_such() -> None:
    records = [record(1, "FACTUAL", "FACTUAL", None), record(2, "NON-FACTUAL", "FACTUAL", None)]
    html = batch._metrics_html(status(records))
    assert "1 unknown (older verdict)" not in html and "2 unknown (older verdict)" in html
    assert "of 0 rows with a decision" in html
    assert [r[3] for r in batch._table(status(records))] == ["unknown (older verdict)"] * 2
