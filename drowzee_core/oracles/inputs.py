"""Read answer files as they come: Drowzee JSON, ERBench CSV, FactCHD JSONL, and our runner's JSONL.

Fields that the seeds store as stringified Python lists (Drowzee's `evidence`, `entity`) are parsed
with `ast.literal_eval`, never `eval`. Each reader returns plain dicts and says which row is bad.
"""

from __future__ import annotations

import ast
import csv
import json
from pathlib import Path
from typing import Any

from drowzee_core.errors import DrowzeeError

MAX_ROWS = 1_000_000
MAX_FILE_BYTES = 2_000_000_000


def _check(path: Path) -> None:
    if not path.exists():
        raise DrowzeeError(f"{path} does not exist")
    if path.stat().st_size > MAX_FILE_BYTES:
        raise DrowzeeError(f"{path} is larger than {MAX_FILE_BYTES} bytes; split it")


def read_rows(path: Path) -> list[dict[str, Any]]:
    """Rows of a .json (list of objects), .jsonl or .csv file."""
    _check(path)
    suffix = path.suffix.lower()
    if suffix == ".csv":
        with path.open(newline="", encoding="utf-8") as fh:
            rows: list[dict[str, Any]] = list(csv.DictReader(fh))
    elif suffix == ".jsonl":
        rows = []
        with path.open(encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    raise DrowzeeError(f"{path}:{n}: not valid JSON ({exc.msg})") from exc
                if not isinstance(obj, dict):
                    raise DrowzeeError(f"{path}:{n}: expected a JSON object")
                rows.append(obj)
    elif suffix == ".json":
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except json.JSONDecodeError as exc:
            raise DrowzeeError(f"{path}: not valid JSON ({exc.msg} at line {exc.lineno})") from exc
        if not isinstance(data, list) or not all(isinstance(r, dict) for r in data):
            raise DrowzeeError(f"{path}: expected a JSON list of objects")
        rows = data
    else:
        raise DrowzeeError(f"{path}: unknown format {suffix!r}; use .json, .jsonl or .csv")
    if len(rows) > MAX_ROWS:
        raise DrowzeeError(f"{path} has {len(rows)} rows (limit {MAX_ROWS})")
    return rows


def literal_list(value: Any) -> list[Any]:
    """A list field that may be stored as its Python repr ("[['a', 'b', 'c']]")."""
    if isinstance(value, list):
        return value
    if value is None or value == "":
        return []
    try:
        parsed = ast.literal_eval(str(value))
    except (ValueError, SyntaxError) as exc:
        raise DrowzeeError(f"cannot read the list {str(value)[:80]!r}") from exc
    return list(parsed) if isinstance(parsed, list | tuple) else [parsed]


def require(row: dict[str, Any], fields: tuple[str, ...], where: str) -> None:
    """Raise a clear error when a row lacks a field the scorer needs."""
    missing = [f for f in fields if f not in row]
    if missing:
        raise DrowzeeError(f"{where}: missing field(s) {missing}; present: {sorted(row)[:12]}")
