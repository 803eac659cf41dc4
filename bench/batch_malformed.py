"""Malformed input rows for `drowzee batch`: exactly the bad rows become error records, the rest verdicts, exit 1.

Copies a pairs file with a share of its rows (`--rate`, at least `--min-each` of every kind) spoiled
in one of these ways, each with the reason its error record must give:

- `invalid_json`: a stray `, }` at the end of the object (not valid JSON);
- `torn_json`: the line cut at a random byte, as a crashed writer leaves it (not valid JSON);
- `undecodable`: bytes that are not UTF-8 inside the response (not UTF-8 text);
- `not_object`: a JSON array instead of an object;
- `missing_response`: the `response` field removed;
- `overlong`: a response longer than the request limit (`VerifyRequest`'s `MAX_TEXT` characters);
- `bad_evidence`: evidence of a type the request refuses (a number);
- `duplicate_id`: the id of an earlier, valid row.

Then runs `drowzee batch` on the copy to the end (with `--evidence-field evidence`) and checks that
every row has exactly one record, that the error records are exactly the spoiled rows with the
expected reasons, that every other row has a verdict, and that the exit code is 1.

Run: .venv/bin/python bench/batch_malformed.py --n 345 --seed 12 --batch-args "--no-guardian --no-seeker"
        [--input pairs.jsonl] [--rate 0.01] [--min-each 1] [--workdir DIR] [--out summary.json]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.batch_common import ROOT, batch_cmd, generate_pairs, read_records
from drowzee_core.records.verdict import MAX_TEXT

log = logging.getLogger("bench.batch_malformed")

Spoil = Callable[[dict[str, Any], random.Random, str], tuple[bytes, str]]
"""(row, rng, an earlier valid id) -> (the spoiled line, a phrase its error record must contain)."""


def _line(row: Any) -> bytes:
    return json.dumps(row, ensure_ascii=False).encode("utf-8")


def invalid_json(row: dict[str, Any], rng: random.Random, _earlier: str) -> tuple[bytes, str]:
    """A stray `, }` closing the object."""
    return _line(row)[:-1] + b", }", "not valid JSON"


def torn_json(row: dict[str, Any], rng: random.Random, _earlier: str) -> tuple[bytes, str]:
    """The line cut at a random character (before the closing brace, so never valid; UTF-8 stays whole)."""
    text = json.dumps(row, ensure_ascii=False)
    return text[: rng.randint(1, len(text) - 1)].encode("utf-8"), "not valid JSON"


def undecodable(row: dict[str, Any], rng: random.Random, _earlier: str) -> tuple[bytes, str]:
    """Latin-1 bytes inside the response string."""
    marker = "@@SPOIL@@"
    data = _line(row | {"response": f"{row['response']} {marker}"})
    return data.replace(marker.encode(), b"caf\xe9 \xff"), "not UTF-8 text"


def not_object(row: dict[str, Any], rng: random.Random, _earlier: str) -> tuple[bytes, str]:
    """The row's values as a JSON array."""
    return _line(list(row.values())[:4]), "not a JSON object"


def missing_response(row: dict[str, Any], rng: random.Random, _earlier: str) -> tuple[bytes, str]:
    """No `response` field."""
    return _line({k: v for k, v in row.items() if k != "response"}), "missing field 'response'"


