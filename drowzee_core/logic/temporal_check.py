"""Batch-check a JSONL file of MTL queries (Drowzee syntax in an `mtl` field).

Every input line gives one output line: the input object plus `truth` and `intervals` (and
`missing_events` when an atom names no known event, `agrees` when the line carries the authors'
`res`), or `{"line", "input", "error"}` for a line that cannot be read. A summary line ends the file.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from drowzee_core.errors import LoadError
from drowzee_core.logic.mtl import MTLQuery, MTLSyntaxError
from drowzee_core.logic.mtl_syntax import parse_query
from drowzee_core.logic.temporal import BATCH, TemporalEngine

MAX_LINE = 100_000


def _read(path: Path) -> list[tuple[int, dict[str, Any] | None, MTLQuery | None, str]]:
    """(line number, object, query, error) per non-blank line."""
    out: list[tuple[int, dict[str, Any] | None, MTLQuery | None, str]] = []
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise LoadError(f"{path}: cannot read the queries file: {exc}") from exc
    for n, raw in enumerate(lines, 1):
        if not raw.strip():
            continue
        if len(raw) > MAX_LINE:
            out.append((n, None, None, f"line longer than {MAX_LINE} characters"))
            continue
        try:
            obj = json.loads(raw)
        except json.JSONDecodeError as exc:
            out.append((n, None, None, f"not JSON: {exc.msg} at column {exc.colno}"))
            continue
        if not isinstance(obj, dict) or not isinstance(obj.get("mtl"), str):
            out.append((n, obj if isinstance(obj, dict) else None, None, "needs a string field 'mtl'"))
            continue
        try:
            out.append((n, obj, parse_query(obj["mtl"]), ""))
        except MTLSyntaxError as exc:
            out.append((n, obj, None, f"mtl: {exc}"))
    return out


def _res(obj: dict[str, Any]) -> bool | None:
    res = obj.get("res")
    if isinstance(res, bool):
        return res
    if isinstance(res, str) and res.strip().lower() in ("true", "false"):
        return res.strip().lower() == "true"
    return None


def check_file(
    engine: TemporalEngine, queries: Path, out: Path, progress: Callable[[int, int], None] | None = None
) -> dict[str, Any]:
    """Check every query of `queries`, write `out`, and return the summary (also its last line)."""
    t0 = time.perf_counter()
    items = _read(queries)
    good = [(i, q) for i, (_, _, q, _) in enumerate(items) if q is not None]
    answers: dict[int, Any] = {}
    for k in range(0, len(good), BATCH):
        chunk = good[k : k + BATCH]
        for (i, _), ans in zip(chunk, engine.check_many([q for _, q in chunk]), strict=True):
            answers[i] = ans
        if progress:
            progress(min(k + BATCH, len(good)), len(good))
    summary: dict[str, Any] = {
        "queries": len(items),
        "checked": len(good),
        "errors": len(items) - len(good),
        "true": 0,
        "false": 0,
        "with_missing_events": 0,
        "with_res": 0,
        "agree": 0,
        "disagreements": [],
        "horizon": list(engine.horizon),
        "events": len(engine.table),
    }
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("w", encoding="utf-8") as fh:
        for i, (line, obj, _q, error) in enumerate(items):
            if i not in answers:
                fh.write(json.dumps({"line": line, "input": obj, "error": error}, ensure_ascii=False) + "\n")
                continue
            ans = answers[i]
            assert obj is not None
            row = dict(obj) | {"truth": ans.truth, "intervals": [list(iv) for iv in ans.intervals]}
            summary["true" if ans.truth else "false"] += 1
            if ans.missing:
                row["missing_events"] = ans.missing
                summary["with_missing_events"] += 1
            res = _res(obj)
            if res is not None:
                row["agrees"] = res == ans.truth
                summary["with_res"] += 1
                summary["agree"] += int(res == ans.truth)
                if res != ans.truth:
                    summary["disagreements"].append(line)
            fh.write(json.dumps(row, ensure_ascii=False) + "\n")
        if summary["with_res"]:
            summary["agreement"] = round(summary["agree"] / summary["with_res"], 6)
        summary["seconds"] = round(time.perf_counter() - t0, 3)
        fh.write(json.dumps({"summary": summary}) + "\n")
    return summary
