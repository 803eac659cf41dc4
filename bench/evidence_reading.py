"""Evidence reading figures: the reader's decisions on evidence-carrying sets, beside baselines, with 95 % intervals.

Sets (evidence supplied; the peers' ones are validation only, never tuned on):
- `FEVER (train)`: ../shared/data/train/fever/fever_rte_dev.jsonl, a seeded sample (the support rule is
  fitted on another sample of it: `bench/evidence_fit.py`);
- `FactCHD sample`, StrategyQA's dev split, and the dev halves of WiCE and HaluEval-QA (`bench/judge.py`'s
  `dev_half`; `--half held` reads the other halves instead, once, at the end), HaluEval's length-matched pairs.

Per set: the verifier's three-way use of a reading (supported -> FACTUAL; refuted, or not enough info
naming what the evidence never mentions -> NON-FACTUAL; any other not enough info -> open): coverage
(the share decided), accuracy on the decided rows and the share of them FACTUAL, with bootstrap
intervals; the balanced accuracy of the two-way reading (supported -> FACTUAL, else NON-FACTUAL)
with a bootstrap interval, the constant baselines, the one-line coverage rule (NON-FACTUAL
when a share of the response's content words above a threshold is absent from the evidence and the
query; the threshold is the best one on the same rows, so the rule is an upper bound of itself), the
per-claim decision counts, pairs per minute and p95 seconds per pair.

`--pairs FILE` (repeatable) measures pair files too (`id, query, response, evidence, label`), e.g.
our own paraphrase and contradiction set, bench/data/own/paraphrase_v1.jsonl (by kind when rows have one).

Run: .venv/bin/python bench/evidence_reading.py [--limit 200] [--half dev|held] [--only NAME] [--pairs FILE]
        [--json-out figures.json]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.judge import dev_half

log = logging.getLogger("bench.evidence_reading")
SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
_WORD = re.compile(r"[A-Za-z0-9]{3,}")


def sets(half: str, limit: int | None, seed: int = 0) -> dict[str, list[dict[str, Any]]]:
    """The evidence-carrying sets (see the module doc)."""
    from drowzee_core.oracles.inputs import read_rows

    def keep(key: str) -> bool:
        return dev_half(key) == (half == "dev")

    ext = SHARED / "peers" / "external"
    fever = [
        {
            "id": r["id"],
            "query": "",
            "response": r["claim"],
            "evidence": [r["evidence"]],
            "label": "FACTUAL" if r["label"] == "SUPPORTED" else "NON-FACTUAL",
        }
        for r in (json.loads(line) for line in (SHARED / "train" / "fever" / "fever_rte_dev.jsonl").open())
    ]
    out = {
        "FEVER (train)": fever,
        "FactCHD sample": read_rows(SHARED / "peers" / "factchd" / "train_case_sample.jsonl"),
        f"WiCE ({half} half)": [r for r in read_rows(ext / "wice" / "wice.jsonl") if keep(str(r["id"]))],
        f"StrategyQA ({half})": [
            r
            for r in read_rows(ext / "strategyqa" / "strategyqa.jsonl")
            if (r["meta"]["split_unofficial"] == "dev") == (half == "dev")
        ],
        f"HaluEval-QA ({half} half)": [
            r for r in read_rows(ext / "halueval_qa" / "halueval_qa.jsonl") if keep(str(r["meta"]["line"]))
        ],
    }
    if limit:
        rng = random.Random(seed)
        out = {k: (rng.sample(v, limit) if len(v) > limit else v) for k, v in out.items()}
    return out


def evidence_texts(row: dict[str, Any]) -> list[str]:
    """A row's evidence as texts (triples verbalised, `[entity, sentence]` as its sentence)."""
    from agents.verifier.evidence import normalize_evidence

    return [e.text for e in normalize_evidence(row["evidence"]).items]


def coverage_rule_scores(rows: list[dict[str, Any]]) -> list[float]:
    """Share of each response's content words absent from its evidence and query (the one-line rule's score)."""
    from sklearn.feature_extraction.text import ENGLISH_STOP_WORDS

    out = []
    for r in rows:
        seen = {w.lower() for w in _WORD.findall(" ".join([r.get("query", ""), *evidence_texts(r)]))}
        words = [w.lower() for w in _WORD.findall(r["response"]) if w.lower() not in ENGLISH_STOP_WORDS]
        out.append(sum(w not in seen for w in words) / len(words) if words else 0.0)
    return out


