"""Query-Response pairs: FactCHD's fields, plus our ground truth when we generated the pair."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.records.enums import Grounding, Label, Split
from drowzee_core.records.proof import KBClaim

EvidenceItemIn = list[str] | str
"""One supplied evidence item: a KG triple `[s, r, o]` (FactCHD nests qualifier triples as strings),
a text pair `[entity, sentence]`, or a plain sentence."""


class ComparisonTruth(BaseModel):
    """Ground truth of a comparison pair: the values compared and the right answer."""

    model_config = ConfigDict(extra="forbid")

    relation: str = Field(description="The compared relation (catalog name).")
    values: dict[str, float] = Field(description="Entity key -> its proved value.")
    answer: str = Field(description="Key of the entity with the most / least value.")
    direction: Literal["most", "least"] = Field(description="Whether the query asks for the most or the least.")
    stated_value: dict[str, float] | None = Field(
        default=None, description="wrong_number corruption: the false value the response states, by entity key."
    )
    stated: str | None = Field(
        default=None, description="NON-FACTUAL: key of the entity the response names as the answer instead."
    )


class SetOperand(BaseModel):
    """One set {x | relation(x, object)} of a set-operation pair."""

    model_config = ConfigDict(extra="forbid")

    relation: str = Field(description="Relation name.")
    object: str = Field(description="Object entity key.")


class SetTruth(BaseModel):
    """Ground truth of a set-operation pair."""

    model_config = ConfigDict(extra="forbid")

    operation: Literal["intersection", "union", "difference"] = Field(description="The set operation asked for.")
    sets: list[SetOperand] = Field(description="The two operand sets.")
    answer: list[str] = Field(description="Keys of the members of the right answer.")
    stated: list[str] | None = Field(default=None, description="Keys the NON-FACTUAL response lists instead.")


class PairTruth(BaseModel):
    """Why a generated pair has its label: its claims with their Prolog status, and pattern details."""

    model_config = ConfigDict(extra="forbid")

    claims: list[KBClaim] = Field(default_factory=list, description="The response's claims with their status.")
    correct: str | None = Field(default=None, description="The right answer where the response gets it wrong.")
    broken_hop: int | None = Field(default=None, description="multi_hop: index of the corrupted hop.")
    comparison: ComparisonTruth | None = Field(default=None, description="comparison pairs only.")
    set_operation: SetTruth | None = Field(default=None, description="set_operation pairs only.")


class QRPair(BaseModel):
    """A Query-Response pair labelled FACTUAL / NON-FACTUAL (FactCHD's JSONL fields first).

    FactCHD's own records and the normalised external benchmarks validate as this record; the fields
    after `answer_size` are present when we generated the pair.
    """

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Unique id.")
    label: Label = Field(description="FACTUAL or NON-FACTUAL.")
    query: str = Field(description="The user's query.")
    response: str = Field(description="The response to check.")
    evidence: list[EvidenceItemIn] = Field(default_factory=list, description="Evidence items (triples or text).")
    reason: str | None = Field(default=None, description="Gold explanation in FactCHD's shape (label first).")
    domain: str | None = Field(default=None, description="Topic domain.")
    type: str | None = Field(default=None, description="FactCHD: `kg` or `text` evidence.")
    category: str | None = Field(default=None, description="FactCHD category (Conventional, Reasoning, ...).")
    subgraph_type: str | None = Field(default=None, description="FactCHD subgraph type.")
    hops: int | None = Field(default=None, description="multi_hop: number of hops.")
    comparison_size: int | None = Field(default=None, description="comparison: number of entities compared.")
    set_size: int | None = Field(default=None, description="set_operation: number of operand sets.")
    answer_size: int | None = Field(default=None, description="set_operation: members in the response.")
    source: str | None = Field(default=None, description="Benchmark the pair comes from (external sets).")
    meta: dict[str, object] | None = Field(default=None, description="Source-specific extras (external sets).")
    pattern: str | None = Field(default=None, description="Our generator's pattern (vanilla, multi_hop, ...).")
    corruption: str | None = Field(default=None, description="Named corruption that made a NON-FACTUAL response.")
    split: Split | None = Field(default=None, description="Entity-disjoint split.")
    entities: list[str] = Field(default_factory=list, description="Keys of the entities the pair is about.")
    ground_truth: PairTruth | None = Field(default=None, description="Claims and details behind the label.")
    grounding: Grounding | None = Field(default=None, description="How the label is grounded (generated pairs).")


__all__ = ["ComparisonTruth", "EvidenceItemIn", "PairTruth", "QRPair", "SetOperand", "SetTruth"]
