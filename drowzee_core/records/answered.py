"""Answered rows as the scorers read them, and the peers' own formats (Drowzee, ERBench labels).

The scorers accept our records with the model's answer added (`llm_answer`) and the peers' files as
published; the models here name the fields each scorer needs and allow the rest, which pass
through to the judged row unchanged. The peers store some lists as their Python repr
(`"[['a', 'b', 'c']]"`); those are read with `ast.literal_eval`, never `eval`.
"""

from __future__ import annotations

import ast
from typing import Annotated, Any, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from drowzee_core.records.cases import ERBenchJoin
from drowzee_core.records.enums import Label


def literal_list(value: Any) -> list[Any]:
    """A list field that may be stored as its Python repr ("[['a', 'b', 'c']]"); "" and None are []."""
    if isinstance(value, list | tuple):
        return list(value)
    if value is None or value == "":
        return []
    if not isinstance(value, str):
        raise ValueError(f"expected a list, got {type(value).__name__}")
    try:
        parsed = ast.literal_eval(value)
    except (ValueError, SyntaxError) as exc:
        raise ValueError(f"not a list or the repr of one: {value[:80]!r}") from exc
    return list(parsed) if isinstance(parsed, list | tuple) else [parsed]


def _flag(value: Any) -> bool:
    """ERBench's 0/1 judgement cells: the human files also hold `0.0` / `1.0`, and a typo `11` that means 1."""
    text = str(value).strip()
    try:
        number = float(text)
    except ValueError:
        raise ValueError(f"expected 0 or 1, got {text!r}") from None
    if number not in (0.0, 1.0, 11.0):
        raise ValueError(f"expected 0 or 1 (or the typo 11), got {text!r}")
    return number != 0.0


Triple3 = tuple[str, str, str]
LiteralList = Annotated[list[Any], BeforeValidator(literal_list)]
TripleList = Annotated[list[Triple3], BeforeValidator(literal_list)]
StrList = Annotated[list[str], BeforeValidator(literal_list)]
Flag = Annotated[bool, BeforeValidator(_flag)]


class DrowzeeQuestion(BaseModel):
    """One question of Drowzee's categorized QA (`peers/drowzee_qa/*.json`, a JSON array)."""

    model_config = ConfigDict(extra="forbid")

    qid: int = Field(description="Question id.")
    entityid: StrList = Field(description="Wikidata ids of the entities asked about.")
    entity: StrList = Field(description="Names of the entities asked about.")
    description: StrList = Field(description="A Wikipedia description of each entity.")
    category: str = Field(description="Topic category (`History and Events`, `Culture and the Arts`, ...).")
    reasoning: str = Field(description="Reasoning type (`Transitive Inference`, `Negation`, ...).")
    question: str = Field(description="The yes/no question.")
    answer: Literal["Yes.", "No."] = Field(description="The gold answer, with its period.")
    evidence: TripleList = Field(description="The ground-truth triples `[s, p, o]` the answer rests on.")


class DrowzeeAnsweredPeer(DrowzeeQuestion):
    """A Drowzee question with a model's raw answer (`peers/drowzee_responses/<model>/history.json`)."""

    llm_answer: str = Field(description="The model's raw answer.")


class DrowzeeAnswered(BaseModel):
    """What the Drowzee scorer reads: a yes/no question, its gold answer and ground truth, a model's answer.

    Our QA / temporal records give `facts` (triples, or sentences for temporal cases) and a `reasoning`
    list; Drowzee's files give `evidence` triples and a reasoning-type string.
    """

    model_config = ConfigDict(extra="allow")

    question: str = Field(description="The yes/no question.")
    answer: str = Field(description="The gold answer (`Yes`, `No`, `Yes.`, `No.`).")
    llm_answer: str = Field(description="The model's raw answer.")
    evidence: TripleList | None = Field(default=None, description="Drowzee's ground-truth triples.")
    facts: LiteralList | None = Field(default=None, description="Our records' facts: triples or sentences.")
    reasoning: LiteralList | str | None = Field(
        default=None, description="Gold reasoning lines (ours) or the reasoning type (Drowzee's)."
    )
    kind: str | None = Field(default=None, description="Record kind, present on our records.")


class ERBenchHumanLabel(BaseModel):
    """A row of ERBench's human-verified answers (`peers/erbench/human_labels/<model>/<task>_correct.csv`)."""

    model_config = ConfigDict(extra="allow")  # the CSV's unnamed index column and its entity/question indexes

    question: str = Field(description="The binary question.")
    model_answer: str = Field(description="The model's answer (`yes`, `no`, `unsure`).")
    model_reasoning: str = Field(description="The model's rationale.")
    gold_answer: str = Field(description="The gold answer (`yes` / `no`).")
    gold_entity: str = Field(description="The FD-inferred value a correct rationale names.")
    reasoning_erbench: Flag = Field(description="ERBench's automatic judgement: the value appears in the rationale.")
    reasoning_manual: Flag = Field(description="A person's judgement of the rationale.")


class ERBenchAnswered(BaseModel):
    """What the ERBench scorer reads from our records: a question with `fd_values` and a model's answer."""

    model_config = ConfigDict(extra="allow")

    question: str = Field(description="The question.")
    answer: str = Field(description="The gold answer.")
    llm_answer: str = Field(description="The model's raw answer (its answer and rationale).")
    fd_values: StrList = Field(description="FD-inferred values; a correct rationale names the first.")
    join: ERBenchJoin | None = Field(default=None, description="multi_hop: the FK hop.")
    row: dict[str, str] | None = Field(default=None, description="The table row the question is built from.")


PREDICTION_FIELDS: tuple[str, ...] = ("output", "llm_answer", "prediction")
"""Where a FactCHD prediction may be, in order of preference."""


class FactCHDAnswered(BaseModel):
    """What the FactCHD scorer reads: a labelled pair with its gold explanation and a prediction."""

    model_config = ConfigDict(extra="allow")

    label: Label = Field(description="The gold label.")
    reason: str = Field(description="The gold explanation (FactCHD's starts with the label).")
    output: str | None = Field(default=None, description="The prediction (FactCHD's field name).")
    llm_answer: str | None = Field(default=None, description="The prediction (our runner's field name).")
    prediction: str | None = Field(default=None, description="The prediction (another common name).")

    @model_validator(mode="after")
    def _has_prediction(self) -> FactCHDAnswered:
        if self.predicted is None:
            raise ValueError(f"no prediction; put it in one of {', '.join(f'`{f}`' for f in PREDICTION_FIELDS)}")
        return self

    @property
    def predicted(self) -> str | None:
        """The prediction, from the first of `output`, `llm_answer`, `prediction` that is set."""
        return next((v for v in (self.output, self.llm_answer, self.prediction) if v is not None), None)


__all__ = [
    "PREDICTION_FIELDS",
    "DrowzeeAnswered",
    "DrowzeeAnsweredPeer",
    "DrowzeeQuestion",
    "ERBenchAnswered",
    "ERBenchHumanLabel",
    "FactCHDAnswered",
    "literal_list",
]
