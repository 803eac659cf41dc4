"""What a batch output holds so far: labels, decisions, degraded and error rows, and the labelled pairs' metrics."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agents.batch.rows import LABELS
from drowzee_core.oracles.decisions import decision_of


@dataclass(frozen=True, slots=True)
class Labelled:
    """One verdict of a row that carries a label: what was expected, what was said, and what decided it."""

    expected: str
    label: str
    degraded: bool
    decision: str


@dataclass
class Tally:
    """What the output holds so far: verdict labels, decisions, degraded and error rows, and the labelled verdicts.

    `decisions` counts each verdict's decision (`drowzee_core.oracles.decisions.decision_of`: a verdict
    written before verdicts recorded one is counted as `unknown (older verdict)`; error rows are not
    in it, they are `counts["error"]`).
    """

    counts: Counter[str] = field(default_factory=Counter)
    decisions: Counter[str] = field(default_factory=Counter)
    labelled: list[Labelled] = field(default_factory=list)

    def add(self, rec: Mapping[str, Any]) -> None:
        """Count one record."""
        verdict = rec.get("verdict")
        if verdict is None:
            self.counts["error"] += 1
            return
        self.counts[str(verdict["label"])] += 1
        degraded = bool(verdict.get("degraded"))
        self.counts["degraded"] += degraded
        decision = decision_of(verdict)
        self.decisions[decision] += 1
        if rec.get("expected") in LABELS:
            self.labelled.append(Labelled(str(rec["expected"]), str(verdict["label"]), degraded, decision))

    @property
    def rows(self) -> int:
        """Records counted (verdicts and errors)."""
        return sum(self.counts[k] for k in (*LABELS, "error"))

    def metrics(self) -> dict[str, Any] | None:
        """Label and per-decision figures with 95 % intervals beside the constant baselines, when 2+ rows have labels.

        One labelled row gives no interval (the summary refuses it), so the figures wait for a second.
        """
        if len(self.labelled) < 2:
            return None
        from drowzee_core.oracles.judged import JudgedVerdict
        from drowzee_core.oracles.verdicts import summarize

        judged = [
            JudgedVerdict(gold_label=r.expected, parsed_label=r.label, degraded=r.degraded, decision=r.decision)
            for r in self.labelled
        ]
        return {"rows": len(judged), **summarize(judged).overall.model_dump()}


__all__ = ["Labelled", "Tally"]
