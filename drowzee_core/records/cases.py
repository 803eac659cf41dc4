"""Generated test cases: Drowzee yes/no questions, temporal questions and ERBench questions."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.records.enums import Split, YesNo
from drowzee_core.records.proof import KBClaim, ProofNode

Interval = tuple[int, int]
"""A closed range of years [start, end]."""

ERBenchQuestionType = Literal["binary", "negated", "multiple_choice", "multi_hop"]
"""The ERBench question types (`drowzee_core.generate.erbench.QUESTION_TYPES`)."""


class CaseBase(BaseModel):
    """Fields every yes/no test case has, whatever generated it."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Unique id within the file (`<kind>-<seed>-<index>`).")
    split: Split | None = Field(default=None, description="Entity-disjoint split, or None when unrestricted.")
    domain: str = Field(description="KB domain of the case (geography, people, ...).")
    rule: str = Field(description="Rule family (`symmetric`, `inverse`, ...) or MTL operator that makes the case.")
    rule_detail: str = Field(description="The exact rule or operator combination behind the answer.")
    form: str = Field(description="`positive` or a negated form of the question.")
    question: str = Field(description="The yes/no question put to the model under test.")
    answer: YesNo = Field(description="The gold answer, proved by the logic engine.")
    entities: list[str] = Field(description="Keys of the entities the case is about (drives the split).")
    reasoning: list[str] = Field(description="Gold reasoning, one knowledge point per item, ending in the answer.")
    prompt: str = Field(description="The full prompt sent to the model under test.")


class QACase(CaseBase):
    """A Drowzee question whose answer Prolog derives with a proof (`drowzee generate drowzee-qa`)."""

    kind: Literal["drowzee-qa"] = Field(default="drowzee-qa", description="Record kind.")
    facts: list[tuple[str, str, str]] = Field(description="The stored facts the proof rests on (labels).")
    conclusion: KBClaim = Field(description="The claim the question asks about, with its proved status.")
    proof: ProofNode | None = Field(description="The labelled proof tree of the conclusion.")


class TemporalEventRef(BaseModel):
    """An event a temporal question mentions, with the years it holds and the facts that give them."""

    model_config = ConfigDict(extra="forbid")

    key: str = Field(description="Event key (as in the MTL atom).")
    label: str = Field(description="Readable name of the event.")
    intervals: list[Interval] = Field(description="Years in which the event holds.")
    facts: list[str] = Field(description="The KB facts (or `begin`/`end` lines) the intervals come from.")
    domain: str | None = Field(default=None, description="KB domain of the event's facts.")


class TemporalConclusion(BaseModel):
    """The decided MTL query."""

    model_config = ConfigDict(extra="forbid")

    mtl: str = Field(description="The query in Drowzee's syntax: `FORMULA, YEAR`.")
    year: int = Field(description="The evaluation year.")
    truth: bool = Field(description="Whether the formula holds at `year`.")
    intervals: list[Interval] = Field(description="Years in which the formula holds.")


class TemporalParams(BaseModel):
    """The generator's parameters, recorded on every temporal case (`TemporalQAConfig`)."""

    model_config = ConfigDict(extra="forbid")

    n: int = Field(description="Number of cases requested.")
    seed: int = Field(description="Random seed.")
    operators: list[str] = Field(description="Top-level MTL operators, used in turn.")
    max_depth: int = Field(description="Operator nesting depth of a formula.")
    max_window: int = Field(description="Largest b of a window [a, b] of F, G and U.")
    boundary_share: float = Field(description="Share of years picked at an interval boundary (+-1).")
    id_prefix: str = Field(description="Prefix of the case ids.")


class TemporalCase(CaseBase):
    """A Metric Temporal Logic question decided by the Prolog interval encoding."""

    kind: Literal["temporal"] = Field(default="temporal", description="Record kind.")
    mtl: str = Field(description="The query in Drowzee's syntax: `FORMULA, YEAR`.")
    formula: dict[str, Any] = Field(description="The formula as a JSON tree (`drowzee_core.logic.mtl_syntax`).")
    year: int = Field(description="The evaluation year.")
    operator: str = Field(description="Top-level MTL operator.")
    operators: list[str] = Field(description="Every operator in the formula (atoms excluded).")
    depth: int = Field(description="Nesting depth of the formula.")
    question_readable: str = Field(description="The question in plain English.")
    truth: bool = Field(description="Whether the formula holds at `year`.")
    intervals: list[Interval] = Field(description="Years in which the formula holds.")
    events: list[TemporalEventRef] = Field(description="The events the formula mentions.")
    horizon: Interval = Field(description="The time horizon negation is evaluated over.")
    facts: list[str] = Field(description="The facts behind the events' intervals.")
    conclusion: TemporalConclusion = Field(description="The decided query.")
    config: TemporalParams | None = Field(default=None, description="The generator parameters that made the case.")


class ERBenchFD(BaseModel):
    """A functional dependency lhs -> rhs of one table."""

    model_config = ConfigDict(extra="forbid")

    lhs: list[str] = Field(description="Determining columns.")
    rhs: str = Field(description="Determined column.")


class ERBenchJoin(BaseModel):
    """The foreign-key hop of a multi-hop ERBench question."""

    model_config = ConfigDict(extra="forbid")

    column: str = Field(description="Foreign-key column of the first table.")
    references: str = Field(description="Referenced table.")
    row: dict[str, str] = Field(description="The joined row.")


class ERBenchQuestion(BaseModel):
    """An ERBench question from a relational database's FDs and FKs (`drowzee generate erbench`)."""

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Unique id within the file.")
    kind: Literal["erbench"] = Field(default="erbench", description="Record kind.")
    split: Split | None = Field(default=None, description="Split, when the generator assigned one.")
    table: str = Field(description="Table the FD belongs to.")
    question_type: ERBenchQuestionType = Field(
        description="`binary` (answer Yes), `negated` (answer No), `multiple_choice` or `multi_hop`."
    )
    question: str = Field(description="The question put to the model under test.")
    answer: str = Field(description="Gold answer: `Yes` / `No`, or the letter of the false option (`A`-`E`).")
    fd: ERBenchFD = Field(description="The FD that makes the answer verifiable.")
    fd_values: list[str] = Field(description="FD-inferred values; a correct rationale names the first.")
    row: dict[str, str] = Field(description="The table row the question is built from.")
    entities: list[str] = Field(description="`table:value` keys of the entities involved.")
    prompt: str = Field(description="The full prompt sent to the model under test.")
    options: list[str] | None = Field(default=None, description="multiple_choice: the lettered options `A. ...`.")
    rows: list[dict[str, str]] | None = Field(
        default=None, description="multiple_choice: the four table rows behind options A-D (before perturbation)."
    )
    perturbed_option: str | None = Field(
        default=None, description="multiple_choice: the letter of the option made false, None for `E` questions."
    )
    join: ERBenchJoin | None = Field(default=None, description="The FK hop of multi-hop questions.")


__all__ = [
    "CaseBase",
    "ERBenchFD",
    "ERBenchJoin",
    "ERBenchQuestion",
    "ERBenchQuestionType",
    "Interval",
    "QACase",
    "TemporalCase",
    "TemporalConclusion",
    "TemporalEventRef",
    "TemporalParams",
]
