"""The evidence reader's misses by cause, read from the figures file of `bench/evidence_reading.py`.

Each miss is put in one cause from its own reading (no hand labels):
- a FACTUAL response the reader did not support:
  - *nothing read*: every unit of the response is given by the query ("nothing to match");
  - *false conflict*: the reader refuted it;
  - *name or number not found*: a name or number of the claim is not stated (or not in its frame)
    with something else the claim is about;
  - *words not found (paraphrase)*: every name and number is found, some words are not;
- a NON-FACTUAL response the reader supported: *supported* (the error is said in the evidence's own
  words, or the evidence lacks the knowledge that it is wrong; the reading cannot tell these apart).

Run: .venv/bin/python bench/evidence_misses.py figures.json [--markdown]
"""

from __future__ import annotations

import argparse
import json
import logging
from collections import Counter
from pathlib import Path
from typing import Any

log = logging.getLogger("bench.evidence_misses")

CAUSES = (
    "name or number not found",
    "words not found (paraphrase)",
    "nothing read",
    "false conflict",
    "NON-FACTUAL supported",
)


def cause(reading: dict[str, Any]) -> str | None:
    """The cause of one reading's miss, or None when the reading is right."""
    supported = reading["decision"] == "supported"
    if supported == (reading["gold"] == "FACTUAL"):
        return None
    if supported:
        return "NON-FACTUAL supported"
    if reading["decision"] == "refuted":
        return "false conflict"
    if reading["reason"] == "nothing to match" or reading["reason"].endswith("nothing to match"):
        return "nothing read"
    if reading.get("scores", {}).get("hard_missing", 0) > 0:
        return "name or number not found"
    return "words not found (paraphrase)"


def by_cause(results: list[dict[str, Any]]) -> dict[str, Counter[str]]:
    """Per set, the number of misses of each cause."""
    out: dict[str, Counter[str]] = {}
    for res in results:
        counts: Counter[str] = Counter()
        for r in res["readings"]:
            c = cause(r)
            if c is not None:
                counts[c] += 1
        out[res["set"]] = counts
    return out


def markdown(table: dict[str, Counter[str]]) -> str:
    """The table as Markdown: one row per set, one column per cause, and the total."""
    lines = [
        "| set | " + " | ".join(CAUSES) + " | misses |",
        "| --- |" + " --- |" * (len(CAUSES) + 1),
    ]
    for name, counts in table.items():
        lines.append(f"| {name} | " + " | ".join(str(counts[c]) for c in CAUSES) + f" | {sum(counts.values())} |")
    return "\n".join(lines)


def main() -> None:
    """Print the misses by cause of a figures file."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("figures", type=Path, help="the --json-out file of bench/evidence_reading.py")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    data = json.loads(args.figures.read_text(encoding="utf-8"))
    log.info("%s", markdown(by_cause(data["results"])))


if __name__ == "__main__":
    main()
