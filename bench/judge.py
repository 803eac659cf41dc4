"""Grounded-judge figures: balanced accuracy with baselines and 95 % intervals on every evidence set, and speed.

Sets (all with evidence; the external ones are validation only, never trained or tuned on):
- `generated test`: our entity-disjoint test split (`drowzee generate judge --split test`);
- `FactCHD sample`: ../shared/data/peers/factchd/train_case_sample.jsonl (triples and text evidence);
- the dev halves of ../shared/data/peers/external/: StrategyQA rows with `meta.split_unofficial == "dev"`;
  WiCE and HaluEval-QA rows whose group key (WiCE: `id`; HaluEval: `meta.line`, so both answers of a
  question stay together) has an even sha256: `dev_half` below. The other halves stay untouched.
On HaluEval-QA also the length-matched pairs (responses within one word of each other).
Throughput: claim-evidence pairs (chunks) scored per second with `--threads` torch threads.
`--generative BASE[=ADAPTER]` adds model (b), the label-token scorer, on the generated dev split.

Run: .venv/bin/python bench/judge.py --adapter finetune/adapters/judge --test test.jsonl --dev dev.jsonl \
        [--threads 2] [--generative smollm2-135m=adapters/judge-smollm2] [--json-out figures.json]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

log = logging.getLogger("bench.judge")
PEERS = Path(__file__).resolve().parents[2] / "shared" / "data" / "peers"


def dev_half(key: str) -> bool:
    """Whether a group key falls in the dev half (even sha256)."""
    return int(hashlib.sha256(key.encode()).hexdigest(), 16) % 2 == 0


def external_sets(peers: Path) -> dict[str, list[dict[str, Any]]]:
    """The evidence-carrying peer sets, dev halves only."""
    from drowzee_core.oracles.inputs import read_rows

    ext = peers / "external"
    return {
        "FactCHD sample": read_rows(peers / "factchd" / "train_case_sample.jsonl"),
        "WiCE (dev half)": [r for r in read_rows(ext / "wice" / "wice.jsonl") if dev_half(str(r["id"]))],
        "StrategyQA (dev)": [
            r for r in read_rows(ext / "strategyqa" / "strategyqa.jsonl") if r["meta"]["split_unofficial"] == "dev"
        ],
        "HaluEval-QA (dev half)": [
            r for r in read_rows(ext / "halueval_qa" / "halueval_qa.jsonl") if dev_half(str(r["meta"]["line"]))
        ],
    }


def measure(judge: Any, rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Score `rows` with the local judge; its figures, pairs/s and the length-matched pairs."""
    from drowzee_core.llm.judge.chunk import score_inputs
    from finetune.judge.evaluate import length_matched, summarize, to_inputs

    inputs = to_inputs(rows)
    model, cal, flat = judge.model, judge.calibration, [0]
    model.logits(["warm-up [SEP] claim"], ["evidence"])  # load the weights before the clock starts

    def logit_fn(a: Any, b: Any) -> list[float]:
        flat[0] += len(a)
        return [float(x) for x in model.logits(a, b)]

    t0 = time.monotonic()
    scored = score_inputs(
        [(i.query, i.response, i.evidence) for i in inputs],
        logit_fn,
        model.token_count,
        model.max_length,
        split=model.split_claims,
        joiner=model.joiner,
    )
    seconds = time.monotonic() - t0
    p = [float(x) for x in cal.prob([s.logit for s in scored])]
    gold = [bool(i.gold) for i in inputs]
    res = summarize(gold, p, cal.threshold, [cal.decide(x) is not None for x in p])
    res |= {"pairs_scored": flat[0], "seconds": round(seconds, 1), "pairs_per_second": round(flat[0] / seconds, 1)}
    res["length_matched"] = length_matched(inputs, p, cal.threshold)
    return res


