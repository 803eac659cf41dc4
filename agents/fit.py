"""Fit the calibrated policy: run the sources on our generated dev pairs, regress the label on their signals.

Only our own generated dev split may be used (never a benchmark's test half): the command records
the file, its sha256 and the counts in the calibration it writes.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from agents.aggregate import FEATURES, Calibration, Signals
from agents.nodes.verdict_manager import kb_partial
from agents.verifier import Verifier
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.enums import Label
from drowzee_core.records.pair import QRPair
from drowzee_core.records.provenance import file_sha256
from drowzee_core.records.verdict import VerifyRequest

log = logging.getLogger(__name__)


def signals_of(verifier: Verifier, pair: QRPair, evidence: bool) -> Signals:
    """The sources' signals on one pair (the graph's state after a run)."""
    req = VerifyRequest(
        id=pair.id, query=pair.query, response=pair.response, evidence=pair.evidence if evidence else None
    )
    thread = f"fit:{pair.id}"
    verifier.verify(req, thread=thread)
    values = verifier.graph.get_state({"configurable": {"thread_id": thread}}).values
    return Signals.of(values.get("opinions", []), kb_partial(values.get("claims", []), values.get("kb_results", [])))


def fit_calibration(
    signals: Sequence[Signals], labels: Sequence[Label], source: dict[str, object], c: float = 1.0
) -> Calibration:
    """A logistic regression P(FACTUAL | signals); needs both labels present."""
    from sklearn.linear_model import LogisticRegression

    y = np.array([lb == Label.FACTUAL for lb in labels], dtype=int)
    if y.min() == y.max():
        raise DrowzeeError("the fit data holds one label only; generate dev pairs of both labels")
    x = np.array([s.vector() for s in signals], dtype=np.float64)
    model = LogisticRegression(C=c, max_iter=1000).fit(x, y)
    acc = float((model.predict(x) == y).mean())
    return Calibration(
        features=list(FEATURES),
        coef=[round(float(w), 6) for w in model.coef_[0]],
        intercept=round(float(model.intercept_[0]), 6),
        fitted_on=source | {"n": len(y), "factual": int(y.sum()), "in_sample_accuracy": round(acc, 4), "C": c},
    )


def fit_file(
    verifier: Verifier,
    pairs: Path,
    rows: Sequence[QRPair],
    evidence: bool,
    progress: Callable[[int], None] | None = None,
) -> Calibration:
    """Signals of every pair, then the fit; the calibration names the file it came from."""
    bad = [p.id for p in rows if p.split is not None and str(p.split) == "test"]
    if bad:
        raise DrowzeeError(f"{len(bad)} pairs are from the test split (e.g. {bad[0]}); fit on the dev split only")
    signals = []
    for i, pair in enumerate(rows, 1):
        signals.append(signals_of(verifier, pair, evidence))
        if progress:
            progress(i)
    source = {"file": pairs.name, "sha256": file_sha256(pairs), "evidence": evidence}
    return fit_calibration(signals, [p.label for p in rows], source)


__all__ = ["fit_calibration", "fit_file", "signals_of"]
