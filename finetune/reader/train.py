r"""Train the relation reader: a logistic regression over the bundled encoder's vectors of masked sentences.

Rows come from `finetune.reader.data` (declared forms of KB facts, and FEVER claims as `NONE`). Masked
texts are deduplicated per label; a `NONE` row whose vector is a near twin (cosine >= `TWIN`) of a
relation row is dropped, since it may well say that relation. The classifier's threshold is fitted on
out-of-fold predictions (5 folds): the least probability of "some relation" (1 - P(NONE)) at which
the rows it takes are relation rows at least `PRECISION` of the time, with `NONE` rows weighed as many
as the relation rows. Weights, classes, threshold and the recipe are saved as one `.npz` (a few hundred KB).

Run (CPU, about two minutes on 2 cores):
    python -m finetune.reader.data --out ~/.cache/drowzee/reader/rows.jsonl
    python -m finetune.reader.train --rows ~/.cache/drowzee/reader/rows.jsonl \
        --out agents/reading/candidates/relation_model.npz
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path
from typing import Any

import numpy as np

log = logging.getLogger("finetune.reader.train")
TWIN = 0.9
PRECISION = 0.95
C = 4.0


def _fit(x: Any, y: Any) -> Any:
    from sklearn.linear_model import LogisticRegression

    return LogisticRegression(C=C, max_iter=2000, class_weight="balanced").fit(x, y)


def threshold(probs: Any, y: Any, classes: list[str], none: str = "NONE") -> tuple[float, dict[str, float]]:
    """The least relation probability (1 - P(NONE)) whose reads are relation rows >= PRECISION of the time.

    Which relation a read is stays with the KB's types and the classes' order (`agents.reading.candidates.learned`);
    this threshold decides whether the sentence says a catalog relation at all. Out-of-fold figures.
    """
    relation = 1.0 - probs[:, classes.index(none)]
    positives = np.array([t != none for t in y])
    for tau in np.arange(0.30, 0.991, 0.01):
        taken = relation >= tau
        if taken.sum() == 0:
            break
        # NONE rows weighed as many as relation rows: the sentences the model sees name two mentions the
        # KB's types already fit to a relation, not FEVER's twenty claims of other relations to one of ours
        weight = np.where(positives, 1.0, positives.sum() / max((~positives).sum(), 1))
        precision = float(weight[taken & positives].sum() / weight[taken].sum())
        if precision >= PRECISION:
            recall = float((taken & positives).sum() / max(positives.sum(), 1))
            false_reads = float((taken & ~positives).sum() / max((~positives).sum(), 1))
            return float(tau), {"precision": precision, "recall": recall, "none_read_rate": false_reads}
    return 1.0, {"precision": 1.0, "recall": 0.0, "none_read_rate": 0.0}


def main() -> None:
    """Train, fit the threshold, save."""
    from sklearn.model_selection import StratifiedKFold

    from drowzee_core.llm.embeddings import embedder

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=Path, required=True)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rows = [json.loads(line) for line in args.rows.open(encoding="utf-8")]
    seen: dict[tuple[str, str], dict[str, str]] = {}
    for r in rows:
        seen.setdefault((r["text"], r["label"]), r)
    rows = list(seen.values())
    enc = embedder()
    x = enc.encode([r["text"] for r in rows])
    y = np.array([r["label"] for r in rows])
    pos = y != "NONE"
    twin = (x[~pos] @ x[pos].T).max(axis=1) >= TWIN
    keep = np.ones(len(rows), dtype=bool)
    keep[np.flatnonzero(~pos)[twin]] = False
    x, y = x[keep], y[keep]
    log.info(
        "%d rows (%d relation forms, %d NONE; %d NONE twins dropped)",
        len(y),
        (y != "NONE").sum(),
        (y == "NONE").sum(),
        int(twin.sum()),
    )
    classes = sorted(set(y))
    oof = np.zeros((len(y), len(classes)))
    for train, test in StratifiedKFold(n_splits=5, shuffle=True, random_state=0).split(x, y):
        model = _fit(x[train], y[train])
        cols = [classes.index(c) for c in model.classes_]
        oof[np.ix_(test, cols)] = model.predict_proba(x[test])
    tau, figures = threshold(oof, y, classes)
    model = _fit(x, y)
    log.info("threshold %.2f, out of fold: %s", tau, figures)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    recipe = {
        "produced_by": "finetune.reader.train",
        "rows": str(args.rows),
        "C": C,
        "twin": TWIN,
        "precision_goal": PRECISION,
        "out_of_fold": figures,
        "encoder": type(enc).__name__,
    }
    np.savez_compressed(
        args.out,
        weights=model.coef_.astype(np.float32),
        bias=model.intercept_.astype(np.float32),
        classes=np.array(list(model.classes_)),
        threshold=np.array(tau, dtype=np.float32),
        recipe=np.array(json.dumps(recipe)),
    )
    log.info("saved %s (%d bytes)", args.out, args.out.stat().st_size)


if __name__ == "__main__":
    main()
