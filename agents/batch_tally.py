"""What a batch output holds so far: verdict labels, degraded and error rows, and the labelled pairs' metrics."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from agents.batch_rows import LABELS


@dataclass
class Tally:
    """What the output holds so far: verdict labels, degraded and error rows, and (expected, label) pairs."""

    counts: Counter[str] = field(default_factory=Counter)
    labelled: list[tuple[str, str, bool]] = field(default_factory=list)

    def add(self, rec: Mapping[str, Any]) -> None:
        """Count one record."""
        verdict = rec.get("verdict")
        if verdict is None:
            self.counts["error"] += 1
            return
        self.counts[str(verdict["label"])] += 1
        degraded = bool(verdict.get("degraded"))
        self.counts["degraded"] += degraded
        if rec.get("expected") in LABELS:
            self.labelled.append((str(rec["expected"]), str(verdict["label"]), degraded))

    @property
    def rows(self) -> int:
        """Records counted (verdicts and errors)."""
        return sum(self.counts[k] for k in (*LABELS, "error"))

    def metrics(self) -> dict[str, Any] | None:
        """FactCls, accuracy and macro-F1 with 95 % intervals and the constant baselines, when 2+ rows have labels.

        One labelled row gives no interval (the summary refuses it), so the figures wait for a second.
        """
        if len(self.labelled) < 2:
            return None
        from drowzee_core.oracles.verdicts import summarize

        judged = [
            {"gold_label": g, "parsed_label": p, "exp_match": None, "degraded": d, "error": None}
            for g, p, d in self.labelled
        ]
        return {"rows": len(judged), **summarize(judged)["overall"]}


__all__ = ["Tally"]
