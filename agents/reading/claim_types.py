"""The claim record: what the readers make of a response, and what the KB check, Seeker and Manager decide.

One `Claim` per atomic statement: a record per kind (a triple, a comparison, a count, free text ...), told
apart by `kind`, each with the fields its kind has and no others; all have an origin (the response, the
query, a template) and a character span.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from drowzee_core.records.enums import TimeWord

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
    proved (absence of other members proves nothing). Also a list a response gives as a subject's whole
    list of values (`said_whole`), refuted only for a relation the KB declares complete."""
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
    MODEL = "model"
    """A free sentence no pattern reads, read by the relation model (`agents.reading.candidates.learned`)."""


class ClaimCondition(BaseModel):
    """One condition of a set-operation question on its variable X."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    relation: str = Field(description="Catalog relation name.")
    other: str = Field(description="The condition's named entity or value, as written.")
    var_subject: bool = Field(description="X is the subject (else the object).")
    negated: bool = Field(default=False, description="X must not stand in the relation.")


class ClaimBase(BaseModel):
    """What every claim has: its id, its sentence, where the response says it and how it was read."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str = Field(description="`C1`, `C2`, ... in reading order.")
    text: str = Field(description="The claim as a self-contained sentence.")
    span: tuple[int, int] | None = Field(default=None, description="Character span in the response, if located.")
    origin: ClaimOrigin = Field(description="How it was read.")


class TextClaim(ClaimBase):
    """A sentence no template or reader reads: only the Seeker's judge and the Guardian see it."""

    kind: Literal[ClaimKind.TEXT] = ClaimKind.TEXT


class _Related(ClaimBase):
    """A claim that a named subject stands in a relation (to an object, a count, or among candidates)."""

    subject: str = Field(description="Subject as written.")
    relation: str = Field(description="Catalog relation name (or the supplied triples' label).")
    negated: bool = Field(default=False, description="The claim is that the relation does not hold.")
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


class TripleClaim(_Related):
    """(subject, relation, object), possibly negated: the KB check proves or refutes it."""

    kind: Literal[ClaimKind.TRIPLE] = ClaimKind.TRIPLE
    object: str = Field(description="Object as written.")
    disjunctive: bool = Field(
        default=False,
        description="One alternative of an either-or claim: refuted only when every alternative is refuted.",
    )
    year: int | None = Field(default=None, description="The year the claim is put at.")
    time: TimeWord = Field(
        default=TimeWord.AT, description="How the claim stands to `year`: at, until, since, before, by, after."
    )
    tolerance: float | None = Field(
        default=None,
        ge=0.0,
        le=1.0,
        description="A stated number's relative tolerance ('about 67 million': 0.05); None when exact.",
    )
    supplied_as: tuple[str, str, str] | None = Field(
        default=None,
        description="The claim in the supplied triples' own label (subject, label, object), where they never use its"
        " catalog relation ('X child Y' for 'the father of Y is X'); the supplied triples decide this form, the"
        " user's KB the claim itself.",
    )


class CommonClaim(_Related):
    """That `subject` and `object` both stand in `relation` to the same thing (negated: to none in common)."""

    kind: Literal[ClaimKind.COMMON] = ClaimKind.COMMON
    object: str = Field(description="The second name, as written.")


class CountClaim(_Related):
    """That at least `at_least` different things stand in `relation` to `subject` (negated: fewer).

    With `values`, that `subject` has exactly `at_least` different values of `relation` ("X has two
    official tongues"; negated: not exactly so many).
    """

    kind: Literal[ClaimKind.COUNT] = ClaimKind.COUNT
    at_least: int = Field(ge=0, description="How many different things the claim says there are, at least.")
    values: bool = Field(
        default=False, description="The count is of the subject's own values of the relation, exactly `at_least`."
    )


class ComparisonClaim(_Related):
    """That `subject` has the most (least) `relation` among `candidates`."""

    kind: Literal[ClaimKind.COMPARISON] = ClaimKind.COMPARISON
    direction: Literal["most", "least"] = Field(description="Which end of the candidates' values.")
    candidates: tuple[str, ...] = Field(description="The entities compared, the subject among them.")
    year: int | None = Field(default=None, description="The year the values are compared at.")


