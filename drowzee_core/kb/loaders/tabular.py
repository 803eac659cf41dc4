"""Triples from CSV (header row) or JSONL: subject, relation, object and optional columns.

Optional columns: domain, source, negated (true/false/1/0), start_year, end_year, subject_key,
object_key. Entities are linked by key when given, else to the one existing entity with that exact
label, else created with the label as key. The object of a relation whose `object_kind` is year or
quantity is that year or number ("1921", "1,200"); text there is a row error.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from drowzee_core.errors import LoadError
from drowzee_core.kb.writer import KBWriter, LoadReport, RowError

REQUIRED = ("subject", "relation", "object")
_TRUE = {"true", "1", "yes", "y", "t"}
_FALSE = {"false", "0", "no", "n", "f", ""}


def _year(value: Any, what: str) -> int | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        raise ValueError(f"{what} must be an integer year, got {value!r}")
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(f"{what} must be an integer year, got {value!r}") from None


def _flag(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value if value is not None else "").strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f"negated must be true/false, got {value!r}")


def link(writer: KBWriter, label: str, key: str | None) -> str:
    """Entity key for a label (see module docstring) and declare it."""
    if key:
        return writer.entity(key, label)
    found = writer.store.resolve(label, limit=2)
    if len(found) == 1 and writer.store.entity(found[0]).label == label:
        return writer.store.entity(found[0]).key
    return writer.entity(label, label, aliases=without_article(label))


def without_article(label: str) -> tuple[str, ...]:
    """A name that starts with "The" is also written without it ("The Salt Lantern": "Salt Lantern")."""
    words = label.split()
    return (" ".join(words[1:]),) if len(words) > 1 and words[0].lower() == "the" else ()


def add_row(writer: KBWriter, row: Mapping[str, Any], default_domain: str, default_source: str) -> None:
    """Validate one mapping row and add it to the writer (raises ValueError with the reason)."""
    missing = [c for c in REQUIRED if not isinstance(row.get(c), str) or not row[c].strip()]
    if missing:
        raise ValueError(f"missing or empty {', '.join(missing)}")
    value = writer.value(row["relation"], row["object"])  # a year or number, when the relation takes one
    writer.triple(
        link(writer, row["subject"], row.get("subject_key") or None),
        row["relation"],
        value or link(writer, row["object"], row.get("object_key") or None),
        domain=str(row.get("domain") or default_domain),
        source=str(row.get("source") or default_source),
        negated=_flag(row.get("negated")),
        start_year=_year(row.get("start_year"), "start_year"),
        end_year=_year(row.get("end_year"), "end_year"),
    )


def _load(rows: Iterator[tuple[int, Mapping[str, Any] | str]], writer: KBWriter, path: Path, domain: str) -> LoadReport:
    report = LoadReport()
    for line, row in rows:
        if isinstance(row, str):
            report.errors.append(RowError(str(path), line, row))
            continue
        try:
            add_row(writer, row, domain, path.name)
        except ValueError as exc:
            report.errors.append(RowError(str(path), line, str(exc)))
        else:
            report.accepted += 1
    report.new_triples = writer.flush()
    return report


def load_csv(path: Path, writer: KBWriter, domain: str = "general") -> LoadReport:
    """Load a CSV file with a header row."""

    def rows() -> Iterator[tuple[int, Mapping[str, Any] | str]]:
        try:
            with path.open(newline="", encoding="utf-8") as fh:
                reader = csv.DictReader(fh)
                if reader.fieldnames is None or not set(REQUIRED) <= set(reader.fieldnames):
                    raise LoadError(f"{path}: the header must name {', '.join(REQUIRED)}; found {reader.fieldnames}")
                for row in reader:
                    if None in row:
                        yield reader.line_num, f"{len(row[None])} more fields than the header has"
                    else:
                        yield reader.line_num, row
        except UnicodeDecodeError as exc:
            raise LoadError(f"{path}: not UTF-8 text ({exc})") from exc

    return _load(rows(), writer, path, domain)


def load_jsonl(path: Path, writer: KBWriter, domain: str = "general") -> LoadReport:
    """Load a JSON Lines file: one object per line."""

    def rows() -> Iterator[tuple[int, Mapping[str, Any] | str]]:
        with path.open(encoding="utf-8", errors="strict") as fh:
            for n, line in enumerate(fh, start=1):
                if not line.strip():
                    continue
                try:
                    obj = json.loads(line)
                except json.JSONDecodeError as exc:
                    yield n, f"not valid JSON: {exc.msg} at column {exc.colno}"
                    continue
                yield n, obj if isinstance(obj, dict) else f"expected a JSON object, got {type(obj).__name__}"

    try:
        return _load(rows(), writer, path, domain)
    except UnicodeDecodeError as exc:
        raise LoadError(f"{path}: not UTF-8 text ({exc})") from exc
