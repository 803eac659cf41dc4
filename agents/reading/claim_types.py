"""The claim record: what the readers make of a response, and what the KB check, Seeker and Manager decide.

One `Claim` per atomic statement, with its kind (a triple, a comparison, a count, free text ...), its
origin (the response, the query, a template) and its character span.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

MAX_CLAIMS = 40
"""Most claims read from one response; further sentences are judged with the whole response only."""


class ClaimKind(StrEnum):
    """What a claim is, and so who can decide it."""

    TRIPLE = "triple"
    """(subject, relation, object), possibly negated: the KB check proves or refutes it."""
    COMPARISON = "comparison"
    """"S has the most R among candidates": decided from the candidates' values in the KB."""
    COMMON = "common"
    """"S and O are both `relation` the same thing" (negated: not the same): proved from both sides."""
    TEMPORAL = "temporal"
    """A Drowzee MTL question's formula at its year (`mtl`), asserted or denied by the response's Yes / No:
    decided by the MTL engine over the KB's dated events."""
    COUNT = "count"
    """"At least `object` different things stand in `relation` to `subject`" (Drowzee's Inference Chain
    questions), maybe negated: proved from that many proved facts; fewer is never a refutation."""
    SET = "set"
    """The answer to "What are all X such that ...?" is complete (`candidates` are the members named,
    `conditions` the question's): refuted by a member the KB proves that the list leaves out; never
    proved (absence of other members proves nothing)."""
    TEXT = "text"
    """A sentence no template reads: only the Seeker's judge and the Guardian see it."""


class ClaimOrigin(StrEnum):
    """How a claim was read."""

    TEMPLATE = "template"
    """A catalog template matched a sentence of the response."""
    QUERY = "query"
    """Composed from the query and a short answer ("Yes.", "Lyon")."""
    EXTRACTOR = "extractor"
    """The `extractor` role's triples, linked to the catalog."""
    SENTENCE = "sentence"
    """A sentence of the response, unread."""
    READER = "reader"
    """A free sentence read by the semantic reader (`agents.reading`): linked names, a relation by its cues."""


class ClaimCondition(BaseModel):
    """One condition of a set-operation question on its variable X."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    relation: str = Field(description="Catalog relation name.")
    other: str = Field(description="The condition's named entity or value, as written.")
    var_subject: bool = Field(description="X is the subject (else the object).")
    negated: bool = Field(default=False, description="X must not stand in the relation.")


class Claim(BaseModel):
    """One atomic, self-contained claim of the response."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(description="`C1`, `C2`, ... in reading order.")
    text: str = Field(description="The claim as a self-contained sentence.")
    span: tuple[int, int] | None = Field(default=None, description="Character span in the response, if located.")
    kind: ClaimKind = Field(description="triple / comparison / text.")
    origin: ClaimOrigin = Field(description="How it was read.")
    subject: str | None = Field(default=None, description="Subject as written.")
    relation: str | None = Field(default=None, description="Catalog relation name (or the predicate as written).")
    object: str | None = Field(default=None, description="Object as written.")
    negated: bool = Field(default=False, description="The claim is that the triple does not hold.")
    disjunctive: bool = Field(
        default=False,
        description="One alternative of an either-or claim: refuted only when every alternative is refuted.",
    )
    sufficient: bool = Field(
        default=False,
        description="Proves the response's answer when it holds; its refutation leaves the answer open (a 'No' to a"
        " question that asks more than the claim: 'Is X a male sailor?' 'No.' is proved by X being female, and not"
        " refuted by X being male).",
    )
    past: bool = Field(
        default=False,
        description="Stated in the past tense where the catalog says it in the present: a unique value the KB"
        " holds does not refute it (it may have changed).",
    )
    direction: str | None = Field(default=None, description="comparison: `most` or `least`.")
    candidates: tuple[str, ...] = Field(
        default=(), description="comparison: the entities compared; set: the members named."
    )
    year: int | None = Field(
        default=None,
        description="comparison: the year the values are compared at; triple: the year the claim is put at.",
    )
    tolerance: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="A stated number's relative tolerance ('about 67 million': 0.05); None when exact.",
    )
    conditions: tuple[ClaimCondition, ...] = Field(
        default=(), description="set: the question's conditions on X (`relation` holds the operation)."
    )
    mtl: str | None = Field(
        default=None, description="temporal: the query in Drowzee's syntax, `Finally[2, 5](Atom(X)), 1900`."
    )
    supplied_as: tuple[str, str, str] | None = Field(
        default=None,
        description="triple: the claim in the supplied triples' own label (subject, label, object), where they never"
        " use its catalog relation ('X child Y' for 'the father of Y is X'); the supplied triples decide this form,"
        " the user's KB the claim itself.",
    )


__all__ = ["MAX_CLAIMS", "Claim", "ClaimCondition", "ClaimKind", "ClaimOrigin"]
