"""Per-decision figures of verdicts against gold labels, and the words every report uses for decisions (pure).

A verdict's `decision` says what decided its label (`supported` / `refuted` / `unsupported` /
`undecided`, see `drowzee_core.records.verdict.Decision`). `decision_figures` reports, on rows that
carry a gold label:

- the count of each decision;
- coverage: the share of rows decided (decision other than `undecided`);
- accuracy on the decided rows, on the undecided rows (whose label is the `--undecided` policy's) and
  on all rows, each beside the constant baselines (always FACTUAL, always NON-FACTUAL) on the same rows;

each with a 95 % percentile-bootstrap interval (`drowzee_core.oracles.stats.bootstrap_bounds`: paired rows,
2,000 resamples, fixed seed). One row gives a value without an interval; no row gives None.

Rows from result files written before verdicts had a `decision` are counted under
`"unknown (older verdict)"` and nothing is inferred from their label: they are left out of coverage
and of the decided / undecided figures, and stay in the all-rows accuracy. A row without a verdict
(an error record) is counted under `"error"` the same way, and is a wrong answer in the all-rows
accuracy (as in FactCls and the other label figures). Coverage is therefore over the rows whose
verdict records a decision.

`coverage_line`, `counts_line` and `decision_rows` (under `DECISION_COLUMNS`) word the figures for
`drowzee batch`, `drowzee score verdicts` and the service's Batch tab alike.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from drowzee_core.records.enums import Label
from drowzee_core.records.summaries import DecisionFigures, Interval, JudgedLabel
from drowzee_core.records.verdict import MAX_UNDECIDED_CONFIDENCE, DecidedBy, Decision

if TYPE_CHECKING:
    import numpy as np
    from numpy.typing import NDArray

    from drowzee_core.records.verdict import Verdict

OLDER = "unknown (older verdict)"
"""The decision bucket of a verdict written before verdicts recorded their decision."""
ERROR = "error"
"""The decision bucket of a row without a verdict (an error record)."""
DECIDED = (Decision.SUPPORTED, Decision.REFUTED, Decision.UNSUPPORTED)
"""Decisions that decide the label (everything but `undecided`)."""
SUBSETS = ("decided", "undecided", "all")
"""The row subsets whose accuracy is reported, in report order."""
WHO = ("verifier", "always_factual", "always_non_factual")
"""Whose accuracy each subset reports: the verifier's and the constant baselines'."""
WHO_NAMES = {"verifier": "verifier", "always_factual": "always FACTUAL", "always_non_factual": "always NON-FACTUAL"}
SUBSET_NAMES = {"decided": "decided rows", "undecided": "undecided rows", "all": "all rows"}

DECISION_WORDS = {
    Decision.SUPPORTED: "supported",
    Decision.REFUTED: "refuted: a claim is contradicted",
    Decision.UNSUPPORTED: "not supported by the supplied evidence",
    Decision.UNDECIDED: "not verified",
}
"""How reports word each decision (the UI banner, `drowzee verify`)."""
DECIDED_BY_WORDS = {
    DecidedBy.PROOF: "proved",
    DecidedBy.EVIDENCE: "evidence",
    DecidedBy.JUDGE: "judge",
    DecidedBy.MODEL: "model",
}
"""How reports word what decided a claim."""


# ---------------------------------------------------------------------------------------------- words
def decision_of(verdict: Mapping[str, Any] | None) -> str:
    """A verdict record's decision: its value, `OLDER` when it records none (or an unknown one), `ERROR` for None."""
    if verdict is None:
        return ERROR
    value = verdict.get("decision")
    return str(value) if value in set(Decision) else OLDER


def lean_of(verdict: Verdict) -> tuple[Label, float]:
    """An undecided verdict's lean and the lean's probability as reported (from `label` and `confidence`).

    The confidence is the probability of `label`; when the `--undecided` policy put another label than
    the lean, the lean's probability is its complement. Either way it is at most `MAX_UNDECIDED_CONFIDENCE`,
    as the verdict's own confidence is: a lean is not a finding.
    """
    lean = verdict.lean or verdict.label
    p = verdict.confidence if lean == verdict.label else 1.0 - verdict.confidence
    return lean, round(min(max(p, 0.0), MAX_UNDECIDED_CONFIDENCE), 2)


# ---------------------------------------------------------------------------------------------- figures
def _bit_means(packed: NDArray[Any], width: int, axis: int = -1) -> NDArray[np.float64]:
    """The mean of each of the `width` boolean columns packed as bits of `packed` (vectorized for the bootstrap)."""
    import numpy as np

    return np.stack([np.asarray(np.mean((packed >> i) & 1, axis=axis), dtype=np.float64) for i in range(width)])


