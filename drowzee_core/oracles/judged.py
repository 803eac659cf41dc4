"""Typed records of verdict scoring: a judged row, a summary block and the summary.

`drowzee_core.oracles.verdicts` judges each verdict against its pair into a `JudgedVerdict` and
summarises them into a `VerdictSummary`; `drowzee_core.oracles.decisions` reads its `JudgedLabel`
part (`drowzee_core.records.summaries`). Files and the API get their `model_dump()`: keys a row or
block lacks (no graph oracle, no group) are left out of the dump, as the files have always had them.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field, SerializerFunctionWrapHandler, model_serializer

from drowzee_core.oracles.stats import Figures
from drowzee_core.records.summaries import DecisionFigures, JudgedLabel


def _without_absent(out: dict[str, Any], optional: tuple[str, ...]) -> dict[str, Any]:
    return {k: v for k, v in out.items() if not (k in optional and v is None)}


class JudgedVerdict(JudgedLabel):
    """One verdict judged against its pair (`drowzee score verdicts`)."""

    id: str | None = Field(default=None, description="The pair's id.")
    error: str | None = Field(default=None, description="The error record's message, for a pair with no verdict.")
    degraded: bool = Field(default=False, description="The verdict was made with a source missing.")
    exp_match: float | None = Field(default=None, description="ExpMatch against the gold reason, where it has one.")
    pattern: str | None = Field(default=None, description="The pair's pattern, if it names one.")
    grounding: str | None = Field(default=None, description="The pair's grounding, if it names one.")
    source: str | None = Field(default=None, description="The pair's source, if it names one.")
    category: str | None = Field(default=None, description="The pair's category, if it names one.")
    node_sim: float | None = Field(default=None, description="Graph oracle: node similarity to the ground truth.")
    edge_sim: float | None = Field(default=None, description="Graph oracle: edge similarity to the ground truth.")

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _without_absent(handler(self), ("node_sim", "edge_sim"))


class GraphOracle(BaseModel):
    """Mean node and edge similarity of the explanations to the ground-truth facts."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rows: int = Field(description="Rows with both an explanation and ground-truth facts.")
    node_sim: float
    edge_sim: float


class VerdictFigures(BaseModel):
    """The figures of one set of judged rows (overall, or one group)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    verifier: Figures = Field(description="FactCls, accuracy, macro-F1 (and ExpMatch) with 95 % intervals.")
    baselines: list[Figures] = Field(description="The constant baselines on the same rows.")
    degraded: int = Field(description="Verdicts made with a source missing.")
    errors: int = Field(description="Pairs with no verdict.")
    decisions: DecisionFigures
    graph_oracle: GraphOracle | None = Field(default=None, description="Where rows have graph similarities.")

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _without_absent(handler(self), ("graph_oracle",))


class VerdictSummary(BaseModel):
    """Figures overall and per group of at least two rows (`pattern`, `grounding`, `source`, `category`)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    overall: VerdictFigures
    by_pattern: dict[str, VerdictFigures] | None = None
    by_grounding: dict[str, VerdictFigures] | None = None
    by_source: dict[str, VerdictFigures] | None = None
    by_category: dict[str, VerdictFigures] | None = None

    @model_serializer(mode="wrap")
    def _dump(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        return _without_absent(handler(self), ("by_pattern", "by_grounding", "by_source", "by_category"))


__all__ = [
    "GraphOracle",
    "JudgedVerdict",
    "VerdictFigures",
    "VerdictSummary",
]
