"""The batch engine behind `drowzee batch`: every input row once in the output, durably, resumable.

Reading and the row -> `Task` mapping are in `agents.batch.rows`. Here:
- **the ledger** (`Ledger`): the output JSONL, one `{"row", "id", "verdict" | "error"}` line per row
  (plus `expected`, the row's label), flushed and fsynced as each is final, from any thread. `resume`
  cuts a partly written last line and reads back only which rows are done (numbers, ids, labels);
- **the plan** (`plan`): the rows not yet done, as tasks or error records (repeated ids included);
- **the local engine** (`run_local`): `concurrency` threads over one verifier (KB and Prolog calls are
  serialized on its KB thread, model calls overlap). `agents.batch.ray_engine.run_ray` checks the same tasks
  on Ray workers. Rows finish in any order; each record carries its row number.
The verifier is passed in (`verify`), so the engine is tested with a fake one.
"""

from __future__ import annotations

import json
import os
import threading
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from agents.batch.rows import (
    FIELDS,
    BatchError,
    Record,
    Sink,
    Task,
    Verify,
    count_rows,
    error_record,
    parse_columns,
    read_rows,
    row_id,
    to_task,
)
from agents.batch.tally import Tally


# ---------------------------------------------------------------------------------------------- the ledger
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
    "recorded",
    "repair_tail",
    "row_id",
    "run_batch",
    "run_local",
    "scan",
    "to_task",
]
