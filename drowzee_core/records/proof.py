"""Proof trees and KB claims as they appear in records (labels, not KB ids)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.records.enums import ProofStatus


class ProofNode(BaseModel):
    """One node of a labelled proof tree: a conclusion, the rule that gave it, and its premises."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule: str = Field(
        description="`fact`, `negative_fact`, a rule family (`symmetric`, `inverse`, ...) or `composite:NAME`."
    )
    fact: tuple[str, str, str] = Field(description="(subject label, relation name, object label).")
    text: str = Field(description="The conclusion as an English sentence.")
    premises: list[ProofNode] = Field(default_factory=list, description="The nodes this conclusion follows from.")

    def leaf_nodes(self) -> list[ProofNode]:
        """The nodes of the stored facts the proof rests on, in order."""
        if not self.premises:
            return [self]
        return [leaf for p in self.premises for leaf in p.leaf_nodes()]

    def leaves(self) -> list[tuple[str, str, str]]:
        """The stored facts the proof rests on, in order."""
        return [leaf.fact for leaf in self.leaf_nodes()]


class KBClaim(BaseModel):
    """A claim named by KB keys, with what the logic engine says of it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    subject: str = Field(description="Subject entity key (e.g. `country:FR`).")
    relation: str = Field(description="Relation name from the catalog (e.g. `capital_of`).")
    object: str = Field(description="Object entity key, or a literal such as a number or year.")
    status: ProofStatus = Field(description="The engine's status of this claim.")
    negated: bool = Field(
        default=False, description="The claim is that the triple does NOT hold; `status` is that negation's status."
    )
    subject_label: str | None = Field(default=None, description="Subject label, when known.")
    object_label: str | None = Field(default=None, description="Object label, when known.")
    text: str | None = Field(default=None, description="The claim as an English sentence.")


__all__ = ["KBClaim", "ProofNode"]
