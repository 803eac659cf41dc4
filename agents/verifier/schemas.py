"""Typed decisions that pass between the verifier's nodes: what the KB check and the Seeker found per claim.

The claims themselves are `agents.reading.claim_types.Claim`.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode
from drowzee_core.records.verdict import EvidenceFinding


class KBOrigin(StrEnum):
    """Which knowledge base decided a claim."""

    MAIN = "main"
    SUPPLIED = "supplied"


class KBResult(BaseModel):
    """What the KB check found for one claim."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    claim_id: str = Field(description="The claim's id.")
    status: ProofStatus = Field(description="supported / contradicted / unknown.")
    kb: KBOrigin | None = Field(default=None, description="The KB that decided it (None when unknown).")
    proof: ProofNode | None = Field(default=None, description="The proof, when decided.")
    note: str = Field(default="", description="How names were linked, or why it stayed unknown.")
    linked: bool = Field(
        default=True,
        description="Whether a KB knew the claim's relation and names (False: no KB could read it, like free text).",
    )


class ClaimSupport(BaseModel):
    """The Seeker's judgement of one claim against the evidence it gathered."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    claim_id: str = Field(description="The claim's id.")
    p_supported: float = Field(ge=0.0, le=1.0, description="Judge probability that the evidence supports it.")
    evidence_ids: list[str] = Field(default_factory=list, description="Evidence the judge read for it.")
    finding: EvidenceFinding | None = Field(
        default=None, description="The evidence reader's finding in the supplied evidence, when evidence was supplied."
    )


__all__ = ["ClaimSupport", "KBOrigin", "KBResult"]
