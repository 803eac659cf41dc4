"""What each kind of case means to the loop: its scorer, its oracle label and its ground-truth facts (pure).

- drowzee-qa and temporal (and Drowzee's recorded answers): the `drowzee` scorer; an answer is a
  hallucination when its class is not CO (`oracles/report.py`'s definition; "I don't know" is CO).
  The answer-level label (`answer_oracle`, the Drowzee authors' own) looks at the Yes / No alone: wrong
  when it differs from the gold answer; "I don't know" has none.
  Unparsed answers (no yes / no / unsure found) and answers whose reasoning could not be read into
  triples have no class: they get no oracle label and are counted apart, never as hallucinations.
- erbench: the `erbench` scorer; a hallucination is a yes / no answer that is wrong (ERBench's H;
  "unsure" is not one; unparsed answers get no label, as above).
- factchd: the pairs carry their own responses and labels; a NON-FACTUAL pair is the hallucination.
  The `factchd` scorer judges the verifier's verdict (label + explanation) against the gold reason.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Row = Mapping[str, Any]


def drowzee_oracle(judged: Row) -> bool | None:
    """Hallucination per the graph oracle: class != CO; None without a parsed answer or a class."""
    if judged.get("parsed_answer") is None or judged.get("class") is None:
        return None
    return str(judged["class"]) != "CO"


def drowzee_answer_oracle(judged: Row) -> bool | None:
    """Answer-level label (the Drowzee authors' definition): the Yes / No differs from the gold answer.

    None when no Yes / No was given (unparsed, or "I don't know"): such an answer is neither right nor wrong.
    """
    parsed = judged.get("parsed_answer")
    if parsed in (None, "unsure"):
        return None
    return not bool(judged.get("answer_correct"))


def erbench_oracle(judged: Row) -> bool | None:
    """Hallucination per ERBench: a committed yes / no answer that is wrong; None when unparsed."""
    parsed = judged.get("parsed_answer")
    if parsed is None:
        return None
    return parsed != "unsure" and not bool(judged.get("answer_correct"))


def factchd_oracle(judged: Row) -> bool | None:
    """Hallucination per the pair's gold label."""
    label = judged.get("label")
    return None if label not in ("FACTUAL", "NON-FACTUAL") else label == "NON-FACTUAL"


def ground_truth(case: Row) -> list[Any]:
    """The case's ground-truth facts: our `facts` (triples, or sentences for temporal), or Drowzee's `evidence`."""
    facts = case.get("facts")
    if facts is None:
        facts = case.get("evidence")
    return [list(f) if isinstance(f, list | tuple) else str(f) for f in facts or []]


def scorer_row(case: Row, verdict: Row | None) -> dict[str, Any]:
    """The row the kind's scorer reads: the answered case (factchd: the verdict as the prediction)."""
    return dict(case)


def factchd_scorer_row(case: Row, verdict: Row | None) -> dict[str, Any]:
    """A pair with the verifier's verdict as its prediction (`LABEL. explanation`), for the factchd scorer."""
    v = (verdict or {}).get("verdict") or {}
    said = f"{v.get('label', '')}. {v.get('explanation', '')}".strip(". ") if v else ""
    return dict(case) | {"output": said}


@dataclass(frozen=True, slots=True)
class KindSpec:
    """How the loop scores one kind of case."""

    scorer: str
    """Registered scorer (`SCORERS`) of the target's answers."""
    oracle: Callable[[Row], bool | None]
    """Hallucination or not, from a judged row; None when the oracle gives no label."""
    answer_oracle: Callable[[Row], bool | None]
    """The answer alone is wrong (no reasoning judged); None when it commits to no answer."""
    scorer_row: Callable[[Row, Row | None], dict[str, Any]]
    """The scorer's input row from an answered case and its verdict record."""
    explain: bool
    """Score the verdict's explanation against the case's facts with the graph oracle."""
    heatmaps: bool
    """The scorer's judged rows feed `oracles.report.write_report` (heatmaps per rule / domain)."""


KINDS: dict[str, KindSpec] = {
    "drowzee-qa": KindSpec("drowzee", drowzee_oracle, drowzee_answer_oracle, scorer_row, explain=True, heatmaps=True),
    "temporal": KindSpec("drowzee", drowzee_oracle, drowzee_answer_oracle, scorer_row, explain=True, heatmaps=True),
    "erbench": KindSpec("erbench", erbench_oracle, erbench_oracle, scorer_row, explain=False, heatmaps=False),
    "factchd": KindSpec("factchd", factchd_oracle, factchd_oracle, factchd_scorer_row, explain=False, heatmaps=False),
}

__all__ = [
    "KINDS",
    "KindSpec",
    "drowzee_answer_oracle",
    "drowzee_oracle",
    "erbench_oracle",
    "factchd_oracle",
    "factchd_scorer_row",
    "ground_truth",
    "scorer_row",
]
