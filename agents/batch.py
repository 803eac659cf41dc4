"""The sequential batch loop behind `drowzee batch`: one durable output record per input row, resumable.

Every output line carries the input `row` number (from 1) and the row's `id`, then either the
`verdict` or an `error` saying what was wrong with the row. Lines are flushed and fsynced as each is
final, so after a crash the file holds every finished row; `resume` cuts a partially written last
line, skips the rows already recorded and appends the rest, so each input row ends up exactly once.
The verifier is passed in (`verify`), so the loop is tested with a fake one.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.verdict import Verdict, VerifyRequest

Verify = Callable[[VerifyRequest], Verdict]


def read_rows(path: Path) -> Iterator[tuple[str, Any]]:
    """(`name:line`, row) per input row, streamed.

    A JSONL line that is not UTF-8 or not JSON is a `ValueError` row (recorded as an error), never the
    end of the run. CSV and JSON go through `drowzee_core.records.readers.iter_rows`.
    """
    from drowzee_core.records.readers import iter_rows

    if path.suffix.lower() != ".jsonl":
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


def repair_tail(out: Path) -> int:
    """Cut a last line that was only partly written (no newline, or not JSON); the bytes removed."""
    data = out.read_bytes()
    keep = len(data) if data.endswith(b"\n") else data.rfind(b"\n") + 1
    start = data.rfind(b"\n", 0, keep - 1) + 1 if keep else 0
    if keep and start < keep:
        try:
            json.loads(data[start:keep])
        except (json.JSONDecodeError, UnicodeDecodeError):
            keep = start
    if keep < len(data):
        with out.open("r+b") as fh:
            fh.truncate(keep)
    return len(data) - keep


def recorded(out: Path) -> dict[int, dict[str, Any]]:
    """The records already in `out`, by input row number."""
    found: dict[int, dict[str, Any]] = {}
    with out.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                rec = json.loads(line)
                found[int(rec["row"])] = rec
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                raise DrowzeeError(f"{out}:{n} is not a batch record; is --out the right file?") from None
    return found


def row_id(row_no: int, row: Any) -> str:
    """The row's `id`, or its row number when it has none."""
    return str(row.get("id", row_no)) if isinstance(row, dict) else str(row_no)


def record_of(row_no: int, where: str, row: Any, evidence_field: str | None, verify: Verify) -> dict[str, Any]:
    """The output record of one input row: its verdict, or the reason the row cannot be checked."""
    rid = row_id(row_no, row)
    try:
        if isinstance(row, ValueError):
            raise row
        if not isinstance(row, dict):
            raise ValueError("row is not a JSON object")
        evidence = row.get(evidence_field) if evidence_field else None
        req = VerifyRequest(id=rid, query=str(row.get("query", "")), response=str(row["response"]), evidence=evidence)
    except ValidationError as exc:
        reason = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False))
        return {"row": row_no, "id": rid, "error": f"{where}: {reason}"}
    except (KeyError, ValueError) as exc:
        reason = f"missing field {exc}" if isinstance(exc, KeyError) else str(exc)
        return {"row": row_no, "id": rid, "error": f"{where}: {reason}"}
    # the verifier itself never raises for a row (a failing source degrades the verdict); if it does, the run stops
    return {"row": row_no, "id": rid, "verdict": verify(req).model_dump(mode="json")}


def counts_of(records: Iterable[dict[str, Any]]) -> Counter[str]:
    """Verdict labels, degraded verdicts and error rows."""
    counts: Counter[str] = Counter()
    for rec in records:
        if "verdict" in rec:
            counts[rec["verdict"]["label"]] += 1
            counts["degraded"] += bool(rec["verdict"].get("degraded"))
        else:
            counts["error"] += 1
    return counts


def run_batch(
    rows: Iterable[tuple[str, Any]],
    out: Path,
    verify: Verify,
    *,
    evidence_field: str | None = None,
    resume: bool = False,
    progress: Callable[[int], None] | None = None,
) -> Counter[str]:
    """Check every row into `out` (appending after the recorded rows when `resume`); counts of the whole file."""
    done: dict[int, dict[str, Any]] = {}
    if resume and out.exists():
        repair_tail(out)
        done = recorded(out)
    first: dict[str, int] = {}
    for no, rec in sorted(done.items()):
        first.setdefault(str(rec.get("id")), no)
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a" if resume else "w", encoding="utf-8") as sink:
        for row_no, (where, row) in enumerate(rows, 1):
            rid = row_id(row_no, row)
            seen = first.setdefault(rid, row_no) if isinstance(row, dict) and "id" in row else row_no
            if row_no not in done:
                if seen != row_no:
                    rec = {"row": row_no, "id": rid, "error": f"{where}: duplicate id {rid!r} (first at row {seen})"}
                else:
                    rec = record_of(row_no, where, row, evidence_field, verify)
                sink.write(json.dumps(rec, ensure_ascii=False) + "\n")
                sink.flush()
                os.fsync(sink.fileno())
                done[row_no] = rec
            if progress:
                progress(row_no)
    return counts_of(done.values())


__all__ = [
    "Verify",
    "count_rows",
    "counts_of",
    "read_rows",
    "record_of",
    "recorded",
    "repair_tail",
    "row_id",
    "run_batch",
]
