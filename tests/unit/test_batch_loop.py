"""The batch loop: one record per row, bad rows recorded, and resume after a crash at any byte."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agents.batch.engine import count_rows, counts_of, read_rows, recorded, repair_tail, run_batch
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import MAX_TEXT, Verdict, VerifyRequest
from tests.unit.verifier_fakes import decided


class CrashError(Exception):
    """Stands for the process dying mid-run."""


class FakeVerifier:
    """FACTUAL when the response says 'true'; can crash before a given call."""

    def __init__(self, crash_at: int | None = None) -> None:
        self.calls: list[str] = []
        self.crash_at = crash_at

    def __call__(self, req: VerifyRequest) -> Verdict:
        if self.crash_at is not None and len(self.calls) == self.crash_at:
            raise CrashError
        self.calls.append(str(req.id))
        label = Label.FACTUAL if "true" in req.response else Label.NON_FACTUAL
        return Verdict(id=req.id, decision=decided(label), label=label, confidence=1.0, explanation=f"{label}.")


def _rows() -> list[tuple[str, Any]]:
    rows: list[tuple[str, Any]] = [
        (f"in:{i}", {"id": f"r{i}", "response": "true" if i % 2 else "false"}) for i in range(8)
    ]
    rows[2] = ("in:2", ValueError("not valid JSON (Expecting value)"))
    rows[5] = ("in:5", {"id": "r5"})
    rows[6] = ("in:6", ["a list"])
    return rows


def _lines(out: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in out.read_text("utf-8").splitlines()]


def test_every_row_gets_a_record_and_bad_rows_say_why(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    counts = run_batch(_rows(), out, FakeVerifier())
    lines = _lines(out)
    assert [x["row"] for x in lines] == list(range(1, 9))
    assert [x["id"] for x in lines] == ["r0", "r1", "3", "r3", "r4", "r5", "7", "r7"]
    assert lines[2]["error"] == "in:2: not valid JSON (Expecting value)"
    assert lines[5]["error"] == "in:5: missing field 'response'"
    assert lines[6]["error"] == "in:6: row is not a JSON object"
    assert counts == {"FACTUAL": 3, "NON-FACTUAL": 2, "degraded": 0, "error": 3}


@pytest.mark.parametrize("cut", [0, 1, 57, 200, -40, -1])
def test_resume_after_a_crash_mid_line_gives_the_uninterrupted_output(tmp_path: Path, cut: int) -> None:
    whole = tmp_path / "whole.jsonl"
    run_batch(_rows(), whole, FakeVerifier())
    data = whole.read_bytes()
    out = tmp_path / "out.jsonl"
    torn = data[:cut] if cut >= 0 else data[: len(data) + cut]  # killed while writing
    out.write_bytes(torn)
    complete = {json.loads(x)["row"] for x in torn.decode("utf-8").splitlines(keepends=True) if x.endswith("\n")}
    again = FakeVerifier()
    run_batch(_rows(), out, again, resume=True)
    assert out.read_bytes() == data
    verdict_rows = {1: "r0", 2: "r1", 4: "r3", 5: "r4", 8: "r7"}
    assert again.calls == [rid for row, rid in verdict_rows.items() if row not in complete]


def test_resume_after_a_crash_between_rows_checks_only_the_rest(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    with pytest.raises(CrashError):
        run_batch(_rows(), out, FakeVerifier(crash_at=3))
    assert [x["row"] for x in _lines(out)] == [1, 2, 3, 4]
    again = FakeVerifier()
    counts = run_batch(_rows(), out, again, resume=True)
    assert again.calls == ["r4", "r7"]
    assert [x["row"] for x in _lines(out)] == list(range(1, 9))
    assert counts == counts_of(_lines(out))


def test_resume_without_an_output_starts_the_run(tmp_path: Path) -> None:
    out = tmp_path / "new.jsonl"
    run_batch(_rows(), out, FakeVerifier(), resume=True)
    assert len(_lines(out)) == 8


def test_repair_tail_keeps_complete_lines_and_refuses_foreign_files(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    out.write_text('{"row": 1, "id": "a", "error": "x"}\n{"row": 2, "id"', encoding="utf-8")
    assert repair_tail(out) == len('{"row": 2, "id"')
    assert repair_tail(out) == 0
    other = tmp_path / "other.jsonl"
    other.write_text('{"query": "q"}\n', encoding="utf-8")
    with pytest.raises(DrowzeeError, match="is not a batch record"):
        recorded(other)


def test_read_rows_reports_undecodable_and_malformed_lines_and_goes_on(tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_bytes(b'{"id": "a", "response": "x"}\n\n\xff\xfe broken\n{oops\n{"id": "b", "response": "y"}\n')
    rows = list(read_rows(src))
    assert [w for w, _ in rows] == ["in.jsonl:1", "in.jsonl:3", "in.jsonl:4", "in.jsonl:5"]
    assert str(rows[1][1]) == "not UTF-8 text (undecodable byte at offset 0)"
    assert str(rows[2][1]).startswith("not valid JSON")
    assert rows[3][1] == {"id": "b", "response": "y"} and count_rows(src) == 4


def test_a_repeated_id_is_an_error_row_even_across_a_resume(tmp_path: Path) -> None:
    rows: list[tuple[str, Any]] = [
        ("in:1", {"id": "a", "response": "true"}),
        ("in:2", {"id": "b", "response": "true"}),
        ("in:3", {"id": "a", "response": "false"}),
    ]
    out = tmp_path / "out.jsonl"
    run_batch(rows[:2], out, FakeVerifier())
    again = FakeVerifier()
    counts = run_batch(rows, out, again, resume=True)
    assert again.calls == []
    assert _lines(out)[2] == {"row": 3, "id": "a", "error": "in:3: duplicate id 'a' (first at row 1)"}
    assert counts["error"] == 1


def test_over_long_text_is_an_error_row_naming_the_limit(tmp_path: Path) -> None:
    out = tmp_path / "out.jsonl"
    run_batch([("in:1", {"id": "a", "response": "x" * (MAX_TEXT + 1)})], out, FakeVerifier())
    assert _lines(out)[0]["error"] == f"in:1: response: String should have at most {MAX_TEXT} characters"
