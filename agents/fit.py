"""Fit the calibrated policy: run the sources on our generated dev pairs, regress the label on their signals.

Only our own generated dev split may be used (never a benchmark's test half): the command records
the file, its sha256 and the counts in the calibration it writes.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from agents.aggregate import FEATURES, Calibration, Signals
from agents.nodes.verdict_manager import signals_of_state
from agents.verifier import Verifier
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.enums import Label
from drowzee_core.records.pair import QRPair
from drowzee_core.records.provenance import file_sha256
from drowzee_core.records.verdict import VerifyRequest

log = logging.getLogger(__name__)

MIN_PER_LABEL = 10
"""Fewest undecided pairs of each label for the regression to be fitted on undecided pairs only."""


def signals_of(verifier: Verifier, pair: QRPair, evidence: bool) -> Signals:
    """The sources' signals on one pair (the graph's state after a run)."""
    req = VerifyRequest(
        id=pair.id, query=pair.query, response=pair.response, evidence=pair.evidence if evidence else None
    )
    thread = f"fit:{pair.id}:{'facts' if evidence else 'none'}:{uuid.uuid4().hex[:8]}"
    verifier.verify(req, thread=thread)
    values = verifier.graph.get_state({"configurable": {"thread_id": thread}}).values
    return signals_of_state(values)


def fit_calibration(
    signals: Sequence[Signals], labels: Sequence[Label], source: dict[str, object], c: float = 1.0
) -> Calibration:
    """A logistic regression P(FACTUAL | signals) over the pairs no proof decided; needs both labels.

    The calibrated policy lets a proof decide, so the regression only ever sees undecided pairs: it
    is fitted on those (all pairs when fewer than `MIN_PER_LABEL` of either label are undecided).
    """
    from sklearn.linear_model import LogisticRegression

    y_all = np.array([lb == Label.FACTUAL for lb in labels], dtype=int)
    open_ = np.array([s.kb is None for s in signals])
    subset = "undecided by a proof"
    if min(int(y_all[open_].sum()), int((1 - y_all[open_]).sum())) < MIN_PER_LABEL:
        open_[:] = True
        subset = "all (too few undecided pairs of a label)"
    y = y_all[open_]
    if y.min() == y.max():
        raise DrowzeeError("the fit data holds one label only; generate dev pairs of both labels")
    x = np.array([s.vector() for s, keep in zip(signals, open_, strict=True) if keep], dtype=np.float64)
    model = LogisticRegression(C=c, max_iter=1000).fit(x, y)
    acc = float((model.predict(x) == y).mean())
    return Calibration(
        features=list(FEATURES),
        coef=[round(float(w), 6) for w in model.coef_[0]],
        intercept=round(float(model.intercept_[0]), 6),
        fitted_on=source
        | {
            "pairs": len(y_all),
            "fitted_rows": subset,
            "n": len(y),
            "factual": int(y.sum()),
            "in_sample_accuracy": round(acc, 4),
            "C": c,
        },
    )


def fit_file(
    verifier: Verifier,
    pairs: Path,
    rows: Sequence[QRPair],
    evidence: str,
    progress: Callable[[int], None] | None = None,
) -> Calibration:
    """Signals of every pair, then the fit; the calibration names the file it came from.

    `evidence`: `none` (pairs without evidence), `facts` (with their evidence) or `both` (each twice).
    """
    bad = [p.id for p in rows if p.split is not None and str(p.split) == "test"]
    if bad:
        raise DrowzeeError(f"{len(bad)} pairs are from the test split (e.g. {bad[0]}); fit on the dev split only")
    modes = {"none": (False,), "facts": (True,), "both": (False, True)}[evidence]
    signals, labels = [], []
    for supplied in modes:
        for pair in rows:
            signals.append(signals_of(verifier, pair, supplied))
            labels.append(pair.label)
            if progress:
                progress(len(signals))
    source: dict[str, object] = {"file": pairs.name, "sha256": file_sha256(pairs), "evidence": evidence}
    return fit_calibration(signals, labels, source)


__all__ = ["fit_calibration", "fit_file", "signals_of"]