def generative(spec: str, dev: list[Any]) -> dict[str, Any]:
    """Model (b) on the generated dev split: balanced accuracy (threshold fitted there) and pairs/s."""
    from drowzee_core.llm.judge.calibrate import fit_calibration
    from finetune.judge.evaluate import summarize
    from finetune.judge.label_token import LabelTokenJudge, as_factchd_pair

    base, _, adapter = spec.partition("=")
    judge = LabelTokenJudge(base, Path(adapter) if adapter else None)
    pairs = [as_factchd_pair(ex) for ex in dev]
    t0 = time.monotonic()
    z = judge.logits(pairs)
    seconds = time.monotonic() - t0
    gold = [str(ex.label) == "SUPPORTED" for ex in dev]
    cal = fit_calibration(z, gold, 0.0)
    res = summarize(gold, cal.prob(z).tolist(), cal.threshold, [True] * len(z))
    return res | {"model": spec, "pairs_per_second": round(len(z) / seconds, 2), "seconds": round(seconds, 1)}


def line(name: str, r: dict[str, Any]) -> str:
    """One Markdown table row."""
    b = r["baselines"]
    ci = r["ci95"] or [float("nan")] * 2
    lm = r.get("length_matched", {})
    lm_txt = f"{lm['balanced_accuracy']:.3f} on {lm['matched_pairs']} pairs" if lm.get("matched_pairs") else "-"
    return (
        f"| {name} | {r['n']} | **{r['balanced_accuracy']:.3f}** [{ci[0]:.3f}, {ci[1]:.3f}] | {r['accuracy']:.3f} |"
        f" {b['always_supported']['accuracy']:.3f} / {b['always_not_supported']['accuracy']:.3f} |"
        f" {b['majority']['accuracy']:.3f} | {r['coverage']:.2f} | {lm_txt} | {r.get('pairs_per_second', '-')} |"
    )


def main() -> None:
    """Measure and print the tables (and the JSON with --json-out)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--adapter", type=Path, default=None, help="Judge adapter (default: the shipped one).")
    ap.add_argument("--test", type=Path, required=True, help="Generated test-split JudgeExamples.")
    ap.add_argument("--dev", type=Path, default=None, help="Generated dev split (for --generative).")
    ap.add_argument("--generative", action="append", default=[], help="Model (b): BASE[=ADAPTER].")
    ap.add_argument("--compare", action="append", type=Path, default=[], help="Another judge folder, on dev.")
    ap.add_argument("--peers", type=Path, default=PEERS)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json-out", type=Path, default=None)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    import torch

    from drowzee_core.llm.judge import LocalJudge
    from drowzee_core.oracles.inputs import read_rows
    from drowzee_core.records.judge import JudgeExample

    torch.set_num_threads(args.threads)
    judge = LocalJudge(args.adapter)
    sets = {"generated test": read_rows(args.test)} | external_sets(args.peers)
    figures: dict[str, Any] = {"adapter": str(judge.path), "threads": args.threads, "sets": {}}
    for name, rows in sets.items():
        log.info("judging %s (%d rows)", name, len(rows))
        figures["sets"][name] = measure(judge, rows)
    if args.generative or args.compare:
        if args.dev is None:
            raise SystemExit("--generative and --compare need --dev (the generated dev split)")
        dev = [JudgeExample.model_validate(r) for r in read_rows(args.dev)]
        rows = [ex.model_dump(mode="json") for ex in dev]
        figures["compare_dev"] = {f"{judge.kind} (shipped)": measure(judge, rows)}
        for other in map(LocalJudge, args.compare):
            figures["compare_dev"][f"{other.kind} ({other.path.name})"] = measure(other, rows)
        figures["compare_dev"] |= {s: generative(s, dev) for s in args.generative}
    print(
        "| set | n | balanced acc [95 % CI] | acc | always S / always NS acc | majority acc | coverage |"
        " length-matched bal. acc | pairs/s |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for name, r in figures["sets"].items():
        print(line(name, r))
    for name, r in figures.get("compare_dev", {}).items():
        print(line(f"dev: {name}", r))
    print(f"\ntraining ({judge.kind}): {json.dumps(judge.manifest.get('training', {}))}")
    if args.json_out:
        args.json_out.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
