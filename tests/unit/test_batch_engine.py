"""The batch engine: concurrency, column maps, CSV input, labels and metrics, and the ledger's guards."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from agents.batch.engine import (
    BatchError,
    Ledger,
    Task,
    parse_columns,
    plan,
    read_rows,
    recorded,
    repair_tail,
    run_batch,
    run_local,
    scan,
    to_task,
)
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Verdict, VerifyRequest
from tests.unit.verifier_fakes import decided


class SlowFake:
    """FACTUAL when the response says 'true'; sleeps a little, counts calls and the most in flight."""

    def __init__(self, delay: float = 0.002) -> None:
        self.delay = delay
        self.calls = 0
        self.flying = 0
        self.most = 0
        self._lock = threading.Lock()

    def __call__(self, req: VerifyRequest) -> Verdict:
        with self._lock:
            self.calls += 1
            self.flying += 1
            self.most = max(self.most, self.flying)
        time.sleep(self.delay)
        with self._lock:
            self.flying -= 1
        label = Label.FACTUAL if "true" in req.response else Label.NON_FACTUAL
        return Verdict(id=req.id, decision=decided(label), label=label, confidence=1.0, explanation=f"{label}.")


def _rows(n: int) -> list[tuple[str, Any]]:
    return [(f"in:{i + 1}", {"id": f"r{i}", "response": "true" if i % 3 else "false"}) for i in range(n)]


def _by_row(out: Path) -> dict[int, dict[str, Any]]:
    return recorded(out)


@pytest.mark.parametrize("concurrency", [2, 5])
def test_concurrent_run_writes_the_same_records_as_a_sequential_one(tmp_path: Path, concurrency: int) -> None:
    rows = _rows(40)
    run_batch(rows, tmp_path / "seq.jsonl", SlowFake(0))
    fake = SlowFake()
    counts = run_batch(rows, tmp_path / "par.jsonl", fake, concurrency=concurrency)
    assert _by_row(tmp_path / "par.jsonl") == _by_row(tmp_path / "seq.jsonl")
    assert len((tmp_path / "par.jsonl").read_text().splitlines()) == 40
    assert counts["FACTUAL"] + counts["NON-FACTUAL"] == 40
    assert 1 < fake.most <= concurrency


def test_concurrent_run_never_reads_far_ahead_of_the_work(tmp_path: Path) -> None:
    read = 0
    written: list[int] = []

    def rows() -> Any:
        nonlocal read
        for item in _rows(30):
            read += 1
            yield item

    def sink(rec: dict[str, Any]) -> None:
        written.append(rec["row"])
        assert read - len(written) <= 2 * 3  # in flight at most 2 x concurrency

    with Ledger(tmp_path / "o.jsonl") as ledger:
        run_local(plan(rows(), ledger.done, parse_columns(None)), SlowFake(), sink, concurrency=3)
    assert sorted(written) == list(range(1, 31))


def test_a_verifier_failure_stops_a_concurrent_run_after_the_finished_rows(tmp_path: Path) -> None:
    def verify(req: VerifyRequest) -> Verdict:
        if req.id == "r7":
            raise RuntimeError("KB thread died")
        return SlowFake(0)(req)

    out = tmp_path / "o.jsonl"
    with pytest.raises(RuntimeError, match="KB thread died"):
        run_batch(_rows(20), out, verify, concurrency=3)
    done = _by_row(out)
    assert 8 not in done and all("verdict" in r for r in done.values())
    run_batch(_rows(20), out, SlowFake(0), resume=True)
    assert sorted(_by_row(out)) == list(range(1, 21))


def test_column_map_reads_other_names_and_rejects_bad_entries() -> None:
    cols = parse_columns("query=question, response=answer,label=gold,evidence=facts")
    task = to_task(
        1,
        "in:1",
        {"id": 7, "question": "Q?", "answer": "A.", "gold": "non-factual", "facts": '["a fact"]'},
        cols,
    )
    assert isinstance(task, Task)
    assert (task.id, task.request.query, task.request.response, task.expected) == ("7", "Q?", "A.", "NON-FACTUAL")
    assert task.request.evidence == ["a fact"]
    missing = to_task(2, "in:2", {"question": "Q?"}, cols)
    assert missing == {"row": 2, "id": "2", "error": "in:2: missing field 'answer' (the response)"}
    assert "evidence" not in parse_columns(None)
    assert parse_columns(None, "facts")["evidence"] == "facts"
    with pytest.raises(BatchError, match="FIELD=COLUMN"):
        parse_columns("query")
    with pytest.raises(BatchError, match="unknown field 'answer'"):
        parse_columns("answer=response")


@pytest.mark.parametrize(
    ("row", "says"),
    [
        ({"query": "no response field"}, "missing field 'response'"),
        ({"query": "Q?", "response": None}, "field 'response' is null; it must be text"),
        ({"query": "Q?", "response": ""}, "field 'response' is empty"),
        ({"query": "Q?", "response": "  \n"}, "field 'response' is empty"),
        ({"query": "Q?", "response": 1889}, "field 'response' must be text, got a number: 1889"),
        ({"query": "Q?", "response": ["Paris"]}, "field 'response' must be text, got a list: [\"Paris\"]"),
        (
            {"query": "Q?", "response": {"text": "Paris"}},
            'field \'response\' must be text, got an object: {"text": "Paris"}',
        ),
        ({"query": "Q?", "response": True}, "field 'response' must be text, got true/false: true"),
        ({"query": ["Q?"], "response": "Paris."}, "field 'query' must be text, got a list: [\"Q?\"]"),
    ],
)
def test_a_row_without_a_usable_response_is_an_error_naming_the_field(row: dict[str, Any], says: str) -> None:
    rec = to_task(3, "in.jsonl:3", {"id": "r3", **row}, parse_columns(None))
    assert rec == {"row": 3, "id": "r3", "error": f"in.jsonl:3: {says}"}


@pytest.mark.parametrize("row", [{}, {"query": None}, {"query": ""}])
def test_a_missing_or_empty_query_is_empty_text_never_made_up(row: dict[str, Any]) -> None:
    task = to_task(1, "in:1", {**row, "response": "Paris is in France."}, parse_columns(None))
    assert isinstance(task, Task) and task.request.query == "" and task.request.response == "Paris is in France."


def test_rows_without_a_response_are_never_verified(tmp_path: Path) -> None:
    fake = SlowFake(0)
    rows: list[tuple[str, Any]] = [
        ("in:1", {"id": "a", "query": "no response field"}),
        ("in:2", {"id": "b", "query": "Q?", "response": None}),
        ("in:3", {"id": "c", "response": "true"}),
    ]
    counts = run_batch(rows, tmp_path / "o.jsonl", fake)
    assert fake.calls == 1 and counts["error"] == 2 and counts["FACTUAL"] == 1


def test_csv_rows_are_streamed_and_bad_rows_say_why(tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    path.write_bytes(
        b'id,query,response\na,"Where is Lyon?","Lyon is in\nFrance."\nb,Q,bad \xff byte\nc,Q,R,extra\nd,Q,fine\n'
    )
    rows = list(read_rows(path))
    assert rows[0] == ("in.csv:3", {"id": "a", "query": "Where is Lyon?", "response": "Lyon is in\nFrance."})
    assert isinstance(rows[1][1], ValueError) and "not UTF-8" in str(rows[1][1])
    assert isinstance(rows[2][1], ValueError) and "1 more cells" in str(rows[2][1])
    assert rows[3] == ("in.csv:6", {"id": "d", "query": "Q", "response": "fine"})
    out = tmp_path / "out.jsonl"
    counts = run_batch(rows, out, SlowFake(0))
    assert counts["error"] == 2 and counts["NON-FACTUAL"] == 2


def test_labels_travel_with_the_records_and_give_metrics_beside_the_baselines(tmp_path: Path) -> None:
    rows = [
        (
            f"in:{i}",
            {"id": str(i), "response": "true" if i < 6 else "false", "label": "FACTUAL" if i < 4 else "NON-FACTUAL"},
        )
        for i in range(10)
    ]
    out = tmp_path / "out.jsonl"
    run_batch(rows, out, SlowFake(0))
    assert {r["expected"] for r in recorded(out).values()} == {"FACTUAL", "NON-FACTUAL"}
    tally = scan(out).tally
    assert dict(tally.decisions) == {"supported": 6, "refuted": 4}
    metrics = tally.metrics()
    assert metrics is not None and metrics["rows"] == 10
    assert metrics["verifier"]["acc"]["value"] == pytest.approx(0.8)
    decisions = metrics["decisions"]
    assert decisions["coverage"]["value"] == 1.0 and decisions["accuracy"]["decided"]["verifier"]["value"] == 0.8
    assert decisions["accuracy"]["decided"]["always_factual"]["value"] == pytest.approx(0.4)
    names = [b["name"] for b in metrics["baselines"]]
    assert "always FACTUAL" in names and any(n.startswith("majority") for n in names)
    unlabelled = tmp_path / "u.jsonl"
    run_batch(_rows(4), unlabelled, SlowFake(0))
    assert scan(unlabelled).tally.metrics() is None
    one = tmp_path / "one.jsonl"  # a single labelled row has no interval: no figures yet (not an error)
    run_batch(rows[:1], one, SlowFake(0))
    assert scan(one).tally.metrics() is None


def test_verdicts_of_an_older_file_without_decisions_are_counted_as_such(tmp_path: Path) -> None:
    out = tmp_path / "old.jsonl"
    old = [
        {"row": i, "id": str(i), "expected": "FACTUAL", "verdict": {"label": "FACTUAL", "confidence": 0.9}}
        for i in (1, 2, 3)
    ]
    out.write_text("".join(json.dumps(r) + "\n" for r in old), encoding="utf-8")
    tally = scan(out).tally
    assert dict(tally.decisions) == {"unknown (older verdict)": 3}
    metrics = tally.metrics()
    assert metrics is not None and metrics["decisions"]["coverage"]["value"] is None
    assert metrics["decisions"]["accuracy"]["all"]["verifier"]["value"] == 1.0


def test_a_row_without_an_id_is_known_by_its_row_number_across_a_resume(tmp_path: Path) -> None:
    rows: list[tuple[str, Any]] = [
        ("in:1", {"response": "true"}),
        ("in:2", {"id": "x", "response": "true"}),
        ("in:3", {"id": "1", "response": "true"}),
        ("in:4", {"id": "x", "response": "false"}),
    ]
    whole = tmp_path / "whole.jsonl"
    run_batch(rows, whole, SlowFake(0))
    part = tmp_path / "part.jsonl"
    run_batch(rows[:2], part, SlowFake(0))
    run_batch(rows, part, SlowFake(0), resume=True)
    assert recorded(part) == recorded(whole)
    errors = {n: r["error"] for n, r in recorded(whole).items() if "error" in r}
    assert errors == {3: "in:3: duplicate id '1' (first at row 1)", 4: "in:4: duplicate id 'x' (first at row 2)"}


def test_ledger_refuses_an_output_that_repeats_a_row(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    rec = {"row": 1, "id": "a", "error": "x"}
    out.write_text(json.dumps(rec) + "\n" + json.dumps(rec) + "\n")
    with pytest.raises(BatchError, match="repeats row 1"):
        Ledger(out, resume=True)


def test_repair_tail_reads_only_the_end_of_a_long_output(tmp_path: Path) -> None:
    out = tmp_path / "o.jsonl"
    big = "x" * 100_000
    lines = [json.dumps({"row": i, "id": str(i), "error": big}) for i in range(1, 4)]
    out.write_text("\n".join(lines) + "\n" + lines[0][:500])
    assert repair_tail(out) == 500
    assert out.read_text().splitlines() == lines
    assert repair_tail(out) == 0
