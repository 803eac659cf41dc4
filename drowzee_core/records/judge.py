"""Records of the grounded judge: (query, response, evidence) examples and the judge's scores."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.records.enums import Split


class Support(StrEnum):
    """Whether the evidence supports the response (the judge's two classes)."""

    SUPPORTED = "SUPPORTED"
    NOT_SUPPORTED = "NOT_SUPPORTED"


class JudgeExample(BaseModel):
    """One training or evaluation example of the grounded judge.

    `query` may be empty for claim-only data (NLI, FEVER); a short response ("Yes.", "Lyon") only
    makes sense with it. `evidence` holds sentences (verbalized KB facts, passages, or raw triples
    written as "s | r | o").
    """

    model_config = ConfigDict(extra="forbid")

    id: str = Field(description="Unique id within the file.")
    query: str = Field(default="", description="The question the response answers ('' for claim-only data).")
    response: str = Field(min_length=1, description="The response or claim to judge.")
    evidence: list[str] = Field(description="Evidence sentences, in order.")
    label: Support = Field(description="Gold: does the evidence support the response?")
    source: str = Field(description="Where the example comes from (`kb:<recipe>`, `snli`, `fever`, `recast:<task>`).")
    recipe: str | None = Field(
        default=None, description="KB examples: how the example was made (corruption or contrast recipe)."
    )
    contrast_of: str | None = Field(default=None, description="Id of the example this one minimally differs from.")
    split: Split | None = Field(default=None, description="Entity-disjoint split (KB examples).")
    entities: list[str] = Field(default_factory=list, description="KB entity keys the example is about.")


class JudgeScore(BaseModel):
    """The judge's calibrated answer for one (query, response, evidence) input."""

    model_config = ConfigDict(extra="forbid")

    p_supported: float = Field(ge=0.0, le=1.0, description="Calibrated probability that the evidence supports it.")
    decision: Support | None = Field(
        description="SUPPORTED / NOT_SUPPORTED, or None inside the not-enough-evidence band."
    )
    best_chunk: int | None = Field(default=None, description="Index of the evidence chunk that decided.")
    claim_scores: list[float] = Field(default_factory=list, description="Per-claim probabilities, when split.")


__all__ = ["JudgeExample", "JudgeScore", "Support"]
