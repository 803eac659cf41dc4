"""Reading a batch input: rows streamed from JSONL / CSV, the column map, and each row as a `Task` or an error record.

Nothing in the input ends a run: a line that is not UTF-8 or not JSON, a CSV row with extra cells,
a missing field, over-long text or invalid evidence becomes an error record that says why.

The response must be non-empty text: a row whose response is missing, null, empty (or blank) or not
a string is an error record naming the field and the row; nothing is made up in its place. The query
may be missing, null or empty (it is then empty), but never anything other than text.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import Verdict, VerifyRequest

Verify = Callable[[VerifyRequest], Verdict]
Record = dict[str, Any]
Sink = Callable[[Record], None]

FIELDS = ("id", "query", "response", "evidence", "label")
"""Row fields the engine reads; `--columns` maps each to the input's own column name."""
LABELS = ("FACTUAL", "NON-FACTUAL")


class BatchError(DrowzeeError):
    """The batch cannot run as asked (a bad column map, an output file that is not a batch output)."""


# ---------------------------------------------------------------------------------------------- reading
def _csv_rows(path: Path) -> Iterator[tuple[str, Any]]:
    """CSV rows streamed; a row with undecodable bytes or extra cells is a `ValueError` row."""
    with path.open(newline="", encoding="utf-8", errors="surrogateescape") as fh:
        reader = csv.DictReader(fh)
        for row in reader:
            where = f"{path.name}:{reader.line_num}"
            extra = row.pop(None, None)
            if extra:
                yield where, ValueError(f"{len(extra)} more cells than the header has columns")
                continue
            try:
                for value in row.values():
                    if value is not None:
                        value.encode("utf-8")
            except UnicodeEncodeError:
                yield where, ValueError("not UTF-8 text (undecodable bytes)")
                continue
            yield where, {k: v for k, v in row.items() if v is not None}


def read_rows(path: Path) -> Iterator[tuple[str, Any]]:
    """(`name:line`, row) per input row, streamed.

    A line that is not UTF-8 or not JSON (JSONL), or a CSV row with undecodable bytes or extra cells,
    is a `ValueError` row (recorded as an error), never the end of the run. A `.json` array goes
    through `drowzee_core.records.readers.iter_rows` (read whole).
    """
    suffix = path.suffix.lower()
    if suffix == ".csv":
        yield from _csv_rows(path)
        return
    if suffix != ".jsonl":
        from drowzee_core.records.readers import iter_rows

        yield from iter_rows(path)
        return
    with path.open("rb") as fh:
        for n, raw in enumerate(fh, 1):
            if not raw.strip():
                continue
            where = f"{path.name}:{n}"
            try:
                text = raw.decode("utf-8")
            except UnicodeDecodeError as exc:
                yield where, ValueError(f"not UTF-8 text (undecodable byte at offset {exc.start})")
                continue
            try:
                yield where, json.loads(text)
            except json.JSONDecodeError as exc:
                yield where, ValueError(f"not valid JSON ({exc.msg})")


def count_rows(path: Path) -> int | None:
    """Non-blank lines of a JSONL file (the progress total) without parsing them; None for other formats."""
    if path.suffix.lower() != ".jsonl":
        return None
    with path.open("rb") as fh:
        return sum(1 for raw in fh if raw.strip())


def parse_columns(spec: str | None, evidence_field: str | None = None) -> dict[str, str]:
    """The column map: engine field -> the input's column (`"query=question,response=answer"`).

    Unmapped fields keep their own names; `evidence` is read only when mapped (or `evidence_field`).
    """
    columns = {f: f for f in FIELDS if f != "evidence"}
    if evidence_field:
        columns["evidence"] = evidence_field
    for part in (spec or "").split(","):
        if not part.strip():
            continue
        name, sep, column = (x.strip() for x in part.partition("="))
        if not sep or not column:
            raise BatchError(f"--columns entry {part.strip()!r} is not FIELD=COLUMN (e.g. query=question)")
        if name not in FIELDS:
            raise BatchError(f"--columns names unknown field {name!r}; fields are {', '.join(FIELDS)}")
        columns[name] = column
    return columns