class SetClaim(ClaimBase):
    """The response's list is every X that satisfies `conditions` (combined by `operation`)."""

    kind: Literal[ClaimKind.SET] = ClaimKind.SET
    variable: str = Field(description="The question's variable, as the question names it ('X').")
    operation: str = Field(description="How the conditions combine (`kb.set_questions`: and, or, not ...).")
    candidates: tuple[str, ...] = Field(default=(), description="The members the response names.")
    conditions: tuple[ClaimCondition, ...] = Field(description="The question's conditions on X.")
    said_whole: bool = Field(
        default=False,
        description="Read from a response that gives a subject's values as the whole list ('X's official tongues"
        " are A and B', 'the only ...'); its one condition is 'subject relation X'. Decided only where the KB"
        " declares the relation complete, on the values it holds today (`kb.lists`).",
    )


class TemporalClaim(ClaimBase):
    """A Drowzee MTL question's formula at its year, asserted or denied by the response's Yes / No."""

    kind: Literal[ClaimKind.TEMPORAL] = ClaimKind.TEMPORAL
    mtl: str = Field(description="The query in Drowzee's syntax, `Finally[2, 5](Atom(X)), 1900`.")
    negated: bool = Field(default=False, description="The response says the formula does not hold.")


Claim = Annotated[
    TripleClaim | CommonClaim | CountClaim | ComparisonClaim | SetClaim | TemporalClaim | TextClaim,
    Field(discriminator="kind"),
]
"""One atomic, self-contained claim of the response: a record per kind, told apart by `kind`."""
RelatedClaim = TripleClaim | CommonClaim | CountClaim | ComparisonClaim
"""The claims about a named subject and a relation."""
CLAIM_TYPES: tuple[type[BaseModel], ...] = (
    TripleClaim,
    CommonClaim,
    CountClaim,
    ComparisonClaim,
    SetClaim,
    TemporalClaim,
    TextClaim,
)
"""Every claim record (for checkpoint serialisers that list their types)."""
CLAIMS: TypeAdapter[list[Claim]] = TypeAdapter(list[Claim])
"""Validates a list of claims from JSON-like data (each by its `kind`)."""

AnyClaim = TypeVar("AnyClaim", bound=ClaimBase)
"""Any one claim record type."""


def replaced(claim: AnyClaim, **update: object) -> AnyClaim:
    """`claim` with some fields replaced, validated (unlike `model_copy`): a wrong value is an error."""
    return type(claim).model_validate({**claim.model_dump(), **update})


def only_sufficient(claim: ClaimBase) -> bool:
    """Whether the claim proves the answer when it holds and leaves it open when refuted (`sufficient`)."""
    return isinstance(claim, RelatedClaim) and claim.sufficient


def names_of(claim: ClaimBase) -> tuple[str, ...]:
    """The names a claim mentions: its subject and object, or the candidates it compares or lists.

    A set claim's are its variable and the members it names.
    """
    if isinstance(claim, TripleClaim | CommonClaim):
        return (claim.subject, claim.object)
    if isinstance(claim, ComparisonClaim):
        return (claim.subject, *claim.candidates)
    if isinstance(claim, CountClaim):
        return (claim.subject,)
    if isinstance(claim, SetClaim):
        return (claim.variable, *claim.candidates)
    return ()


__all__ = [
    "CLAIMS",
    "CLAIM_TYPES",
    "MAX_CLAIMS",
    "AnyClaim",
    "Claim",
    "ClaimBase",
    "ClaimCondition",
    "ClaimKind",
    "ClaimOrigin",
    "CommonClaim",
    "ComparisonClaim",
    "CountClaim",
    "RelatedClaim",
    "SetClaim",
    "TemporalClaim",
    "TextClaim",
    "TripleClaim",
    "names_of",
    "only_sufficient",
    "replaced",
]
