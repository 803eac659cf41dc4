"""Fit the evidence reader's support rule on training pairs: `agents/reading/evidence/support_weights.json`.

A logistic regression over `agents.reading.evidence.support.FEATURES` (shares of a claim's words and units
found in the evidence, words missing), on a seeded sample of FEVER's claim / evidence pairs
(`../shared/data/train/fever/fever_rte_dev.jsonl`; SUPPORTED vs NOT_SUPPORTED). Training data only:
never the peers' sets. Pairs a conflict refutes, and those with a name or number missing, are left out:
the rule decides only the others.

Run: .venv/bin/python bench/evidence_fit.py [--limit 3000] [--seed 0]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

log = logging.getLogger("bench.evidence_fit")
TRAIN = Path(__file__).resolve().parents[2] / "shared" / "data" / "train" / "fever" / "fever_rte_dev.jsonl"
OUT = Path(__file__).resolve().parents[1] / "agents" / "reading" / "evidence" / "support_weights.json"


def main() -> None:
    """Read the sample, fit, report the training fit's balanced accuracy, write the weights."""
    import numpy as np
    from sklearn.linear_model import LogisticRegression

    from agents.reading.evidence import FEATURES, EvidenceDecision, build_reader
    from agents.verifier.evidence import normalize_evidence

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--limit", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("bm25s").setLevel(logging.WARNING)
    rows = [json.loads(line) for line in TRAIN.open()]
    rows = random.Random(args.seed).sample(rows, min(args.limit, len(rows)))
    reader = build_reader(None)  # features do not depend on the rule; the old weights may not fit
    x, y = [], []
    for n, r in enumerate(rows, 1):
        sentences = reader.sentences(normalize_evidence([r["evidence"]]).items)
        reading = reader.read("", r["claim"], sentences)
        if reading.decision != EvidenceDecision.REFUTED and reading.scores and reading.scores["hard_missing"] == 0:
            x.append([reading.scores[f] for f in FEATURES])
            y.append(r["label"] == "SUPPORTED")
        if n % 500 == 0:
            log.info("read %d of %d pairs", n, len(rows))
    model = LogisticRegression(C=1.0, max_iter=1000).fit(np.asarray(x), np.asarray(y))
    pred = model.predict(np.asarray(x))
    gold = np.asarray(y)
    bacc = float(np.mean([(pred[gold == c] == c).mean() for c in (True, False)]))
    payload = {
        "produced_by": "bench/evidence_fit.py",
        "data": f"{TRAIN.name}: {len(rows)} pairs, seed {args.seed}, {len(x)} with every name and number found",
        "features": list(FEATURES),
        "weights": [round(float(w), 6) for w in model.coef_[0]],
        "bias": round(float(model.intercept_[0]), 6),
        "training_bacc": round(bacc, 4),
    }
    OUT.write_text(json.dumps(payload, indent=1) + "\n")
    log.info("training balanced accuracy %.3f; wrote %s", bacc, OUT)


if __name__ == "__main__":
    main()
