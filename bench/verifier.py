"""Verifier figures: quality with baselines and 95 % intervals, an ablation of the sources, seconds per node.

Sets:
- `--pairs FILE`: our generated pairs (e.g. `drowzee generate factchd --split test`), no evidence unless
  `--evidence`; grouped by pattern and grounding;
- `--factchd`: ../shared/data/peers/factchd/train_case_sample.jsonl with its evidence supplied;
- `--drowzee-responses`: ../shared/data/peers/drowzee_responses/<model>/history.json, each question's
  `evidence` triples supplied; an answer is NON-FACTUAL when its Yes/No differs from the gold answer.

The ablation runs every source once per pair and applies the Manager's arithmetic (decision, then the
lean for undecided pairs; `agents.verifier.calibrate.outcome`) to subsets of what they said (KB check, Seeker,
Guardian alone, in pairs, all three): a source left out counts as absent.

Run: .venv/bin/python bench/verifier.py --pairs test.jsonl [--limit 200] [--policy calibrated]
        [--no-guardian] [--json-out figures.json] [--verdicts-out verdicts.jsonl]
"""

from __future__ import annotations

import argparse
import itertools
import json
import logging
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

log = logging.getLogger("bench.verifier")
PEERS = Path(__file__).resolve().parents[2] / "shared" / "data" / "peers"
SOURCES = ("kb_check", "seeker", "guardian")


def drowzee_pairs(limit: int | None, seed: int = 0) -> list[dict[str, Any]]:
    """Query-Response pairs from three LLMs' answers to Drowzee's history questions.

    With `limit`, a seeded random sample of `limit` rows per model (the files are ordered by
    reasoning type, so their first rows are not representative).
    """
    from drowzee_core.records.answer_text import gold_label, parse_answer
    from drowzee_core.records.peer_answers import drowzee_history

    out = []
    for model_dir in sorted((PEERS / "drowzee_responses").iterdir()):
        for row in drowzee_history(model_dir / "history.json", limit, seed):
            said, gold = parse_answer(row["llm_answer"]).label, gold_label(row["answer"])
            out.append(
                {
                    "id": row["id"],
                    "query": row["question"],
                    "response": row["llm_answer"].strip()[:4000],
                    "evidence": row["evidence"],
                    "label": "FACTUAL" if said is not None and said == gold else "NON-FACTUAL",
                    "source": row["model"],
                    "pattern": row["reasoning"],
                }
            )
    return out


def run(pairs: list[dict[str, Any]], evidence: bool, settings: dict[str, Any]) -> list[dict[str, Any]]:
    """Verdicts and per-source signals of every pair."""
    from agents.verifier.fit import run_of_state
    from agents.verifier.runner import Verifier
    from agents.verifier.settings import VerifierSettings
    from drowzee_core.records.pair import QRPair
    from drowzee_core.records.verdict import VerifyRequest

    out = []
    with Verifier(VerifierSettings.load(settings)) as verifier:
        for i, p in enumerate(pairs, 1):
            req = VerifyRequest(
                id=p["id"], query=p["query"], response=p["response"], evidence=p["evidence"] if evidence else None
            )
            started = time.perf_counter()
            thread = f"bench:{i}:{p['id']}"
            verdict = verifier.verify(req, thread=thread)
            seconds = time.perf_counter() - started
            values = verifier.graph.get_state({"configurable": {"thread_id": thread}}).values
            pair = QRPair.model_validate({"id": p["id"], "label": p["label"], "query": p["query"], "response": "-"})
            out.append({"pair": p, "verdict": verdict, "seconds": seconds, "run": run_of_state(pair, values, seconds)})
            if i % 10 == 0:
                log.info("%d/%d pairs, last %.2f s", i, len(pairs), seconds)
    return out


def without(run: Any, left_out: set[str]) -> Any:
    """A run as if the sources in `left_out` had said nothing (the Manager's arithmetic then applies as usual)."""
    from drowzee_core.records.enums import ProofStatus

    update: dict[str, Any] = {}
    claims = list(run.claims)
    if "kb_check" in left_out:
        update |= {"kb_label": None, "kb_explanation": "", "kb_partial": 0.0, "answers": None}
        claims = [c.model_copy(update={"status": ProofStatus.UNKNOWN}) for c in claims]
    if "seeker" in left_out:
        update |= {"seeker_p": None, "seeker_label": None}
        claims = [c.model_copy(update={"p_supported": None, "judged_ids": []}) for c in claims]
    if "guardian" in left_out:
        update |= {"guardian_label": None, "guardian_p": None}
    return run.model_copy(update=update | {"claims": claims})


def ablation(results: list[dict[str, Any]], policy: str) -> list[dict[str, Any]]:
    """The Manager's verdict (decision and label) with every non-empty subset of the sources."""
    from agents.verifier.calibrate import outcome
    from agents.verifier.nodes.verdict_manager import shipped_calibration
    from drowzee_core.oracles.stats import codes, figures

    cal = shipped_calibration()
    gold = codes([{"gold_label": r["pair"]["label"]} for r in results], "gold_label")
    table = []
    for k in range(1, len(SOURCES) + 1):
        for subset in itertools.combinations(SOURCES, k):
            outs = [outcome(without(r["run"], set(SOURCES) - set(subset)), cal) for r in results]
            preds = [{"parsed_label": str(o.label)} for o in outs]
            fig = figures("+".join(subset), codes(preds, "parsed_label"), gold, None)
            decided = [o for o in outs if str(o.decision) != "undecided"]
            table.append(
                {
                    "sources": "+".join(subset),
                    "factcls": fig.factcls.show(),
                    "acc": fig.acc.show(),
                    "coverage": round(len(decided) / len(outs), 3),
                    "acc_decided": round(sum(o.correct for o in decided) / len(decided), 3) if decided else None,
                }
            )
    return table


