"""Judged rows: what each scorer adds to an answered row (Drowzee, ERBench, FactCHD).

A judged row is written flat, as today: the input row's fields followed by the judgement's fields,
so that reports read one object per line. The judgement part is one of the models below; the
`Judged*Row` models describe a whole written row (judgement fields, input fields allowed beside).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.records.enums import Label

AnswerLabel = Literal["yes", "no", "unsure"]
"""What a yes/no answer commits to (`drowzee_core.records.answer_text.parse_answer`)."""

HallucinationClass = Literal["CO", "OL", "EI", "EK"]
"""Drowzee's response classes: correct (CO), overlooked reasoning (OL), error in inference (EI),
error in knowledge (EK)."""


class Judgement(BaseModel):
    """Base of the scorers' judgements: written flat beside the input row's fields."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    def flat(self, row: dict[str, Any]) -> dict[str, Any]:
        """The input row followed by this judgement's fields (aliases as written, e.g. `class`)."""
        return row | self.model_dump(mode="json", by_alias=True)


class DrowzeeJudgement(Judgement):
    """The graph oracle's judgement of one Drowzee answer."""

    parsed_answer: AnswerLabel | None = Field(description="The answer the response commits to; None when none.")
    parse_how: str = Field(description="Where the answer was found: `marker`, `lead`, `phrase`, `conflict` or `none`.")
    answer_correct: bool = Field(description="Whether the parsed answer equals the gold answer.")
    node_similarity: float | None = Field(
        default=None, description="Node similarity of the response graph to the gold graph; None without gold edges."
    )
    edge_similarity: float | None = Field(
        default=None, description="Edge similarity of the response graph to the gold graph; None without gold edges."
    )
    hallucination_class: HallucinationClass | None = Field(
        default=None,
        alias="class",
        description="CO / OL / EI / EK; None when the response's triples could not be extracted.",
    )
    extraction_error: str | None = Field(
        default=None, description="Why the response's triples could not be extracted (the row then has no class)."
    )


class ERBenchJudgement(Judgement):
    """ERBench's judgement of one answer and its rationale."""

    parsed_answer: AnswerLabel | None = Field(description="The answer the response commits to; None when none.")
    answer_correct: bool = Field(description="A: whether the parsed answer equals the gold answer.")
    rationale_correct: bool = Field(description="R: whether the rationale states the FD-inferred value.")
    rationale_mentions: list[str] = Field(description="Sentences of the rationale that mention the value.")
    rationale_denied: list[str] = Field(description="Sentences that mention the value only to deny it.")
    rationale_ext_correct: bool | None = Field(
        description="multi_hop rows: whether the rationale states both the value and the joined (FK) value."
    )


class FactCHDJudgement(Judgement):
    """FactCHD's judgement of one prediction (label and explanation), as its evaluation script does it."""

    parsed_label: Label | None = Field(description="The label the prediction starts with; None when it has none.")
    gold_label: Label = Field(description="The label of the gold explanation.")
    label_correct: bool = Field(description="Whether the parsed label equals the gold label.")
    exp_match: float = Field(ge=0.0, le=1.0, description="ExpMatch of the prediction against the gold explanation.")


class DrowzeeOutcome(BaseModel):
    """What a summary reads of a judged Drowzee row (an older file's rows have it too): the rest may be anything."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    parsed_answer: AnswerLabel | None = Field(description="The answer the response commits to; None when none.")
    answer_correct: bool = Field(description="Whether the parsed answer equals the gold answer.")
    hallucination_class: HallucinationClass | None = Field(
        default=None, alias="class", description="CO / OL / EI / EK; None without one."
    )


class JudgedDrowzeeRow(DrowzeeJudgement):
    """A written Drowzee judged row: the judgement, and the answered row's fields beside it."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class JudgedERBenchRow(ERBenchJudgement):
    """A written ERBench judged row: the judgement, and the answered row's fields beside it."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


class JudgedFactCHDRow(FactCHDJudgement):
    """A written FactCHD judged row: the judgement, and the pair's fields and prediction beside it."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)


__all__ = [
    "AnswerLabel",
    "DrowzeeJudgement",
    "DrowzeeOutcome",
    "ERBenchJudgement",
    "FactCHDJudgement",
    "HallucinationClass",
    "JudgedDrowzeeRow",
    "JudgedERBenchRow",
    "JudgedFactCHDRow",
    "Judgement",
]
