"""A reading as a claim: its kind and triple on a claim record, and its words as the catalog says them."""

from __future__ import annotations

import dataclasses

from agents.reading.candidates.reader import Reading
from agents.reading.claim_types import (
    Claim,
    ClaimOrigin,
    CommonClaim,
    CountClaim,
    RelatedClaim,
    TripleClaim,
)
from agents.reading.mentions import as_decade
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.label_grammar import LabelForm, label_form, label_wording
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.template_regex import fill
from drowzee_core.kb.wording import lower_lead
from drowzee_core.records.enums import TimeWord


def reading_claim(base: Claim | None, r: Reading, origin: ClaimOrigin, text: str) -> RelatedClaim:
    """The reading as a claim of its kind, worded `text`, at `base`'s id and span (none without a base).

    A triple read again from a template's triple keeps whether it is one alternative of an either-or.
    """
    id_, span = (base.id, base.span) if base is not None else ("", None)
    if r.kind == "common":
        return CommonClaim(
            id=id_, text=text, span=span, origin=origin, subject=r.subject, relation=r.relation, object=r.object,
            negated=r.negated, past=r.past,
        )  # fmt: skip
    if r.kind in ("count", "values"):
        return CountClaim(
            id=id_, text=text, span=span, origin=origin, subject=r.subject, relation=r.relation,
            at_least=int(r.object), negated=r.negated, past=r.past, values=r.kind == "values",
        )  # fmt: skip
    return TripleClaim(
        id=id_, text=text, span=span, origin=origin, subject=r.subject, relation=r.relation, object=r.object,
        negated=r.negated, past=r.past, tolerance=r.tolerance, year=r.year, time=r.time,
        disjunctive=isinstance(base, TripleClaim) and base.disjunctive,
    )  # fmt: skip


def plural(noun_phrase: str) -> str:
    """A noun phrase with its last noun in the plural ("official language" -> "official languages")."""
    head, _, last = noun_phrase.rpartition(" ")
    if last.endswith("y") and last[-2:-1] not in ("a", "e", "o", "u"):
        last = last[:-1] + "ies"
    elif last.endswith(("s", "x", "ch", "sh")):
        last += "es"
    else:
        last += "s"
    return f"{head} {last}" if head else last


def verbalize(catalog: Catalog, r: Reading) -> str:
    """The reading as the catalog words it ("Germany does not share a border with France."), or as the label reads."""
    if r.kind == "common":
        label = catalog.get(r.relation).label if r.relation in catalog else r.relation
        form = label_form(label)
        if form == LabelForm.NOUN:  # "Lyon and Nice have a mayor in common"
            return f"{r.subject} and {r.object} have {'no' if r.negated else 'a'} {label} in common."
        if form == LabelForm.PASSIVE:  # "A and B are both distributed by one same thing"
            return f"{r.subject} and {r.object} are {'not' if r.negated else 'both'} {label} one same thing."
        said = "do not stand" if r.negated else "stand"
        return f"{r.subject} and {r.object} {said} in '{label}' to one same thing."
    if r.kind == "values":
        label = catalog.get(r.relation).label if r.relation in catalog else r.relation
        said = "does not have exactly" if r.negated else "has"
        return f"{r.subject} {said} {r.object} {label if r.object == '1' else plural(label)}."
    if r.kind == "count":
        said = "Fewer than" if r.negated else "At least"
        return f"{said} {r.object} different things stand in '{r.relation}' to {r.subject}."
    if r.relation in catalog:
        spec = catalog.get(r.relation)
        template = spec.negative if r.negated else spec.positive
    else:  # a supplied triple's relation label, worded by its grammar ("distributed by": "X is distributed by Y")
        wording = label_wording(r.relation)
        template = wording.negative if r.negated else wording.positive
    if r.year is not None and r.time == TimeWord.DECADE and r.object == str(r.year):
        said = fill(template, r.subject, f"the {r.year}s")  # "Velox first appeared in the 1730s": the value a decade
        return said[:1].upper() + said[1:]
    said = fill(template, r.subject, r.object)
    if r.year is not None and r.time == TimeWord.DECADE:
        return f"In the {r.year}s, {lower_lead(said)}"
    if r.year is not None:
        return f"{TIME_LEADS[r.time]} {r.year}, {lower_lead(said)}"
    return said[:1].upper() + said[1:]  # a name written in lower case ("uranium") still opens a sentence


def decade_valued(r: Reading, text: str, catalog: Catalog) -> Reading:
    """A year relation's value said as a decade ("appeared in the 1730s") put at the decade: any of its years.

    The finder makes "in the 1730s" the year mention 1730; as a year relation's object it says the value
    is one of 1980-1989 (`TimeWord.DECADE`, decided by the KB check against the one stored year).
    """
    if r.kind != "triple" or r.year is not None or r.relation not in catalog:
        return r
    if catalog.get(r.relation).object_kind != ValueKind.YEAR:
        return r
    decades = {as_decade(w.strip(".,;:!?")) for w in text.split()}
    if not r.object.isdigit() or int(r.object) not in decades:
        return r
    return dataclasses.replace(r, year=int(r.object), time=TimeWord.DECADE)


TIME_LEADS = {
    TimeWord.AT: "In",
    TimeWord.UNTIL: "Until",
    TimeWord.SINCE: "Since",
    TimeWord.BEFORE: "Before",
    TimeWord.BY: "By",
    TimeWord.AFTER: "After",
}
"""How a dated claim is worded ("Until 2001, the currency of France was ...")."""


__all__ = ["decade_valued", "plural", "reading_claim", "verbalize"]
