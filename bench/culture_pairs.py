"""Drowzee's culture questions as Query-Response pairs, for a later, held-out measurement of a reader.

For each question of `../shared/data/peers/drowzee_qa/culture_dataset.json` two `QRPair`s: the
response "Yes." and the response "No.", labelled FACTUAL when it equals the question's gold answer
and NON-FACTUAL otherwise, with the question's triples as evidence (`type` kg). `reason` is the
label, then the dataset's reasoning; `meta` keeps `item` (the question's qid, shared by both pairs),
the gold answer, entity, description and category. Written as JSONL with a provenance sidecar, to a
path OUTSIDE the repository (the questions are evaluation data: they stay out of the checkout).

The questions are held out: this script copies fields and prints only counts, never their wording.
Without ../shared it says so and exits 0 (skipped).

Run: .venv/bin/python bench/culture_pairs.py --out /tmp/culture_pairs.jsonl [--limit N] [--seed S]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from drowzee_core.records.enums import Label  # noqa: E402
from drowzee_core.records.jsonl import counts, write_jsonl  # noqa: E402
from drowzee_core.records.pair import QRPair  # noqa: E402
from drowzee_core.records.provenance import input_files, provenance  # noqa: E402

log = logging.getLogger("bench.culture_pairs")
SHARED = ROOT.parent / "shared"
DATA = SHARED / "data" / "peers" / "drowzee_qa" / "culture_dataset.json"
RESPONSES = ("Yes.", "No.")
SOURCE = "drowzee_culture"


def answer_key(text: str) -> str:
    """'Yes.' -> 'yes' (case, spaces and the final period do not matter)."""
    return text.strip().rstrip(".").strip().lower()


def pairs_of(row: dict[str, Any]) -> list[QRPair] | None:
    """The two pairs of one question, or None when its answer is not Yes / No or its evidence is not triples."""
    gold = answer_key(str(row.get("answer", "")))
    evidence = row.get("evidence")
    if gold not in ("yes", "no") or not isinstance(evidence, list):
        return None
    if not all(isinstance(t, list) and len(t) == 3 and all(isinstance(x, str) for x in t) for t in evidence):
        return None
    meta = {
        "item": row["qid"],
        "gold_answer": row["answer"],
        "entity": row.get("entity"),
        "description": row.get("description"),
        "category": row.get("category"),
        "dataset": "drowzee_qa/culture_dataset.json",
    }
    out = []
    for response in RESPONSES:
        label = Label.FACTUAL if answer_key(response) == gold else Label.NON_FACTUAL
        out.append(
            QRPair(
                id=f"culture-{row['qid']}-{answer_key(response)}",
                label=label,
                query=str(row["question"]),
                response=response,
                evidence=[list(t) for t in evidence],
                reason=f"{label}.\n{row.get('reasoning', '')}".rstrip(),
                domain="culture",
                type="kg",
                source=SOURCE,
                meta=meta,
            )
        )
    return out


def sample(rows: Sequence[dict[str, Any]], limit: int | None, seed: int) -> list[dict[str, Any]]:
    """`limit` rows drawn with `seed` (in file order), or every row."""
    if limit is None or limit >= len(rows):
        return list(rows)
    keep = sorted(random.Random(seed).sample(range(len(rows)), limit))
    return [rows[i] for i in keep]


def inside(path: Path, folder: Path) -> bool:
    """Whether `path` lies in `folder` (links resolved)."""
    return path.resolve().is_relative_to(folder.resolve())


def main(argv: Sequence[str] | None = None) -> int:
    """Write the pairs; 0 when written or skipped (no ../shared), 2 on a bad request."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True, help="Output JSONL, outside the repository.")
    ap.add_argument("--data", type=Path, default=DATA, help="The culture questions (default: %(default)s).")
    ap.add_argument("--limit", type=int, default=None, help="Only N questions, drawn with --seed.")
    ap.add_argument("--seed", type=int, default=0, help="Seed of the --limit sample.")
    args = ap.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    if inside(args.out, ROOT):
        ap.error(f"--out {args.out} is inside the repository; the held-out pairs go outside it (e.g. /tmp)")
    if args.limit is not None and args.limit < 1:
        ap.error(f"--limit must be at least 1, got {args.limit}")
    if not args.data.is_file():
        where = "../shared is absent" if not SHARED.is_dir() else f"{args.data} is absent"
        log.warning("skipped: %s (only CI and developers have the peers' data)", where)
        return 0
    rows = json.loads(args.data.read_text(encoding="utf-8"))
    if not isinstance(rows, list):
        ap.error(f"{args.data}: expected a JSON list of questions")
    chosen = sample(rows, args.limit, args.seed)
    made = [pairs_of(r) for r in chosen]
    pairs = [p for two in made if two is not None for p in two]
    skipped = sum(two is None for two in made)
    meta = provenance(
        "bench.culture_pairs",
        {"data": str(args.data), "out": str(args.out), "limit": args.limit, "seed": args.seed},
        seed=args.seed,
        inputs=input_files([args.data]),
        counts=counts(pairs, ["label"]) | {"questions": len(chosen) - skipped, "skipped_questions": skipped},
    )
    n = write_jsonl(pairs, args.out, meta)
    log.info("wrote %d pairs (%d questions, %d skipped) to %s", n, len(chosen) - skipped, skipped, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
