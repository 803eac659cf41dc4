"""Rules alone, the model alone, both: the evidence ablation of issue 57, from saved verdicts.

Reads pair files (`id, label, ...`) and the verdicts `bench/verifier.py --verdicts-out` wrote for them,
and scores four ways of calling each pair:

- `rules`: the verifier's decision where proofs and the evidence reader made it; `undecided`, and a
  decision the grounded judge made (a claim supported above its trusted threshold, or rejected
  below its trusted rejection threshold), are open (no call);
- `rules, open as unsupported`: the same, but an open pair with evidence counts as NON-FACTUAL, the
  policy before issue 57 (a failure to align called a finding);
- `model`: the grounded judge's label alone (the Seeker's opinion: P(supported) at its threshold);
- `rules, then the model`: the rules' call where they decide, else the judge's label;
- `verifier`: the verifier's decision as shipped (rules, then the judge where it is trusted), with
  `undecided` open.

Per way: coverage (the share called), accuracy on the called pairs, accuracy over all pairs with an
open pair counted wrong, each with a 95 % bootstrap interval; the constants (always FACTUAL, always
NON-FACTUAL) and the per-decision counts by gold label. Nothing is fitted here.

Run: .venv/bin/python bench/evidence_ablation.py PAIRS.jsonl VERDICTS.jsonl [PAIRS2 VERDICTS2 ...] [--json-out F]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from agents.verifier.decision import JUDGE_REJECTS

FACTUAL, NON_FACTUAL, OPEN = "FACTUAL", "NON-FACTUAL", "open"
WAYS = ("rules", "rules, open as unsupported", "model", "rules, then the model", "verifier")


def _model_label(verdict: dict[str, Any]) -> str:
    """The judge's label (the Seeker's opinion), or open when it gave none."""
    said = [o for o in verdict.get("opinions", []) if o.get("source") == "seeker" and o.get("label")]
    return str(said[0]["label"]) if said else OPEN


def by_judge(verdict: dict[str, Any]) -> bool:
    """Whether the grounded judge made the verdict's decision (supported by it, or rejected by it)."""
    claims = verdict.get("claims", [])
    if verdict["decision"] == "supported":
        return any(c.get("decided_by") == "judge" for c in claims)
    return verdict["decision"] == "unsupported" and JUDGE_REJECTS in str(verdict.get("explanation", "")).lower()


def calls(verdict: dict[str, Any]) -> dict[str, str]:
    """Each way's call for one verdict."""
    shipped = str(verdict["label"]) if verdict["decision"] != "undecided" else OPEN
    decided = verdict["decision"] != "undecided" and not by_judge(verdict)
    rules = str(verdict["label"]) if decided else OPEN
    model = _model_label(verdict)
    return {
        "rules": rules,
        "rules, open as unsupported": rules if decided else NON_FACTUAL,
        "model": model,
        "rules, then the model": rules if decided else model,
        "verifier": shipped,
    }


def _bounds(values: list[float]) -> list[float]:
    return [round(float(np.percentile(values, 2.5)), 3), round(float(np.percentile(values, 97.5)), 3)]


def figures(gold: list[str], called: list[str], n: int = 1000, seed: int = 0) -> dict[str, Any]:
    """Coverage, decided accuracy and accuracy (open counted wrong), with 95 % bootstrap intervals."""
    made = np.array([c != OPEN for c in called])
    right = np.array([c == g for c, g in zip(called, gold, strict=True)])
    rng = np.random.default_rng(seed)
    cov, dec, acc = [], [], []
    for _ in range(n):
        s = rng.integers(0, len(gold), len(gold))
        cov.append(made[s].mean())
        acc.append(right[s].mean())
        if made[s].any():
            dec.append(right[s].sum() / made[s].sum())
    return {
        "coverage": round(float(made.mean()), 3),
        "coverage_95": _bounds(cov),
        "decided_accuracy": round(float(right.sum() / made.sum()), 3) if made.any() else None,
        "decided_accuracy_95": _bounds(dec) if dec else None,
        "accuracy": round(float(right.mean()), 3),
        "accuracy_95": _bounds(acc),
    }


def ablation(pairs: list[dict[str, Any]], verdicts: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The four ways on one set (pairs without a verdict are an error: the files do not belong together)."""
    missing = [str(p["id"]) for p in pairs if str(p["id"]) not in verdicts]
    if missing:
        raise SystemExit(f"{len(missing)} pairs have no verdict (e.g. {missing[0]}): pass the verdicts of this file")
    gold = [str(p["label"]) for p in pairs]
    per = [calls(verdicts[str(p["id"])]) for p in pairs]
    share = gold.count(FACTUAL) / len(gold)
    return {
        "n": len(gold),
        "constants": {"always FACTUAL": round(share, 3), "always NON-FACTUAL": round(1 - share, 3)},
        "decisions": dict(Counter(f"{verdicts[str(p['id'])]['decision']} / gold {p['label']}" for p in pairs)),
        "ways": {w: figures(gold, [c[w] for c in per]) for w in WAYS},
    }


def main() -> None:
    """Print the table per set and write JSON."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", type=Path, nargs="+", help="PAIRS VERDICTS [PAIRS VERDICTS ...]")
    ap.add_argument("--json-out", type=Path)
    args = ap.parse_args()
    if len(args.files) % 2:
        raise SystemExit("give the files in pairs: a pair file, then its verdicts file")
    out = {"produced_by": "bench/evidence_ablation.py " + " ".join(map(str, args.files)), "sets": {}}
    for pairs_file, verdicts_file in zip(args.files[::2], args.files[1::2], strict=True):
        pairs = [json.loads(x) for x in pairs_file.read_text("utf-8").splitlines() if x.strip()]
        rows = [json.loads(x) for x in verdicts_file.read_text("utf-8").splitlines() if x.strip()]
        res = ablation(pairs[: len(rows)], {str(r["id"]): r["verdict"] for r in rows})
        out["sets"][pairs_file.name] = res
        print(f"{pairs_file.name}: n={res['n']} constants {res['constants']}")
        for way, f in res["ways"].items():
            print(
                f"  {way:28s} coverage {f['coverage']:.3f} {f['coverage_95']}  decided acc "
                f"{f['decided_accuracy']} {f['decided_accuracy_95']}  acc {f['accuracy']:.3f} {f['accuracy_95']}"
            )
        print(f"  decisions: {res['decisions']}", flush=True)
    if args.json_out:
        args.json_out.write_text(json.dumps(out, indent=1), "utf-8")


if __name__ == "__main__":
    sys.exit(main())