def _intervals(columns: Sequence[Sequence[bool]]) -> list[Interval]:
    """The mean of each boolean column (all of one length) with its paired 95 % bootstrap interval.

    The columns are packed as the bits of one integer per row, so the bootstrap resamples rows once
    for all of them (pairing them, and a third of the work of resampling three arrays).
    """
    import numpy as np

    from drowzee_core.oracles.stats import bootstrap_bounds

    n, width = len(columns[0]), len(columns)
    if n == 0:
        return [{"value": None, "low": None, "high": None, "n": 0} for _ in columns]
    packed = sum(np.array(c, dtype=np.int8) << i for i, c in enumerate(columns))
    values = [round(float(np.mean(c)), 4) for c in columns]
    if n < 2:
        return [{"value": v, "low": None, "high": None, "n": n} for v in values]
    # NaN where every resample is equal: the interval is [v, v]
    low, high = bootstrap_bounds((np.asarray(packed, dtype=np.int8),), partial(_bit_means, width=width))
    return [
        {
            "value": v,
            "low": round(float(np.nan_to_num(lo, nan=v)), 4),
            "high": round(float(np.nan_to_num(hi, nan=v)), 4),
            "n": n,
        }
        for v, lo, hi in zip(values, low, high, strict=True)
    ]


def decision_figures(rows: Sequence[JudgedLabel]) -> DecisionFigures:
    """Counts per decision, coverage, and accuracy per subset beside the constant baselines (module docstring).

    Args:
        rows: Judged rows: the gold label (FACTUAL / NON-FACTUAL), the verdict's label (empty for an
            error row) and its decision (`decision_of` the verdict; None for an older verdict).

    Returns:
        The counts per decision, the coverage and the accuracy per subset and per "who" (the verifier
        and the constant baselines), each interval `{"value", "low", "high", "n"}`.

    """
    counts = {str(d): 0 for d in Decision}
    for r in rows:
        key = str(r.decision or OLDER)
        counts[key] = counts.get(key, 0) + 1
    known = [r for r in rows if r.decision in set(Decision)]
    (coverage,) = _intervals([[r.decision != Decision.UNDECIDED for r in known]])
    subsets = {
        "decided": [r for r in known if r.decision != Decision.UNDECIDED],
        "undecided": [r for r in known if r.decision == Decision.UNDECIDED],
        "all": list(rows),
    }
    accuracy: dict[str, dict[str, Interval]] = {}
    for name, subset in subsets.items():
        factual = [r.gold_label == Label.FACTUAL for r in subset]
        right = [r.parsed_label == r.gold_label for r in subset]
        non_factual = [r.gold_label == Label.NON_FACTUAL for r in subset]
        accuracy[name] = dict(zip(WHO, _intervals([right, factual, non_factual]), strict=True))
    return DecisionFigures(rows=len(rows), decisions=counts, coverage=coverage, accuracy=accuracy)


# ---------------------------------------------------------------------------------------------- tables
def show_interval(fig: Mapping[str, Any]) -> str:
    """`0.812 [0.700, 0.900]`; `0.812` without an interval; `-` without a value."""
    if fig.get("value") is None:
        return "-"
    if fig.get("low") is None or fig.get("high") is None:
        return f"{fig['value']:.3f}"
    return f"{fig['value']:.3f} [{fig['low']:.3f}, {fig['high']:.3f}]"


def counts_line(decisions: Mapping[str, int]) -> str:
    """`3 supported, 2 refuted, 0 unsupported, 5 undecided` (other buckets only when they hold rows)."""
    named = [str(d) for d in Decision]
    extra = [k for k, v in decisions.items() if k not in named and v]
    return ", ".join(f"{decisions.get(k, 0)} {k}" for k in (*named, *extra))


def coverage_line(figs: Mapping[str, Any]) -> str:
    """`coverage (share of rows decided): 0.600 [0.300, 0.900] of 10 rows with a decision`."""
    cov = figs["coverage"]
    return f"coverage (share of rows decided): {show_interval(cov)} of {cov['n']} rows with a decision"


DECISION_COLUMNS = ("accuracy on", "rows", *(WHO_NAMES[w] for w in WHO))
"""The header of `decision_rows`."""


def decision_rows(figs: Mapping[str, Any]) -> list[tuple[str, ...]]:
    """Accuracy per subset as table rows under `DECISION_COLUMNS`: subset, rows, the verifier, the baselines."""
    out = []
    for subset in SUBSETS:
        accs = figs["accuracy"][subset]
        out.append((SUBSET_NAMES[subset], str(accs["verifier"]["n"]), *(show_interval(accs[w]) for w in WHO)))
    return out


__all__ = [
    "DECIDED",
    "DECIDED_BY_WORDS",
    "DECISION_COLUMNS",
    "DECISION_WORDS",
    "ERROR",
    "OLDER",
    "counts_line",
    "coverage_line",
    "decision_figures",
    "decision_of",
    "decision_rows",
    "lean_of",
    "show_interval",
]