def audit(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Drowzee answers per model: all rows, rows with their evidence triples, rows that lost them."""
    from drowzee_core.oracles.stats import codes, figures, majority

    table = []
    for model in sorted({r["pair"]["source"] for r in results}):
        mine = [r for r in results if r["pair"]["source"] == model]
        subsets = {
            "all": mine,
            "with evidence triples": [r for r in mine if r["pair"]["evidence"]],
            "without evidence triples": [r for r in mine if not r["pair"]["evidence"]],
        }
        for name, rows in subsets.items():
            if len(rows) < 2:
                continue
            gold = codes([r["pair"] for r in rows], "label")
            pred = codes([{"label": str(r["verdict"].label)} for r in rows], "label")
            fig = figures(name, pred, gold, None)
            table.append(
                {
                    "model": model,
                    "rows": name,
                    "n": len(rows),
                    "acc": fig.acc.show(),
                    "majority_acc": round(float((gold == majority(gold)).mean()), 3),
                }
            )
    return table


def timings(results: list[dict[str, Any]]) -> dict[str, Any]:
    """Seconds per pair (mean, median, 95th percentile), and the mean per node."""
    per: dict[str, list[float]] = defaultdict(list)
    for r in results:
        for node, s in r["verdict"].provenance.timings.items():
            per[node].append(s)
    n = len(results)
    return {
        "pairs": n,
        "seconds_per_pair": round(sum(r["seconds"] for r in results) / n, 3),
        "median_seconds": round(float(np.median([r["seconds"] for r in results])), 3),
        "p95_seconds": round(float(np.percentile([r["seconds"] for r in results], 95)), 3),
        "pairs_per_minute": round(60 * n / sum(r["seconds"] for r in results), 1),
        "per_node": {k: round(sum(v) / n, 3) for k, v in sorted(per.items())},
    }


def main() -> None:
    """Parse options, run, print figures."""
    from drowzee_core.oracles.verdicts import score_verdicts

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--pairs", type=Path)
    src.add_argument("--factchd", action="store_true")
    src.add_argument("--drowzee-responses", action="store_true")
    ap.add_argument("--evidence", action="store_true", help="Supply each pair's evidence (always for peer sets).")
    ap.add_argument("--limit", type=int, help="First N pairs (drowzee responses: a seeded sample of N per model).")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--policy", default="calibrated")
    ap.add_argument("--no-guardian", action="store_true")
    ap.add_argument("--no-seeker", action="store_true")
    ap.add_argument("--no-learned-reader", action="store_true", help="Rules only (the relation model's ablation).")
    ap.add_argument("--json-out", type=Path)
    ap.add_argument("--verdicts-out", type=Path)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")

    if args.pairs:
        pairs = [json.loads(x) for x in args.pairs.read_text("utf-8").splitlines() if x.strip()][: args.limit]
        evidence = args.evidence
    elif args.factchd:
        path = PEERS / "factchd" / "train_case_sample.jsonl"
        pairs = [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()][: args.limit]
        pairs = [p | {"id": str(p["id"])} for p in pairs]
        evidence = True
    else:
        pairs, evidence = drowzee_pairs(args.limit, args.seed), True
    settings = {"policy": args.policy, "manager": "aggregate"}
    if args.no_guardian:
        settings["use_guardian"] = False
    if args.no_seeker:
        settings["use_seeker"] = False
    if args.no_learned_reader:
        settings["learned_reader"] = False
    results = run(pairs, evidence, settings)
    rows = [r["pair"] for r in results] + [
        {"id": r["pair"]["id"], "verdict": r["verdict"].model_dump(mode="json")} for r in results
    ]
    _judged, summary = score_verdicts(rows)
    report = {
        "set": str(args.pairs or ("factchd sample" if args.factchd else "drowzee_responses")),
        "evidence": evidence,
        "policy": args.policy,
        "summary": summary.model_dump(),
        "ablation": ablation(results, args.policy),
        "audit": audit(results) if args.drowzee_responses else [],
        "timing": timings(results),
    }
    if args.verdicts_out:
        with args.verdicts_out.open("w", encoding="utf-8") as f:
            for r in results:
                f.write(json.dumps({"id": r["pair"]["id"], "verdict": r["verdict"].model_dump(mode="json")}) + "\n")
    if args.json_out:
        args.json_out.write_text(json.dumps(report, indent=1), "utf-8")
    ov = summary.overall.verifier
    print(f"overall: FactCls {ov.factcls.model_dump()}  acc {ov.acc.model_dump()}")
    print(json.dumps({k: v for k, v in report.items() if k != "summary"}, indent=1))


if __name__ == "__main__":
    main()
