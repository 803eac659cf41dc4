"""Checks an uploaded batch file before a job starts: its format, its columns, and its row count.

Only what makes the whole file unusable is refused here (422 / 413). A bad row in a usable file is
not: the batch engine records it as an error row with its line and reason, and checks the rest.
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from agents.batch.rows import count_rows
from service.errors import BadInputError, TooLargeError
from service.settings import ServiceSettings

SUFFIXES = (".jsonl", ".csv")
PEEK_ROWS = 50
"""Rows read to learn a JSONL file's fields."""


@dataclass(frozen=True, slots=True)
class UploadInfo:
    """What an upload holds: its row count and the columns (CSV header, or fields seen in JSONL rows)."""

    rows: int
    columns: tuple[str, ...]


def suffix_of(filename: str) -> str:
    """The upload's format from its name (`.jsonl` or `.csv`), or `BadInputError`."""
    suffix = Path(filename).suffix.lower()
    if suffix not in SUFFIXES:
        raise BadInputError(f"upload {filename!r}: expected a .jsonl or .csv file of Query-Response pairs")
    return suffix


def _csv_info(path: Path) -> UploadInfo:
    with path.open("rb") as fh:
        head = fh.readline()
        try:
            header = next(csv.reader(io.StringIO(head.decode("utf-8-sig"))), [])
        except UnicodeDecodeError:
            raise BadInputError(f"{path.name}: the CSV header is not UTF-8 text; save the file as UTF-8") from None
        rows = sum(1 for raw in fh if raw.strip())
    if not header:
        raise BadInputError(f"{path.name}: the CSV file has no header row (it needs at least a `response` column)")
    return UploadInfo(rows, tuple(h.strip() for h in header))


def _jsonl_info(path: Path) -> UploadInfo:
    fields: dict[str, None] = {}
    readable = 0
    with path.open("rb") as fh:
        for raw in fh:
            if readable >= PEEK_ROWS:
                break
            if not raw.strip():
                continue
            try:
                row = json.loads(raw.decode("utf-8"))
            except (UnicodeDecodeError, json.JSONDecodeError):
                continue
            if isinstance(row, dict):
                readable += 1
                fields.update(dict.fromkeys(row))
    if not readable:
        raise BadInputError(
            f"{path.name}: none of the first lines is a JSON object in UTF-8; expected JSONL, one"
            ' {"query": ..., "response": ...} object a line'
        )
    return UploadInfo(count_rows(path) or 0, tuple(fields))


def inspect_upload(path: Path, columns: Mapping[str, str], settings: ServiceSettings) -> UploadInfo:
    """Refuse a file that no row of could be checked, names unknown columns, or holds too many rows."""
    info = _csv_info(path) if path.suffix.lower() == ".csv" else _jsonl_info(path)
    if info.rows > settings.max_rows:
        raise TooLargeError(
            f"{path.name} holds {info.rows:,} rows; the limit is {settings.max_rows:,}"
            f" (set {ServiceSettings.env_name('max_rows')} to raise it, or split the file)",
            "max_rows",
        )
    if info.rows == 0:
        raise BadInputError(f"{path.name} holds no rows")
    explicit = {f: c for f, c in columns.items() if c != f or f == "response"}
    unknown = [f"{f}={c}" for f, c in explicit.items() if c not in info.columns]
    if unknown:
        raise BadInputError(
            f"{path.name}: unknown column(s) {', '.join(unknown)}; the file's columns are"
            f" {', '.join(info.columns) or '(none)'}. Map them, e.g. columns=query=question,response=answer"
        )
    return info


__all__ = ["SUFFIXES", "UploadInfo", "inspect_upload", "suffix_of"]
