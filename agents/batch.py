"""The batch engine behind `drowzee batch` and the service's batch jobs: every input row once, durably.

The work is split in three:
- **reading** (`read_rows`, `to_task`, `plan`): input rows are streamed (JSONL and CSV line by line),
  mapped through the column map, and become either a `Task` (a valid `VerifyRequest` for one row) or
  at once an error record that says what is wrong with the row (not UTF-8, not JSON, not an object,
  a missing field, over-long text, bad evidence, a repeated id). Rows already in the output are
  skipped (resume);
- **the ledger** (`Ledger`): the output JSONL. Each line is `{"row", "id", "verdict"}` or
  `{"row", "id", "error"}` (plus `expected`, the row's label, when it has one), written, flushed and
  fsynced as soon as the row is final, from any thread. After a crash the file holds every finished
  row; `resume` cuts a partially written last line and reads back which rows are done (only their
  numbers, ids and labels are kept in memory, not their records);
- **engines**: `run_local` checks tasks in this process (`concurrency` threads over one verifier:
  the KB and Prolog calls are serialized on the verifier's KB thread, model calls overlap), and
  `agents.batch_ray.run_ray` runs the same `record_of` on Ray workers, one verifier per worker process.
  Rows finish in any order; each record carries its row number, so the file is complete when every
  row number is present once.
The verifier is passed in (`verify`), so the engine is tested with a fake one.
"""

from __future__ import annotations

import csv
import json
import os
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

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


def to_task(row_no: int, where: str, row: Any, columns: Mapping[str, str]) -> Task | Record:
    """A row as a `Task`, or its error record when it cannot be checked."""
    rid = row_id(row_no, row, columns)
    try:
        if isinstance(row, ValueError):
            raise row
        if not isinstance(row, dict):
            raise ValueError("row is not a JSON object")
        if columns["response"] not in row:
            raise KeyError(columns["response"])
        evidence = _evidence(row.get(columns["evidence"])) if "evidence" in columns else None
        req = VerifyRequest(
            id=rid,
            query=str(row.get(columns["query"]) or ""),
            response=str(row[columns["response"]]),
            evidence=evidence,
        )
    except ValidationError as exc:
        reason = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors(include_url=False))
        return error_record(row_no, rid, where, reason)
    except (KeyError, ValueError) as exc:
        return error_record(row_no, rid, where, f"missing field {exc}" if isinstance(exc, KeyError) else str(exc))
    label = str(row.get(columns["label"], "")).strip().upper()
    return Task(row_no, rid, req, label if label in LABELS else None)


def record_of(row_no: int, where: str, row: Any, evidence_field: str | None, verify: Verify) -> Record:
    """The output record of one input row: its verdict, or the reason the row cannot be checked."""
    task = to_task(row_no, where, row, parse_columns(None, evidence_field))
    # the verifier itself never raises for a row (a failing source degrades the verdict); if it does, the run stops
    return task.record(verify(task.request)) if isinstance(task, Task) else task


# ---------------------------------------------------------------------------------------------- the ledger
@dataclass
class Tally:
    """What the output holds so far: verdict labels, degraded and error rows, and (expected, label) pairs."""

    counts: Counter[str] = field(default_factory=Counter)
    labelled: list[tuple[str, str, bool]] = field(default_factory=list)

    def add(self, rec: Mapping[str, Any]) -> None:
        """Count one record."""
        verdict = rec.get("verdict")
        if verdict is None:
            self.counts["error"] += 1
            return
        self.counts[str(verdict["label"])] += 1
        degraded = bool(verdict.get("degraded"))
        self.counts["degraded"] += degraded
        if rec.get("expected") in LABELS:
            self.labelled.append((str(rec["expected"]), str(verdict["label"]), degraded))

    @property
    def rows(self) -> int:
        """Records counted (verdicts and errors)."""
        return sum(self.counts[k] for k in (*LABELS, "error"))

    def metrics(self) -> dict[str, Any] | None:
        """FactCls, accuracy and macro-F1 with 95 % intervals and the constant baselines, when rows have labels."""
        if not self.labelled:
            return None
        from drowzee_core.oracles.verdicts import summarize

        judged = [
            {"gold_label": g, "parsed_label": p, "exp_match": None, "degraded": d, "error": None}
            for g, p, d in self.labelled
        ]
        return {"rows": len(judged), **summarize(judged)["overall"]}


