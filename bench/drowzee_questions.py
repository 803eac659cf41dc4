"""Drowzee question reading and scratch-KB proofs over the peers' response files, per reasoning type.

For each model's `history.json` and each reasoning type: the share of questions
`read_drowzee_question` reads; then, loading each row's evidence triples into a `ScratchKB` and
proving the read claim's positive form (`prove` for a triple, `common_object` for a common-object
claim), the share decided (supported or contradicted) and, among decided rows, the share whose
implied answer (`expected_answer`: the question's polarity applied) equals the gold answer. Rows
without evidence, or whose relation is absent from the evidence, count as unknown. The gold answer
is read only here, to score; `--shapes` adds the same figures per question shape.

Run: .venv/bin/python bench/drowzee_questions.py [--peers ../shared/data/peers] [--shapes] [--limit N]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

from drowzee_core.errors import KBError
from drowzee_core.kb.drowzee_questions import (
    CommonObjectQuestion,
    DrowzeeQuestion,
    expected_answer,
    read_drowzee_question,
)
from drowzee_core.logic.scratch import ScratchKB
from drowzee_core.records.enums import ProofStatus

ROOT = Path(__file__).resolve().parents[2]
MODELS = ("llama2-13b-chat", "text-davinci-003", "vicuna-13b-v1.5")
GOLD = {"yes.": True, "no.": False}


def prove(question: DrowzeeQuestion, evidence: list[list[str]]) -> ProofStatus:
    """The status of the question's positive form over the evidence as a scratch KB."""
    if not evidence:
        return ProofStatus.UNKNOWN
    with ScratchKB(evidence) as kb:
        try:
            if isinstance(question, CommonObjectQuestion):
                return kb.common_object(question.a, question.relation, question.b).status
            return kb.prove(question.subject, question.relation, question.object).status
        except KBError:  # the relation is absent from this row's evidence ("mother" beside "father")
            return ProofStatus.UNKNOWN


class Tally:
    """Counts for one group of rows."""

    def __init__(self) -> None:
        self.rows = self.parsed = self.decided = self.agree = 0
        self.status: dict[str, int] = defaultdict(int)

    def add(self, question: DrowzeeQuestion | None, status: ProofStatus | None, gold: bool | None) -> None:
        """Count one row."""
        self.rows += 1
        if question is None or status is None:
            return
        self.parsed += 1
        self.status[str(status)] += 1
        implied = expected_answer(question, status)
        if implied is not None:
            self.decided += 1
            self.agree += implied == gold

    def line(self, name: str) -> str:
        """One table row."""

        def pct(n: int, d: int) -> str:
            return f"{100 * n / d:6.1f}%" if d else "     -"

        st = self.status
        return (
            f"  {name:<34} {self.rows:>5} parsed {pct(self.parsed, self.rows)}  decided {pct(self.decided, self.rows)}"
            f"  agree {pct(self.agree, self.decided)} ({self.agree}/{self.decided})"
            f"  [sup {st['supported']}, con {st['contradicted']}, unk {st['unknown']}]"
        )


def main() -> None:
    """Run and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--peers", type=Path, default=ROOT / "shared" / "data" / "peers")
    ap.add_argument("--shapes", action="store_true", help="also print the figures per question shape")
    ap.add_argument("--limit", type=int, default=0, help="rows per model (0: all)")
    args = ap.parse_args()
    base = args.peers / "drowzee_responses"
    if not all((base / m / "history.json").exists() for m in MODELS):
        sys.exit(f"no peer data at {base}; pass --peers DIR")
    t0 = time.perf_counter()
    overall: dict[str, Tally] = defaultdict(Tally)
    shapes: dict[str, Tally] = defaultdict(Tally)
    for model in MODELS:
        rows = json.loads((base / model / "history.json").read_text(encoding="utf-8"))
        rows = rows[: args.limit] if args.limit else rows
        per: dict[str, Tally] = defaultdict(Tally)
        for row in rows:
            question = read_drowzee_question(row["question"])
            status = prove(question, row.get("evidence") or []) if question is not None else None
            gold = GOLD.get(str(row["answer"]).strip().lower())
            for tally in (per[row["reasoning"]], per["all"], overall[row["reasoning"]], overall["all"]):
                tally.add(question, status, gold)
            if args.shapes:
                shapes[question.shape if question else f"(unread) {row['reasoning']}"].add(question, status, gold)
        print(f"{model}:")
        for name in sorted(per, key=lambda n: (n == "all", n)):
            print(per[name].line(name))
    print("all models:")
    for name in sorted(overall, key=lambda n: (n == "all", n)):
        print(overall[name].line(name))
    if args.shapes:
        print("per shape, all models:")
        for name in sorted(shapes):
            print(shapes[name].line(name))
    print(f"({time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
