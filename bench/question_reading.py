"""How many of Drowzee's yes / no questions the general reader reads, per rule family, and what their proofs say.

For each row of a Drowzee question file (`drowzee_qa/*_dataset.json`, or a model's `history.json`):
the question is read by the verifier's own question reader (`SentenceReader.ask`: names linked to
the seed KB and to the row's evidence triples, relations to the catalog and to the triples' labels),
never by a per-dataset template. A read question is then decided over the row's evidence triples
alone, as a scratch KB (a triple by `prove`, a common-object question by `common_object`, a count by
counting proved facts): the answer it implies is compared with the gold answer. The gold answer is
read only here, to score.

Per rule family: rows, the share read (95 % Wilson interval), the share decided, and the agreement of
decided rows with the gold answer (the constant "always Yes" agreement beside it). `--unread N`
prints N unread questions per family (for the closing note's "what the reader cannot read").

Run: .venv/bin/python bench/question_reading.py --file ../shared/data/peers/drowzee_qa/history_dataset.json
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # this checkout's code, not an installed copy

from agents.reading.candidates import Reading
from agents.reading.claims import SentenceReader
from agents.reading.mentions import knower
from agents.reading.questions import question_text
from agents.verifier.kb.supplied import distinct_values
from drowzee_core.config import home
from drowzee_core.errors import KBError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.scratch import ScratchKB
from drowzee_core.records.enums import ProofStatus


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson interval of k successes in n."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def implied(r: Reading, evidence: list[list[str]]) -> bool | None:
    """The answer (True: Yes) the reading's proof over the evidence implies; None when undecided."""
    try:
        with ScratchKB(evidence) as kb:
            if r.kind == "count":
                proved = {
                    s
                    for s, rel, o in (tuple(t) for t in evidence if len(t) == 3)
                    if rel == r.relation
                    and o.lower() == r.subject.lower()
                    and kb.prove(s, rel, o).status == ProofStatus.SUPPORTED
                }
                status = ProofStatus.SUPPORTED if len(proved) >= int(r.object) else ProofStatus.UNKNOWN
            elif r.kind == "common":
                status = kb.common_object(r.subject, r.relation, r.object).status
                if status == ProofStatus.UNKNOWN:  # the verifier reads supplied values as complete here
                    d = distinct_values(kb.reasoner, r.subject, r.relation, r.object, False)
                    status = d.status if d is not None else status
            else:
                status = kb.prove(r.subject, r.relation, r.object).status
    except KBError:
        return None
    if status == ProofStatus.UNKNOWN:
        return None
    return (status == ProofStatus.SUPPORTED) != r.negated


def main() -> int:
    """Print the table; 2 when the file is missing."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--file", type=Path, required=True)
    ap.add_argument("--unread", type=int, default=0, help="print this many unread questions per family")
    args = ap.parse_args()
    if not args.file.is_file():
        sys.stderr.write(f"{args.file}: no such file\n")
        return 2
    rows: list[dict[str, Any]] = json.loads(args.file.read_text("utf-8"))
    catalog = Catalog.from_toml()
    reader = SentenceReader(catalog)
    store = KBStore(home() / "kb" / "seed.sqlite")
    t0 = time.perf_counter()
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0, 0])  # rows, read, decided, agree, gold yes
    unread: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        evidence = row.get("evidence") or []
        if isinstance(evidence, str):
            evidence = json.loads(evidence.replace("'", '"')) if evidence.strip() else []
        family = str(row.get("reasoning", "?"))
        gold = str(row.get("answer", "")).strip().lower().startswith("yes")
        t = tally[family]
        t[0] += 1
        t[4] += gold
        asked = question_text(str(row["question"]))
        lexicon = reader.with_labels([str(x[1]) for x in evidence if len(x) >= 3])
        found = reader.ask(asked, knower(store, evidence), lexicon, evidence) if asked else []
        if not found:
            if len(unread[family]) < args.unread:
                unread[family].append(str(row["question"]))
            continue
        t[1] += 1
        answer = implied(found[0], evidence)
        if answer is not None:
            t[2] += 1
            t[3] += answer == gold
    print("| rule family | rows | read [95 % CI] | decided | agreement of decided | always Yes |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    total = [sum(v[i] for v in tally.values()) for i in range(5)]
    for name, (n, read, decided, agree, yes) in [*sorted(tally.items()), ("all", total)]:
        lo, hi = wilson(read, n)
        share = f"{read / n:.3f} [{lo:.3f}, {hi:.3f}]"
        agreement = f"{agree / decided:.3f} ({agree}/{decided})" if decided else "-"
        print(f"| {name} | {n} | {share} | {decided / n:.3f} | {agreement} | {yes / n:.3f} |")
    for name, qs in sorted(unread.items()):
        print(f"\nunread, {name}:")
        for q in qs:
            print(f"  {q}")
    print(f"\n({time.perf_counter() - t0:.0f} s, {args.file.name})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
