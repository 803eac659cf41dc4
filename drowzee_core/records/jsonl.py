"""Writing records as JSONL with their provenance sidecar, and counting them.

`write_jsonl` takes the `Provenance` of what it writes, so no command can write a file without its
`OUT.meta.json`. Rows may be plain dicts or pydantic records (dumped with `model_dump(mode="json")`).
"""

from __future__ import annotations

import json
import os
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from drowzee_core.records.provenance import Provenance, make_readable, write_sidecar

Row = Mapping[str, Any] | BaseModel
"""A row to write: a dict or a pydantic record."""


def as_dict(row: Row) -> dict[str, Any]:
    """A row as a JSON-ready dict."""
    return row.model_dump(mode="json") if isinstance(row, BaseModel) else dict(row)


def write_jsonl(rows: Iterable[Row], out: Path, meta: Provenance) -> int:
    """Write one JSON object per line and the sidecar `OUT.meta.json`, both atomically; returns the row count.

    A failed run leaves any earlier file intact. The sidecar's `counts` gets `rows` (the number
    written; it replaces any `rows` that `meta` carries) on top of the counts `meta` already has.
    """
    out.parent.mkdir(parents=True, exist_ok=True)
    n = 0
    fd, tmp = tempfile.mkstemp(prefix=f".{out.name}.", dir=out.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            for row in rows:
                fh.write(json.dumps(as_dict(row), ensure_ascii=False) + "\n")
                n += 1
        make_readable(Path(tmp))
        os.replace(tmp, out)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    write_sidecar(out, meta.model_copy(update={"counts": {**meta.counts, "rows": n}}))
    return n


def counts(cases: Sequence[Row], keys: Sequence[str]) -> dict[str, dict[str, int]]:
    """For each key, how many cases have each value (null shown as "none"), largest first."""
    rows = [as_dict(c) for c in cases]
    out: dict[str, dict[str, int]] = {}
    for key in keys:
        c = Counter("none" if row.get(key) is None else str(row.get(key)) for row in rows)
        out[key] = dict(c.most_common())
    return out


__all__ = ["Row", "as_dict", "counts", "write_jsonl"]
