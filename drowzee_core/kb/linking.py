"""Link extracted triples to the KB: entities by key / label / alias, relations by their wording.

Relations are matched against each catalog relation's name ("capital_of" -> "capital of") and its
positive template with the placeholders removed ("{s} is the capital of {o}" -> "is the capital of"),
by embedding cosine (>= `threshold`); negated predicates ("not capital of") link to the relation with
`negated=True`. An unlinked part stays None: linking never guesses below the threshold.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore
from drowzee_core.records.triple import Encoder, Triple

_PLACEHOLDER = re.compile(r"\{[so]\}")


@dataclass(frozen=True, slots=True)
class LinkedTriple:
    """A triple with the KB ids it names (None where nothing is close enough)."""

    triple: Triple
    subject: int | None
    relation: str | None
    object: int | None
    negated: bool
    relation_score: float


class KBLinker:
    """Resolves triples against one KB store and its catalog."""

    def __init__(self, store: KBStore, catalog: Catalog, encode: Encoder, threshold: float = 0.6) -> None:
        self.store, self.encode, self.threshold = store, encode, threshold
        names: list[str] = []
        phrases: list[str] = []
        for rel in catalog:
            for text in {rel.name.replace("_", " "), " ".join(_PLACEHOLDER.sub(" ", rel.positive).split())}:
                names.append(rel.name)
                phrases.append(text)
        self._names = names
        self._vecs = encode(phrases)

    def relation(self, predicate: str) -> tuple[str | None, float]:
        """The catalog relation closest to `predicate`, and its cosine."""
        if not predicate.strip() or not self._names:
            return None, 0.0
        scores = self._vecs @ self.encode([predicate])[0]
        best = int(np.argmax(scores))
        score = float(scores[best])
        return (self._names[best] if score >= self.threshold else None), score

    def entity(self, mention: str) -> int | None:
        """The KB entity a mention names, when exactly one matches."""
        found = self.store.resolve(mention.strip(), limit=2)
        return found[0] if len(found) == 1 else None

    def link(self, triple: Triple) -> LinkedTriple:
        """Link one triple."""
        pred = triple.predicate
        negated = pred.startswith("not ")
        relation, score = self.relation(pred[4:] if negated else pred)
        return LinkedTriple(triple, self.entity(triple.subject), relation, self.entity(triple.object), negated, score)
