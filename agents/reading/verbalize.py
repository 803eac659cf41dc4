"""A reading as a claim: its kind and triple on a claim record, and its words as the catalog says them."""

from __future__ import annotations

from agents.reading.reader import Reading
from agents.schemas import Claim, ClaimKind, ClaimOrigin
from drowzee_core.generate.templates_kb import lower_lead
from drowzee_core.kb.catalog import Catalog

KINDS = {"triple": ClaimKind.TRIPLE, "common": ClaimKind.COMMON, "count": ClaimKind.COUNT}


def reading_claim(base: Claim, r: Reading, origin: ClaimOrigin, text: str) -> Claim:
    """`base` with the reading's kind, triple, polarity, tense, tolerance and year, and `text`."""
    return base.model_copy(
        update={
            "kind": KINDS[r.kind],
            "origin": origin,
            "text": text,
            "subject": r.subject,
            "relation": r.relation,
            "object": r.object,
            "negated": r.negated,
            "past": r.past,
            "tolerance": r.tolerance,
            "year": r.year,
        }
    )


def verbalize(catalog: Catalog, r: Reading) -> str:
    """The reading as the catalog words it ("Germany does not share a border with France."), or as the label reads."""
    if r.kind == "common":
        said = "do not stand" if r.negated else "stand"
        return f"{r.subject} and {r.object} {said} in '{r.relation}' to one same thing."
    if r.kind == "count":
        said = "Fewer than" if r.negated else "At least"
        return f"{said} {r.object} different things stand in '{r.relation}' to {r.subject}."
    if r.relation not in catalog:  # a supplied triple's relation label
        said = f"{r.subject} {r.relation} {r.object}."
        return f"It is not the case that {said[:-1]}." if r.negated else said
    spec = catalog.get(r.relation)
    said = (spec.negative if r.negated else spec.positive).format(s=r.subject, o=r.object)
    return f"In {r.year}, {lower_lead(said)}" if r.year is not None else said


__all__ = ["KINDS", "reading_claim", "verbalize"]
