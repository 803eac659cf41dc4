"""What the learned relation reader reads on sentences people wrote: a threshold sweep and the reads to inspect.

Sets (no evaluation data): FEVER claims of `../shared/data/train/` (a seeded sample of the half the model
was never trained on, `finetune.reader.data.held_out`; nearly all state
relations outside the catalog, so a read there is most often a false read), and `--pairs FILE`
responses (our own sets), split into plain statements as the verifier does (`agents.reading.clauses.discourse`).
For each sentence with two mentions that the KB's types fit to a relation, the reader's choice at a
threshold of 0 is kept with its probability that a catalog relation is stated (`Choice.stated`);
the table counts the reads at each threshold, and `--show` prints them for a reader to judge.

Run: .venv/bin/python bench/learned_reader.py [--fever 2000] [--pairs FILE] [--show 0.81] [--json-out F]
"""

from __future__ import annotations

import argparse
import functools
import json
import logging
import random
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

log = logging.getLogger("bench.learned_reader")
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
THRESHOLDS = (0.5, 0.6, 0.7, 0.75, 0.81, 0.9)


def sentences(args: argparse.Namespace) -> dict[str, list[str]]:
    """The sentences of each set."""
    from agents.reading.candidates import nlp
    from agents.reading.clauses import plain

    out: dict[str, list[str]] = {}
    if args.fever:
        from finetune.reader.data import held_out

        rows = [json.loads(line) for line in (SHARED / "train" / "fever" / "fever_rte_dev.jsonl").open()]
        claims = [r["claim"] for r in rows if held_out(r["claim"])]  # the half the model never saw
        random.Random(args.seed).shuffle(claims)
        out["FEVER claims (train, held-out half)"] = claims[: args.fever]
    for path in args.pairs:
        said = [plain(nlp()(json.loads(line)["response"])).text for line in path.open(encoding="utf-8")]
        out[path.name] = [s.text.strip() for text in said for s in nlp()(text).sents if s.text.strip()]
    return out


def _strict(typed: Any, text: str, relation: str, end: str) -> bool:
    return bool(typed.can(text, relation, end, strict=True))


def choices(texts: list[str], kb: Path) -> list[dict[str, Any]]:
    """The reader's choice per sentence at threshold 0 (None where no pair fits)."""
    from agents.reading.candidates import choose, nlp, shipped_model
    from agents.reading.claims import SentenceReader
    from agents.reading.mentions import knower, mentions
    from drowzee_core.kb.naming import TypeCheck
    from drowzee_core.kb.store import KBStore
    from drowzee_core.llm.embeddings import embedder

    store = KBStore(kb)
    catalog = store.catalog()
    typed = TypeCheck(store, catalog)
    known = knower(store, [])
    reader = SentenceReader(catalog)
    model = shipped_model()
    out = []
    for text in texts:
        doc = nlp()(text)
        if reader.read_one(text, known):
            continue  # a pattern reads it: the model is never asked
        found = mentions(doc, known, reader.lexicon.cue_lemmas)
        fits = functools.partial(_strict, typed)
        c = choose(doc, found, catalog, fits, embedder().encode, model, 0.0, reader.denials, reader.wording)
        if c is not None:
            out.append(
                {
                    "text": text,
                    "subject": c.subject.text,
                    "relation": c.relation,
                    "object": c.object.text,
                    "stated": round(c.stated, 3),
                    "negated": c.negated,
                }
            )
    return out


def main() -> None:
    """Sweep and print."""
    from drowzee_core.config import home

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fever", type=int, default=2000, help="FEVER claims sampled (0: none)")
    ap.add_argument("--pairs", type=Path, action="append", default=[])
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--kb", type=Path, default=home() / "kb" / "seed.sqlite")
    ap.add_argument("--show", type=float, default=None, help="print the reads at or above this threshold")
    ap.add_argument("--json-out", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    report: dict[str, Any] = {"produced_by": "bench/learned_reader.py", "sets": {}}
    for name, texts in sentences(args).items():
        got = choices(texts, args.kb)
        sweep = {str(t): sum(c["stated"] >= t for c in got) for t in THRESHOLDS}
        report["sets"][name] = {"sentences": len(texts), "pairs_fitting": len(got), "reads_at": sweep, "reads": got}
        print(f"{name}: {len(texts)} sentences, {len(got)} with a fitting pair; reads at threshold {sweep}")
        if args.show is not None:
            for c in sorted(got, key=lambda c: -c["stated"]):
                if c["stated"] >= args.show:
                    print(f"  {c['stated']:.2f} ({c['subject']}, {c['relation']}, {c['object']}) | {c['text'][:110]}")
    if args.json_out:
        args.json_out.write_text(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