def repair_tail(out: Path) -> int:
    """Cut a last line that was only partly written (no newline, or not JSON); the bytes removed."""
    size = out.stat().st_size
    with out.open("r+b") as fh:
        # the last complete line is short: read back from the end until two newlines are in view
        window = 1 << 16
        while True:
            start = max(0, size - window)
            fh.seek(start)
            data = fh.read()
            if start == 0 or data.count(b"\n") >= 2:
                break
            window *= 4
        keep = len(data) if data.endswith(b"\n") else data.rfind(b"\n") + 1
        line_start = data.rfind(b"\n", 0, keep - 1) + 1 if keep else 0
        if keep and line_start < keep and (start == 0 or line_start > 0):
            try:
                json.loads(data[line_start:keep])
            except (json.JSONDecodeError, UnicodeDecodeError):
                keep = line_start
        cut = len(data) - keep
        if cut:
            fh.truncate(start + keep)
    return cut


@dataclass
class Done:
    """The rows already in an output: their numbers, the first row of each id, and the tally."""

    rows: set[int] = field(default_factory=set)
    first_ids: dict[str, int] = field(default_factory=dict)
    tally: Tally = field(default_factory=Tally)


def scan(out: Path) -> Done:
    """Read back an output file (streamed; only row numbers, ids and labels are kept)."""
    done = Done()
    with out.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                rec = json.loads(line)
                row = int(rec["row"])
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                raise BatchError(f"{out}:{n} is not a batch record; is --out the right file?") from None
            if row in done.rows:
                raise BatchError(f"{out}:{n} repeats row {row}; the file was not written by `drowzee batch`")
            done.rows.add(row)
            done.first_ids.setdefault(str(rec.get("id")), row)
            done.tally.add(rec)
    return done