def row_id(row_no: int, row: Any, columns: Mapping[str, str] | None = None) -> str:
    """The row's id (its `id` column), or its row number when it has none."""
    key = (columns or {}).get("id", "id")
    if isinstance(row, dict) and row.get(key) not in (None, ""):
        return str(row[key])
    return str(row_no)


def _evidence(value: Any) -> Any:
    """Evidence as read: a CSV cell holding a JSON list (of texts or triples) is parsed; other text stays text."""
    if isinstance(value, str) and value.lstrip().startswith("["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            return value
    return value if value != "" else None


@dataclass(frozen=True, slots=True)
class Task:
    """One row ready to verify."""

    row: int
    id: str
    request: VerifyRequest
    expected: str | None = None

    def record(self, verdict: Verdict) -> Record:
        """The row's output record with its verdict."""
        rec: Record = {"row": self.row, "id": self.id, "verdict": verdict.model_dump(mode="json")}
        if self.expected is not None:
            rec["expected"] = self.expected
        return rec

    def to_json(self) -> Record:
        """The task as JSON (to ship to a worker process)."""
        return {
            "row": self.row,
            "id": self.id,
            "request": self.request.model_dump(mode="json"),
            "expected": self.expected,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Task:
        """A task shipped by `to_json`."""
        req = VerifyRequest.model_validate(data["request"])
        return cls(row=int(data["row"]), id=str(data["id"]), request=req, expected=data.get("expected"))


def error_record(row_no: int, rid: str, where: str, reason: str) -> Record:
    """The output record of a row that cannot be checked."""
    return {"row": row_no, "id": rid, "error": f"{where}: {reason}"}


JSON_TYPES = {bool: "true/false", int: "a number", float: "a number", list: "a list", dict: "an object"}


def _text(row: Mapping[str, Any], field: str, column: str, *, required: bool) -> str:
    """The row's `column` (the engine's `field`) as text, or a `ValueError` naming the field and what is wrong.

    A missing or null optional field is empty text; a required one must be a non-blank string.
    """
    name = repr(column) if column == field else f"{column!r} (the {field})"
    value = row.get(column)
    if value is None and not required:
        return ""
    if column not in row:
        raise ValueError(f"missing field {name}")
    if value is None:
        raise ValueError(f"field {name} is null; it must be text")
    if not isinstance(value, str):
        shown = json.dumps(value, ensure_ascii=False)
        kind = JSON_TYPES.get(type(value), type(value).__name__)
        raise ValueError(f"field {name} must be text, got {kind}: {shown[:60]}{'...' if len(shown) > 60 else ''}")
    if required and not value.strip():
        raise ValueError(f"field {name} is empty")
    return value


def to_task(row_no: int, where: str, row: Any, columns: Mapping[str, str]) -> Task | Record:
    """A row as a `Task`, or its error record when it cannot be checked (module docstring: what a row needs)."""
    rid = row_id(row_no, row, columns)
    try:
        if isinstance(row, ValueError):
            raise row
        if not isinstance(row, dict):
            raise ValueError("row is not a JSON object")
        response = _text(row, "response", columns["response"], required=True)
        query = _text(row, "query", columns["query"], required=False)
        evidence = _evidence(row.get(columns["evidence"])) if "evidence" in columns else None
        req = VerifyRequest(id=rid, query=query, response=response, evidence=evidence)
    except ValidationError as exc:
        reason = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False))
        return error_record(row_no, rid, where, reason)
    except ValueError as exc:
        return error_record(row_no, rid, where, str(exc))
    label = str(row.get(columns["label"], "")).strip().upper()
    return Task(row_no, rid, req, label if label in LABELS else None)


__all__ = [
    "FIELDS",
    "LABELS",
    "BatchError",
    "Record",
    "Sink",
    "Task",
    "Verify",
    "count_rows",
    "error_record",
    "parse_columns",
    "read_rows",
    "row_id",
    "to_task",
]
