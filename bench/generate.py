"""Test generation figures: 7,200 Drowzee QA cases and 1,800 temporal cases (the papers' sizes).

Prints, as JSON: seconds to load the seed KB into Prolog, to generate the Drowzee QA cases (level-1
derivation included: nothing is materialized beforehand) and the temporal cases (events from the KB's
facts with years), the total, and the distribution over rules, operators, domains, answers and splits.
With --factchd N and --erbench N it also times those generators (FactCHD includes loading the
embedding model and near-duplicate removal, and prints how the pairs' labels are grounded: overall, per
pattern and per label; ERBench reads ../shared/data/peers/erbench/movie).

Run: .venv/bin/python bench/generate.py [--kb PATH] [--seed 0] [--factchd 800] [--erbench 400]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from drowzee_core.config import default_kb_path
from drowzee_core.generate.drowzee_qa import DrowzeeQAConfig, DrowzeeQAGenerator
from drowzee_core.generate.splits import SplitPlan
from drowzee_core.generate.temporal_qa import TemporalQAConfig, generate_temporal_records
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.events import events_from_kb
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.logic.temporal import kb_horizon
from drowzee_core.records.jsonl import counts

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    """Run and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kb", type=Path, default=default_kb_path())
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--qa", type=int, default=7200)
    ap.add_argument("--temporal", type=int, default=1800)
    ap.add_argument("--factchd", type=int, default=0)
    ap.add_argument("--erbench", type=int, default=0)
    ap.add_argument("--peers", type=Path, default=ROOT.parent / "shared" / "data" / "peers")
    args = ap.parse_args()
    t0 = time.perf_counter()
    store = KBStore(args.kb)
    reasoner = Reasoner(store)
    t_load = time.perf_counter()
    qa = [
        c.model_dump(mode="json")
        for c in DrowzeeQAGenerator(reasoner).generate(DrowzeeQAConfig(n=args.qa, seed=args.seed))
    ]
    t_qa = time.perf_counter()
    temporal_cases = generate_temporal_records(
        events_from_kb(store, kb_horizon()[1]),
        kb_horizon(),
        TemporalQAConfig(n=args.temporal, seed=args.seed),
        SplitPlan(),
    )
    temporal = [c.model_dump(mode="json") for c in temporal_cases]
    t_end = time.perf_counter()
    figures: dict[str, object] = {
        "drowzee_qa_cases": len(qa),
        "temporal_cases": len(temporal),
        "seconds": {
            "load_kb_into_prolog": round(t_load - t0, 2),
            "drowzee_qa": round(t_qa - t_load, 2),
            "temporal": round(t_end - t_qa, 2),
            "total": round(t_end - t0, 2),
        },
        "drowzee_qa": counts(qa, ("rule", "rule_detail", "domain", "answer", "form", "split")),
        "temporal": counts(temporal, ("rule", "depth", "domain", "answer", "split")),
    }
    if args.factchd:
        from drowzee_core.generate.dedupe import deduper
        from drowzee_core.generate.factchd import FactCHDConfig, FactCHDGenerator, grounding_shares, to_rows
        from drowzee_core.llm.embeddings import embedder

        t1 = time.perf_counter()
        embed = embedder()
        t2 = time.perf_counter()
        pairs = FactCHDGenerator.from_reasoner(reasoner).generate(
            FactCHDConfig(n=args.factchd, seed=args.seed), dedupe=deduper(embed.encode)
        )
        figures["factchd"] = {
            "cases": len(pairs),
            "seconds_model_load": round(t2 - t1, 2),
            "seconds_generate_and_dedupe": round(time.perf_counter() - t2, 2),
            **counts(to_rows(pairs), ("category", "label", "corruption", "grounding", "domain")),
            "grounding_shares": grounding_shares(pairs),
        }
    if args.erbench:
        from drowzee_core.generate.erbench import ERBenchConfig, ERBenchGenerator, load_schema

        t1 = time.perf_counter()
        gen = ERBenchGenerator(load_schema(ROOT / "docs" / "erbench" / "movie.toml"), args.peers / "erbench" / "movie")
        er = [c.model_dump(mode="json") for c in gen.generate(ERBenchConfig(n=args.erbench, seed=args.seed))]
        figures["erbench_movie"] = {
            "cases": len(er),
            "seconds": round(time.perf_counter() - t1, 2),
            **gen.summary(),
            **counts(er, ("question_type", "answer")),
        }
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
