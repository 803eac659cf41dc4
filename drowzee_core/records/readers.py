"""Stream records from files: JSONL, JSON arrays and CSV into typed records, naming any bad field.

Every reader yields one validated record per row and stops at the first bad row with a
`RecordError` that names the file, the line (JSONL), item (JSON array) or row (CSV) and the field:
`pairs.jsonl:12: field `label`: Input should be 'FACTUAL' or 'NON-FACTUAL'`.

The peers' formats read as: FactCHD's pairs and the external normalised sets -> `QRPair`;
Drowzee's categorized QA -> `DrowzeeQuestion`; Drowzee's answered histories ->
`DrowzeeAnsweredPeer`; ERBench's human labels -> `ERBenchHumanLabel`; our generated files ->
`QACase`, `TemporalCase`, `ERBenchQuestion`, `QRPair`.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, TypeVar

from pydantic import BaseModel, ValidationError

from drowzee_core.errors import DrowzeeError

M = TypeVar("M", bound=BaseModel)

MAX_FILE_BYTES = 2_000_000_000
"""Largest file the readers accept (a JSON array is read whole)."""
FORMATS: tuple[str, ...] = (".jsonl", ".json", ".csv")


class RecordError(DrowzeeError):
    """A row of a file is not a valid record; the message names the file, the row and the field."""


def describe(exc: ValidationError, where: str) -> str:
    """`WHERE: field `a.b`: message` for the first error of `exc` (and how many more there are)."""
    errors = exc.errors(include_url=False)
    first = errors[0]
    loc = ".".join(str(p) for p in first["loc"])
    msg = first["msg"].removeprefix("Value error, ")  # our validators' messages say what to fix on their own
    head = f"{where}: field `{loc}`: {msg}" if loc else f"{where}: {msg}"
    more = len(errors) - 1
    return head + (f" (and {more} more error{'s' if more > 1 else ''})" if more else "")


def validate_row(model: type[M], row: Any, where: str) -> M:
    """`row` as a `model` record, or a `RecordError` that says where and which field is wrong."""
    if not isinstance(row, dict):
        raise RecordError(f"{where}: expected a JSON object, got {type(row).__name__}")
    try:
        return model.model_validate(row)
    except ValidationError as exc:
        raise RecordError(describe(exc, where)) from None


def _check(path: Path) -> str:
    if not path.is_file():
        raise RecordError(f"{path} does not exist or is not a file")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise RecordError(f"{path} is larger than {MAX_FILE_BYTES} bytes; split it")
    suffix = path.suffix.lower()
    if suffix not in FORMATS:
        raise RecordError(f"{path}: unknown format {suffix!r}; use {', '.join(FORMATS)}")
    return suffix


def iter_rows(path: Path) -> Iterator[tuple[str, Any]]:
    """(`name:line`, raw row) for each row of a .jsonl, .json (array of objects) or .csv file.

    JSONL is streamed line by line (blank lines are skipped); the location names the line for JSONL and
    CSV (the header is line 1) and the item number (from 1) for a JSON array.
    """
    suffix = _check(path)
    name = path.name
    if suffix == ".jsonl":
        with path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    yield f"{name}:{n}", json.loads(line)
                except json.JSONDecodeError as exc:
                    raise RecordError(f"{name}:{n}: not valid JSON ({exc.msg})") from None
    elif suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise RecordError(f"{name}: not valid JSON ({exc.msg} at line {exc.lineno})") from None
        if not isinstance(data, list):
            raise RecordError(f"{name}: expected a JSON array of objects, got {type(data).__name__}")
        for i, item in enumerate(data, 1):
            yield f"{name}: item {i}", item
    else:
        with path.open(newline="", encoding="utf-8") as fh:
            for n, row in enumerate(csv.DictReader(fh), 2):
                yield f"{name}:{n}", row


def read_records(path: Path, model: type[M]) -> Iterator[M]:
    """Stream the rows of `path` as `model` records; the first bad row raises a `RecordError`."""
    for where, row in iter_rows(path):
        yield validate_row(model, row, where)


def read_dicts(path: Path, model: type[BaseModel] | None = None) -> list[dict[str, Any]]:
    """The rows of `path` as plain dicts, each checked against `model` when given (fields kept as read)."""
    out: list[dict[str, Any]] = []
    for where, row in iter_rows(path):
        if model is not None:
            validate_row(model, row, where)
        elif not isinstance(row, dict):
            raise RecordError(f"{where}: expected a JSON object, got {type(row).__name__}")
        out.append(row)
    return out


__all__ = ["FORMATS", "RecordError", "describe", "iter_rows", "read_dicts", "read_records", "validate_row"]
