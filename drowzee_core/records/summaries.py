"""Typed summaries of the scorers, as their files hold them.

A scorer judges each row (`drowzee_core.records.judged`) and summarises the judged rows into one of
these (Drowzee, ERBench, FactCHD); verdicts are judged into `JudgedLabel`s, whose per-decision
figures are a `DecisionFigures` (`drowzee_core.oracles.decisions`; the rest of a verdict summary,
which holds bootstrap figures, is `drowzee_core.oracles.judged`). Files and the API get their
`model_dump()`.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from drowzee_core.records.judged import HallucinationClass

Interval = dict[str, float | int | None]
"""`{"value", "low", "high", "n"}`: a share with its 95 % bootstrap interval (None where it has none)."""


class JudgedLabel(BaseModel):
    """One labelled answer as the decision figures read it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    gold_label: str = Field(description="FACTUAL / NON-FACTUAL, the pair's gold label.")
    parsed_label: str = Field(default="", description="The verdict's label; empty for an error row.")
    decision: str | None = Field(
        default=None, description="`decisions.decision_of` the verdict; None for an older verdict without one."
    )


class DecisionFigures(BaseModel):
    """Counts per decision, coverage, and accuracy per subset beside the constant baselines."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rows: int = Field(description="Rows counted.")
    decisions: dict[str, int] = Field(description="Rows per decision (and `older`, `error` where there are some).")
    coverage: Interval = Field(description="The share of rows with a decision that were decided.")
    accuracy: dict[str, dict[str, Interval]] = Field(
        description="Per subset (decided, undecided, all): the verifier's accuracy and the constant baselines'."
    )


class HallucinationFigures(BaseModel):
    """Drowzee's figures on one set of judged answers, over the parsed ones (`oracles.score.summarize_drowzee`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    n: int = Field(description="Answers.")
    parsed: int = Field(description="Answers that commit to yes / no / unsure.")
    unparsed: int = Field(description="Answers that commit to nothing (counted apart, never as hallucinations).")
    answer_accuracy: float = Field(description="Share of the parsed answers that are right (0 without any).")
    hallucination_rate: float = Field(description="Share of the classed answers not CO (0 without any).")
    hallucination_rate_ci95: list[float] | None = Field(
        description="The rate's 95 % Wilson interval [low, high]; None without a classed answer."
    )
    extraction_errors: int = Field(description="Parsed answers whose reasoning the extractor failed on (no class).")
    refused: int = Field(description="Parsed answers that say `unsure`.")
    classes: dict[HallucinationClass, int] = Field(description="Parsed answers per class CO / OL / EI / EK.")

    @property
    def classed(self) -> int:
        """Answers with a class."""
        return sum(self.classes.values())


class DrowzeeSummary(BaseModel):
    """Drowzee's figures overall, per domain (else category) and per rule (else temporal operator)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    models: list[str] = Field(description="The answering models the rows name.")
    overall: HallucinationFigures
    by_domain: dict[str, HallucinationFigures]
    by_rule: dict[str, HallucinationFigures]


class ERBenchSummary(BaseModel):
    """ERBench's A, R, AR, H (+ R-ext / AR-ext over multi-hop rows); only `n` without rows."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    n: int = Field(description="Answers.")
    A: float | None = Field(default=None, description="Answer accuracy.")
    R: float | None = Field(default=None, description="Rationale accuracy (the FD-inferred value stated).")
    AR: float | None = Field(default=None, description="Both right.")
    H: float | None = Field(default=None, description="Hallucination rate: 1 - A - missing.")
    missing: float | None = Field(default=None, description="Share of `unsure` answers.")
    unparsed: int | None = Field(default=None, description="Answers that commit to nothing.")
    R_ext: float | None = Field(default=None, description="Multi-hop rows: both the value and the joined value stated.")
    AR_ext: float | None = Field(default=None, description="Multi-hop rows: R-ext and the answer right.")

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return {k: v for k, v in handler(self).items() if v is not None}


class FactCHDFigures(BaseModel):
    """FactCHD's figures on one group of pairs, as its evaluation script computes them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    num: int = Field(description="Pairs.")
    fail: int = Field(description="Predictions without a label.")
    acc: float = Field(description="Share of predictions whose label is the gold label.")
    p: float = Field(description="Precision of NON-FACTUAL.")
    r: float = Field(description="Recall of NON-FACTUAL (unlabelled predictions left out, as the script does).")
    factcls: float = Field(description="F1 of NON-FACTUAL, the script's rules.")
    factcls_strict: float = Field(description="F1 of NON-FACTUAL with unlabelled predictions counted as misses.")
    macro_f1: float = Field(description="Mean of both labels' F1.")
    body_f1: float = Field(description="ExpMatch part: token F1 of the explanations' bodies.")
    head_rouge_l: float = Field(description="ExpMatch part: ROUGE-L of the heads.")
    tail_rouge_l: float = Field(description="ExpMatch part: ROUGE-L of the tails.")
    exp_match: float = Field(description="ExpMatch: the parts combined by FactCHD's formula.")


class FactCHDSummary(BaseModel):
    """FactCHD's figures over every pair once (`all`) and per group (a group may itself be called "all")."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    all: FactCHDFigures
    groups: dict[str, FactCHDFigures]
    group_by: str | None = Field(default=None, description="The field the pairs are grouped by, when one was named.")

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return {k: v for k, v in handler(self).items() if not (k == "group_by" and v is None)}


__all__ = [
    "DecisionFigures",
    "DrowzeeSummary",
    "ERBenchSummary",
    "FactCHDFigures",
    "FactCHDSummary",
    "HallucinationFigures",
    "Interval",
    "JudgedLabel",
]