def recorded(out: Path) -> dict[int, Record]:
    """The records in `out` by row number (for tests and small files; `scan` streams)."""
    found: dict[int, Record] = {}
    with out.open(encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            try:
                rec = json.loads(line)
                found[int(rec["row"])] = rec
            except (json.JSONDecodeError, KeyError, TypeError, ValueError):
                raise BatchError(f"{out}:{n} is not a batch record; is --out the right file?") from None
    return found


class Ledger:
    """The output file: resumed or new; `write` appends one record durably (thread-safe)."""

    def __init__(self, out: Path, resume: bool = False) -> None:
        self.out = out
        self.repaired = 0
        self.done = Done()
        if resume and out.exists():
            self.repaired = repair_tail(out)
            self.done = scan(out)
        self.resumed = len(self.done.rows)
        out.parent.mkdir(parents=True, exist_ok=True)
        self._sink: TextIO = out.open("a" if resume else "w", encoding="utf-8")
        self._lock = threading.Lock()

    @property
    def tally(self) -> Tally:
        """Counts over the whole file (resumed rows included)."""
        return self.done.tally

    def write(self, rec: Record) -> None:
        """Append `rec` as one line, flushed and fsynced before returning."""
        line = json.dumps(rec, ensure_ascii=False) + "\n"
        with self._lock:
            self._sink.write(line)
            self._sink.flush()
            os.fsync(self._sink.fileno())
            self.done.rows.add(int(rec["row"]))
            self.done.tally.add(rec)

    def close(self) -> None:
        """Close the file."""
        self._sink.close()

    def __enter__(self) -> Ledger:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def plan(rows: Iterable[tuple[str, Any]], done: Done, columns: Mapping[str, str]) -> Iterator[Task | Record]:
    """The rows not yet in the output, numbered from 1: tasks, and error records for bad or repeated rows.

    Ids are unique across the file; a row without an id is known by its row number, and the first row
    that holds an id owns it (a later row with that id is a `duplicate id` error, whatever it holds).
    """
    first = done.first_ids
    for row_no, (where, row) in enumerate(rows, 1):
        if row_no in done.rows:
            continue
        rid = row_id(row_no, row, columns)
        seen = first.setdefault(rid, row_no)
        if seen != row_no:
            yield error_record(row_no, rid, where, f"duplicate id {rid!r} (first at row {seen})")
        else:
            yield to_task(row_no, where, row, columns)


# ---------------------------------------------------------------------------------------------- engines
def run_local(
    items: Iterable[Task | Record],
    verify: Verify,
    sink: Sink,
    concurrency: int = 1,
    on_row: Callable[[], None] | None = None,
) -> None:
    """Check the tasks in this process, `concurrency` at a time, writing each record when it is final.

    At most `2 * concurrency` tasks are in flight, so the input is never read ahead of the work.
    A verifier failure (which the graph turns into a degraded verdict, so this is a bug or a dead
    KB thread) stops the run after the records already written.
    """
    if concurrency < 1:
        raise BatchError(f"--concurrency must be >= 1, got {concurrency}")

    def finish(rec: Record) -> None:
        sink(rec)
        if on_row:
            on_row()

    if concurrency == 1:
        for item in items:
            finish(item.record(verify(item.request)) if isinstance(item, Task) else item)
        return
    with ThreadPoolExecutor(max_workers=concurrency, thread_name_prefix="drowzee-batch") as pool:
        flying: set[Future[Record]] = set()

        def drain(block_until: int) -> None:
            while len(flying) > block_until:
                finished, _ = wait(flying, return_when=FIRST_COMPLETED)
                for fut in finished:
                    flying.discard(fut)
                    finish(fut.result())

        try:
            for item in items:
                if isinstance(item, Task):
                    flying.add(pool.submit(lambda t: t.record(verify(t.request)), item))
                    drain(2 * concurrency - 1)
                else:
                    finish(item)
            drain(0)
        except BaseException:
            for fut in flying:
                fut.cancel()
            raise


def run_batch(
    rows: Iterable[tuple[str, Any]],
    out: Path,
    verify: Verify,
    *,
    evidence_field: str | None = None,
    columns: Mapping[str, str] | None = None,
    resume: bool = False,
    concurrency: int = 1,
    progress: Callable[[int], None] | None = None,
) -> Counter[str]:
    """Check every row into `out` with the local engine (appending after the recorded rows when `resume`).

    Returns the counts of the whole file. `progress` gets the number of rows in the file so far.
    """
    cols = dict(columns) if columns is not None else parse_columns(None, evidence_field)
    with Ledger(out, resume) as ledger:
        tick = (lambda: progress(len(ledger.done.rows))) if progress else None
        if progress:
            progress(len(ledger.done.rows))
        run_local(plan(rows, ledger.done, cols), verify, ledger.write, concurrency, tick)
        return Counter(ledger.tally.counts)


def counts_of(records: Iterable[Mapping[str, Any]]) -> Counter[str]:
    """Verdict labels, degraded verdicts and error rows."""
    tally = Tally()
    for rec in records:
        tally.add(rec)
    return tally.counts


__all__ = [
    "FIELDS",
    "BatchError",
    "Done",
    "Ledger",
    "Record",
    "Sink",
    "Tally",
    "Task",
    "Verify",
    "count_rows",
    "counts_of",
    "error_record",
    "parse_columns",
    "plan",
    "read_rows",
    "record_of",
    "recorded",
    "repair_tail",
    "row_id",
    "run_batch",
    "run_local",
    "scan",
    "to_task",
]