def overlong(row: dict[str, Any], rng: random.Random, _earlier: str) -> tuple[bytes, str]:
    """A response past the request limit."""
    text = (row["response"] + " ") * (MAX_TEXT // max(len(row["response"]), 1) + 2)
    return _line(row | {"response": text[: MAX_TEXT + rng.randint(1, 500)]}), f"at most {MAX_TEXT}"


def bad_evidence(row: dict[str, Any], rng: random.Random, _earlier: str) -> tuple[bytes, str]:
    """Evidence that is a number."""
    return _line(row | {"evidence": rng.randint(1, 99)}), "evidence"


def duplicate_id(row: dict[str, Any], rng: random.Random, earlier: str) -> tuple[bytes, str]:
    """The id of an earlier valid row."""
    return _line(row | {"id": earlier}), f"duplicate id {earlier!r}"


KINDS: dict[str, Spoil] = {
    f.__name__: f
    for f in (
        invalid_json,
        torn_json,
        undecodable,
        not_object,
        missing_response,
        overlong,
        bad_evidence,
        duplicate_id,
    )
}


@dataclass
class Spoiled:
    """One spoiled row and what became of it."""

    row: int
    kind: str
    expect: str
    got: str | None = None
    ok: bool = False


def spoil(lines: list[bytes], rate: float, min_each: int, rng: random.Random) -> tuple[list[bytes], list[Spoiled]]:
    """A copy of the lines with `rate` of them (at least `min_each` per kind) spoiled; which and how."""
    count = min(max(round(rate * len(lines)), min_each * len(KINDS)), len(lines) - 1)
    picked = sorted(rng.sample(range(2, len(lines) + 1), count))  # row 1 stays valid: a duplicate needs a first
    kinds = [list(KINDS)[i % len(KINDS)] for i in range(count)]
    rng.shuffle(kinds)
    out = list(lines)
    spoiled = []
    bad = set(picked)
    for row_no, kind in zip(picked, kinds, strict=True):
        row = json.loads(lines[row_no - 1])
        earlier = json.loads(lines[rng.choice([n for n in range(1, row_no) if n not in bad]) - 1])["id"]
        out[row_no - 1], expect = KINDS[kind](row, rng, str(earlier))
        spoiled.append(Spoiled(row_no, kind, expect))
    return out, spoiled


def check(records: list[dict[str, Any]], rows: int, spoiled: list[Spoiled]) -> dict[str, list[int]]:
    """Fill in what each spoiled row got; the rows that break the rules, by rule."""
    by_row: dict[int, list[dict[str, Any]]] = {}
    for rec in records:
        by_row.setdefault(int(rec["row"]), []).append(rec)
    expected = {s.row: s for s in spoiled}
    problems: dict[str, list[int]] = {
        "lost": [n for n in range(1, rows + 1) if n not in by_row],
        "duplicated": sorted(n for n, recs in by_row.items() if len(recs) > 1),
        "unexpected": sorted(n for n in by_row if not 1 <= n <= rows),
        "error_not_spoiled": sorted(n for n, r in by_row.items() if "error" in r[0] and n not in expected),
        "spoiled_not_error": [],
        "wrong_reason": [],
    }
    for s in spoiled:
        rec = by_row.get(s.row, [{}])[0]
        s.got = rec.get("error")
        if s.got is None:
            problems["spoiled_not_error"].append(s.row)
        elif s.expect not in s.got:
            problems["wrong_reason"].append(s.row)
        s.ok = s.got is not None and s.expect in s.got
    return problems


def main() -> None:
    """Spoil a copy, run the batch, check and print the error records."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--input", type=Path, help="Pairs JSONL (default: generate --n pairs of the test split).")
    ap.add_argument("--n", type=int, default=345, help="Cases to generate when there is no --input.")
    ap.add_argument("--seed", type=int, default=0, help="Seed of which rows are spoiled and how (and generation).")
    ap.add_argument("--rate", type=float, default=0.01, help="Share of rows to spoil.")
    ap.add_argument("--min-each", type=int, default=1, help="Spoil at least this many rows of every kind.")
    ap.add_argument("--batch-args", default="", help='Extra `drowzee batch` options, e.g. "--no-guardian".')
    ap.add_argument("--workdir", type=Path, help="Where the copy, output and log go (default: a temp folder).")
    ap.add_argument("--out", type=Path, help="JSON summary.")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    if not 0.0 <= args.rate < 1.0 or args.min_each < 0:
        ap.error("--rate must be in [0, 1) and --min-each >= 0")

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="batch-malformed-"))
    workdir.mkdir(parents=True, exist_ok=True)
    source = args.input or generate_pairs(args.n, args.seed, workdir / "pairs.jsonl")
    lines = [raw for raw in source.read_bytes().splitlines() if raw.strip()]
    copy, spoiled = spoil(lines, args.rate, args.min_each, random.Random(args.seed))
    inputs = workdir / "spoiled.jsonl"
    inputs.write_bytes(b"\n".join(copy) + b"\n")
    log.info("%d of %d rows spoiled into %s", len(spoiled), len(lines), inputs)

    out = workdir / "out.jsonl"
    extra = ["--evidence-field", "evidence", "--overwrite", *shlex.split(args.batch_args)]
    with (workdir / "batch.log").open("wb") as sink:
        rc = subprocess.run(batch_cmd(inputs, out, extra), cwd=ROOT, stdout=sink, stderr=subprocess.STDOUT).returncode
    records, bad_lines = read_records(out)
    problems = check(records, len(lines), spoiled)
    verdicts = sum("verdict" in r for r in records)
    ok = rc == 1 and not bad_lines and not any(problems.values()) and verdicts == len(lines) - len(spoiled)
    summary = {
        "input": str(source),
        "spoiled_file": str(inputs),
        "rows": len(lines),
        "spoiled": [asdict(s) for s in spoiled],
        "batch_args": extra,
        "rc": rc,
        "records": len(records),
        "verdicts": verdicts,
        "errors": sum("error" in r for r in records),
        "bad_output_lines": bad_lines,
        "problems": problems,
        "ok": ok,
    }
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1), "utf-8")
    share = f"{100 * len(spoiled) / len(lines):.1f} %"
    print(f"drowzee batch {' '.join(extra)}: {len(lines)} rows, {len(spoiled)} spoiled ({share}); exit {rc} (want 1)")
    print(f"{'row':>5}  {'kind':<17} {'ok':<3} error record")
    for s in spoiled:
        print(f"{s.row:>5}  {s.kind:<17} {'yes' if s.ok else 'NO':<3} {(s.got or '(none: ' + s.expect + ')')[:150]}")
    print(
        f"records {len(records)}, verdicts {verdicts}, errors {summary['errors']}, unreadable output lines "
        f"{bad_lines}; " + ", ".join(f"{k} {len(v)}" for k, v in problems.items()) + f": {'PASS' if ok else 'FAIL'}"
    )
    raise SystemExit(0 if ok else 1)


if __name__ == "__main__":
    main()
