"""Read answer files as they come: Drowzee JSON, ERBench CSV, FactCHD JSONL, and our runner's JSONL.

A thin layer over `drowzee_core.records.readers`: rows stay plain dicts (every field passes through
to the judged row), and the scorers check each row against its typed input model
(`drowzee_core.records.answered`), so a bad row is reported with the field that is wrong.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from drowzee_core.records.readers import RecordError, read_dicts

MAX_ROWS = 1_000_000


def read_rows(path: Path, model: type[BaseModel] | None = None) -> list[dict[str, Any]]:
    """Rows of a .json (list of objects), .jsonl or .csv file, each checked against `model` when given."""
    rows = read_dicts(path, model)
    if len(rows) > MAX_ROWS:
        raise RecordError(f"{path} has {len(rows)} rows (limit {MAX_ROWS})")
    return rows
