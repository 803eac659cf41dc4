"""Value types of the knowledge base: domains, relation specs, entities and triples."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from drowzee_core.kb.label_grammar import LabelForm, label_wording

#: The nine Drowzee domains, in the paper's order.
DOMAINS: tuple[str, ...] = (
    "culture_and_arts",
    "geography",
    "health",
    "history_and_events",
    "people",
    "mathematics",
    "natural_sciences",
    "society",
    "technology",
)

RELATION_NAME_RE = re.compile(r"^[a-z][a-z0-9_]{0,63}$")
MAX_LABEL_CHARS = 1000


class RelationCategory(StrEnum):
    """How a relation is phrased in English (Drowzee's three question-template families)."""

    NOUN_PHRASE = "noun_phrase"
    PASSIVE_VERB = "passive_verb"
    ACTIVE_VERB = "active_verb"


CATEGORIES = {
    LabelForm.PASSIVE: RelationCategory.PASSIVE_VERB,
    LabelForm.VERB: RelationCategory.ACTIVE_VERB,
    LabelForm.OBJECT_PARTICIPLE: RelationCategory.ACTIVE_VERB,
    LabelForm.PREDICATE_NOUN: RelationCategory.NOUN_PHRASE,
    LabelForm.NOUN: RelationCategory.NOUN_PHRASE,
}
"""The phrasing family of a relation known by its label's form."""


class ValueKind(StrEnum):
    """What an entity denotes: a thing, a number or a year."""

    ENTITY = "entity"
    QUANTITY = "quantity"
    YEAR = "year"


RelationName = Annotated[str, StringConstraints(pattern=RELATION_NAME_RE.pattern)]


class RelationSpec(BaseModel):
    """One relation of the catalog: wording, logical properties and templates."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: RelationName = Field(description="Identifier, snake_case, unique in the catalog.")
    label: str = Field(min_length=1, description="Human wording of the relation, e.g. 'located in'.")
    other_labels: tuple[str, ...] = Field(
        default=(),
        description="Other labels supplied triples name it by ('subclass of', Wikidata's label for `is_a`).",
    )
    category: RelationCategory = Field(description="Phrasing family used by question templates.")
    domain: str = Field(default="general", description="Drowzee domain the relation belongs to.")
    symmetric: bool = Field(default=False, description="r(a, b) implies r(b, a).")
    irreflexive: bool = Field(default=False, description="r(a, a) never holds (nothing is its own father).")
    transitive: bool = Field(default=False, description="r(a, b) and r(b, c) imply r(a, c).")
    functional: bool = Field(default=False, description="Each subject has at most one object (enables contradiction).")
    inverse_of: RelationName | None = Field(
        default=None, description="Name of the inverse relation: r(a, b) iff inverse(b, a)."
    )
    disjoint_with: tuple[RelationName, ...] = Field(
        default=(),
        description="Relations that never hold between the same subject and object: r(a, b) refutes each (a"
        " mother is not the father of the same child). Declared on either side; it applies both ways.",
    )
    partition: str | None = Field(
        default=None,
        pattern=r"^[a-z][a-z0-9_]{0,31}:\S{1,200}$",
        description="Key of the entity whose members (`member_of` facts) are the cells of a partition under"
        " this relation (`org:united_nations` for `located_in`). A subject is related to at most one cell"
        " and no cell to another, so a second cell is refuted (Lyon, in France, is not located in Germany).",
    )
    complete: bool = Field(
        default=False,
        description="Local closed world: the KB lists every object of each subject it holds any object for (a"
        " source that lists all of a country's currencies), so a value of the same kind that the subject's"
        " list leaves out is refuted (Spain's listed neighbours do not include Norway). A subject with no"
        " object at all stays unknown. A pair's supplied triples are never taken as complete.",
    )
    narrows: RelationName | None = Field(
        default=None,
        description="A broader relation that says this one when its object is of this relation's kind: being"
        " located in a continent is being on it (`on_continent` narrows `located_in`). A claim of the broader"
        " relation whose names the KB's stored facts type for this one is checked as this one.",
    )
    object_kind: ValueKind = Field(default=ValueKind.ENTITY, description="What the object denotes.")
    units: tuple[str, ...] = Field(
        default=(),
        description="For a quantity relation, the words its numbers are counted or measured in ('people' for a"
        " population, 'square kilometres' for an area): a number said in one states this relation of the name"
        " it is said of, whatever the verb ('X is home to 4 million people').",
    )
    positive: str = Field(description="Statement template with {s} and {o}.")
    negative: str = Field(description="Negated statement template with {s} and {o}.")
    question: str = Field(description="Yes/no question template with {s} and {o}.")
    antonyms: tuple[str, ...] = Field(
        default=(), description="Statements that mean the negation, phrased with an antonym."
    )
    phrase: str | None = Field(
        default=None,
        description="Noun phrase with {s} for the object, e.g. 'the capital of {s}' (wh-questions, multi-hop).",
    )

    def named(self, text: str) -> bool:
        """Whether `text` is this relation's name, label or one of its other labels, ignoring case and spacing."""
        wanted = " ".join(text.split()).lower()
        return wanted in {self.name.lower(), self.label.lower(), *(x.lower() for x in self.other_labels)}

    @model_validator(mode="after")
    def _check(self) -> Self:
        templates = {"positive": self.positive, "negative": self.negative, "question": self.question}
        templates.update({f"antonyms[{i}]": t for i, t in enumerate(self.antonyms)})
        for fname, text in templates.items():
            if "{s}" not in text or "{o}" not in text:
                raise ValueError(f"relation {self.name!r}: template {fname} must contain {{s}} and {{o}}, got {text!r}")
        if self.units and self.object_kind != ValueKind.QUANTITY:
            raise ValueError(f"relation {self.name!r}: units are for quantity relations, not {self.object_kind.value}")
        if self.phrase is not None and ("{s}" not in self.phrase or "{o}" in self.phrase):
            raise ValueError(f"relation {self.name!r}: phrase must contain {{s}} and not {{o}}, got {self.phrase!r}")
        if self.narrows == self.name:
            raise ValueError(f"relation {self.name!r}: narrows names the relation itself")
        if self.name in self.disjoint_with:
            raise ValueError(f"relation {self.name!r}: disjoint_with names the relation itself")
        if self.complete and self.functional:
            raise ValueError(f"relation {self.name!r}: a functional relation is complete already; drop 'complete'")
        if self.symmetric and self.functional:
            raise ValueError(
                f"relation {self.name!r}: symmetric and functional together would make every"
                " pair contradict; drop one of them"
            )
        return self

    @classmethod
    def generic(cls, name: str, label: str | None = None, domain: str = "general") -> RelationSpec:
        """A relation with neutral templates and no logical properties (for loaded data)."""
        lab = label or name.replace("_", " ")
        said = label_wording(lab)
        return cls(
            name=name,
            label=lab,
            category=CATEGORIES[said.form],
            domain=domain,
            positive=said.positive,
            negative=said.negative,
            question=said.question,
        )


class CompositeSpec(BaseModel):
    """A two-relation chain rule: first(x, y) and second(y, z) imply result(x, z)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: RelationName
    first: RelationName
    second: RelationName
    result: RelationName


class ComparisonSpec(BaseModel):
    """A numeric relation that comparison questions may use: "Which of A, B and C <most>?"."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    relation: RelationName
    most: str = Field(min_length=1, description="Predicate for the largest value, e.g. 'has the largest population'.")
    least: str = Field(min_length=1, description="Predicate for the smallest value.")


class SameObjectSpec(BaseModel):
    """A "share the same object" rule: r(x, z) and r(y, z), x != y, imply result(x, y)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    relation: RelationName
    result: RelationName


@dataclass(frozen=True, slots=True)
class Entity:
    """A node of the knowledge base."""

    key: str
    label: str
    kind: ValueKind = ValueKind.ENTITY
    aliases: tuple[str, ...] = ()
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Stats:
    """Counts that describe a knowledge base (`drowzee kb stats`)."""

    triples: int
    entities: int
    relations: int
    temporal_facts: int
    negative_facts: int
    domains: dict[str, int]
    sources: dict[str, int]

    def to_json(self) -> dict[str, Any]:
        """JSON-ready dict; the first five keys are the documented `kb stats --json` contract."""
        return {
            "triples": self.triples,
            "entities": self.entities,
            "relations": self.relations,
            "temporal_facts": self.temporal_facts,
            "domains": self.domains,
            "negative_facts": self.negative_facts,
            "sources": self.sources,
        }