def bacc(gold: list[bool], pred: list[bool]) -> float:
    """Balanced accuracy (the mean of the two classes' recalls; a class absent counts as its other's)."""
    g, p = np.asarray(gold), np.asarray(pred)
    recalls = [float((p[g == c] == c).mean()) for c in (True, False) if (g == c).any()]
    return float(np.mean(recalls))


def interval(gold: list[bool], pred: list[bool], n: int = 1000, seed: int = 0) -> tuple[float, float]:
    """95 % bootstrap interval of the balanced accuracy."""
    rng = np.random.default_rng(seed)
    idx = np.arange(len(gold))
    vals = []
    for _ in range(n):
        s = rng.choice(idx, len(idx))
        vals.append(bacc([gold[i] for i in s], [pred[i] for i in s]))
    return float(np.percentile(vals, 2.5)), float(np.percentile(vals, 97.5))


def three_way(reading: Any, unanswered: str | None) -> str:
    """How the verifier uses one reading: `FACTUAL`, `NON-FACTUAL`, or `open` (`agents.verifier.decision`)."""
    if reading.decision.value == "refuted" or unanswered is not None or reading.absent:
        return "NON-FACTUAL"
    return "FACTUAL" if reading.decision.value == "supported" else "open"


def decided_figures(gold: list[bool], calls: list[str], n: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Coverage and decided accuracy of three-way calls, with 95 % bootstrap intervals (rows resampled)."""
    decided = [i for i, c in enumerate(calls) if c != "open"]
    right = np.array([calls[i] == ("FACTUAL" if gold[i] else "NON-FACTUAL") for i in decided], dtype=float)
    rng = np.random.default_rng(seed)
    cov, acc = [], []
    is_decided = np.array([c != "open" for c in calls], dtype=float)
    ok = np.array([c == ("FACTUAL" if g else "NON-FACTUAL") for c, g in zip(calls, gold, strict=True)], dtype=float)
    for _ in range(n):
        s = rng.integers(0, len(calls), len(calls))
        cov.append(is_decided[s].mean())
        if is_decided[s].sum():
            acc.append(ok[s].sum() / is_decided[s].sum())
    return {
        "calls": dict(Counter(calls)),
        "coverage": len(decided) / len(calls) if calls else 0.0,
        "coverage_95": [float(np.percentile(cov, 2.5)), float(np.percentile(cov, 97.5))] if calls else None,
        "decided_accuracy": float(right.mean()) if decided else None,
        "decided_accuracy_95": [float(np.percentile(acc, 2.5)), float(np.percentile(acc, 97.5))] if acc else None,
        "decided_factual_share": (sum(gold[i] for i in decided) / len(decided)) if decided else None,
    }


def measure(name: str, rows: list[dict[str, Any]], reader: Any) -> dict[str, Any]:
    """The reader's figures on one set."""
    from agents.verifier.evidence import normalize_evidence

    gold = [r["label"] == "FACTUAL" for r in rows]
    pred: list[bool] = []
    decisions: Counter[str] = Counter()
    seconds: list[float] = []
    calls: list[str] = []
    readings: list[dict[str, Any]] = []
    for r in rows:
        t0 = time.monotonic()
        sentences = reader.sentences(normalize_evidence(r["evidence"]).items)
        reading = reader.read(r.get("query", ""), r["response"], sentences)
        unanswered = reader.unanswered(r.get("query", ""), r["response"])  # as the verifier: not supported
        seconds.append(time.monotonic() - t0)
        decisions[reading.decision.value] += 1
        pred.append(reading.decision.value == "supported" and unanswered is None)
        calls.append(three_way(reading, unanswered))
        readings.append(
            {
                "id": r["id"],
                "gold": r["label"],
                "decision": reading.decision.value,
                "reason": reading.reason,
                "missing": list(reading.missing),
                "absent": list(reading.absent),
                "call": calls[-1],
                "kind": r.get("kind"),
                "unanswered": unanswered,
                "coverage": reading.coverage,
                "scores": reading.scores,
            }
        )
    rule = coverage_rule_scores(rows)
    best = max((bacc(gold, [s <= t for s in rule]), t) for t in sorted(set(rule)))
    lengths = [len(r["response"].split()) for r in rows]
    out: dict[str, Any] = {
        "set": name,
        "n": len(rows),
        "factual_share": sum(gold) / len(gold),
        "bacc": bacc(gold, pred),
        "interval": interval(gold, pred),
        "accuracy": float(np.mean([g == p for g, p in zip(gold, pred, strict=True)])),
        "always_factual_acc": sum(gold) / len(gold),
        "constant_bacc": 0.5,
        "coverage_rule_bacc": best[0],
        "coverage_rule_threshold": best[1],
        "decisions": dict(decisions),
        "decided": decided_figures(gold, calls),
        "pairs_per_minute": 60 * len(rows) / sum(seconds),
        "p95_seconds": float(np.percentile(seconds, 95)),
        "median_words": float(np.median(lengths)),
    }
    if name.startswith("HaluEval"):
        by_line: dict[str, list[int]] = {}
        for i, r in enumerate(rows):
            by_line.setdefault(str(r["meta"]["line"]), []).append(i)
        matched = [
            i for ids in by_line.values() if len(ids) == 2 and abs(lengths[ids[0]] - lengths[ids[1]]) <= 1 for i in ids
        ]
        if matched:
            out["length_matched"] = {
                "n": len(matched),
                "bacc": bacc([gold[i] for i in matched], [pred[i] for i in matched]),
            }
    kinds = sorted({str(r["kind"]) for r in rows if r.get("kind")})
    if kinds:
        out["by_kind"] = {
            k: dict(Counter(c for c, r in zip(calls, rows, strict=True) if r.get("kind") == k)) for k in kinds
        }
    out["readings"] = readings
    return out


def write_pairs(folder: Path, named: dict[str, list[dict[str, Any]]]) -> None:
    """Each set as a JSONL file of pairs (`id, query, response, evidence, label, source`)."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, rows in named.items():
        slug = re.sub(r"[^a-z0-9]+", "_", name.lower()).strip("_")
        path = folder / f"{slug}.jsonl"
        with path.open("w", encoding="utf-8") as f:
            for r in rows:
                keep = {k: r.get(k, "") for k in ("id", "query", "response", "evidence", "label")}
                f.write(json.dumps(keep | {"id": str(keep["id"]), "source": name}) + "\n")
        print(f"{path}: {len(rows)} pairs")


def main() -> None:
    """Measure and print a table (and write JSON with every reading)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=None)
    ap.add_argument("--half", choices=("dev", "held"), default="dev")
    ap.add_argument("--only", default=None, help="measure only sets whose name starts with this")
    ap.add_argument("--json-out", type=Path, default=None)
    ap.add_argument("--pairs", type=Path, action="append", default=[], help="also measure this pair file")
    ap.add_argument("--no-sets", action="store_true", help="measure only the --pairs files")
    ap.add_argument(
        "--write-pairs",
        type=Path,
        default=None,
        help="write each set as pairs (DIR/<set>.jsonl) for bench/verifier.py --pairs F --evidence; no reading",
    )
    args = ap.parse_args()
    logging.basicConfig(level=logging.WARNING)
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    if args.write_pairs:
        write_pairs(args.write_pairs, sets(args.half, args.limit))
        return
    from agents.reading.evidence import default_reader

    reader = default_reader()
    results = []
    named = {} if args.no_sets else sets(args.half, args.limit)
    named |= {f"{path.name}": [json.loads(x) for x in path.open(encoding="utf-8") if x.strip()] for path in args.pairs}
    for name, rows in named.items():
        if args.only and not name.startswith(args.only):
            continue
        res = measure(name, rows, reader)
        d = res["decided"]
        acc95 = d["decided_accuracy_95"] or [float("nan")] * 2
        results.append(res)
        lm = res.get("length_matched")
        print(
            f"{name}: n={res['n']} BAcc {res['bacc']:.3f} [{res['interval'][0]:.3f}, {res['interval'][1]:.3f}] "
            f"acc {res['accuracy']:.3f} (always-FACTUAL {res['always_factual_acc']:.3f}) "
            f"coverage rule {res['coverage_rule_bacc']:.3f} "
            f"decisions {res['decisions']} {res['pairs_per_minute']:.0f} pairs/min p95 {res['p95_seconds']:.2f}s"
            + (f" length-matched {lm['bacc']:.3f} on {lm['n']}" if lm else ""),
            flush=True,
        )
        print(
            f"  three-way: coverage {d['coverage']:.3f} [{d['coverage_95'][0]:.3f}, {d['coverage_95'][1]:.3f}] "
            f"decided acc {d['decided_accuracy'] or float('nan'):.3f} [{acc95[0]:.3f}, {acc95[1]:.3f}] "
            f"(FACTUAL share of decided {d['decided_factual_share'] or float('nan'):.3f}) calls {d['calls']}"
            + (f" by kind {res['by_kind']}" if "by_kind" in res else ""),
            flush=True,
        )
    if args.json_out:
        payload = {"produced_by": "bench/evidence_reading.py", "half": args.half, "results": results}
        args.json_out.write_text(json.dumps(payload, indent=1))


if __name__ == "__main__":
    main()
