"""An undated event put at a year, decided by the year relation that dates it ("X proved Y in 1994").

`drowzee_core.kb.event_years` reads from the declarations which year relation dates a relation's facts
("{s} was proved by {o}" is dated by "{s} was proved in {o}"). The claim is then two facts, the event and
its year, and is decided as their conjunction: both proved support it; either refuted refutes it ("Y was
proved in 1995, not 1994"); otherwise it stays unknown. "In" a year is the year fact itself, proved by
Prolog (a functional year relation refutes another year). "Before", "by" and "after" a year compare the
one year the KB stores, where the year relation is functional. "Until" and "since" say how long a state
lasted, which an event's year does not: they stay with the caller.
"""

from __future__ import annotations

from agents.verifier.kb.prove import Decided, prove_claim, relation_name
from drowzee_core.kb.event_years import year_relation_of
from drowzee_core.kb.naming import typed_names
from drowzee_core.logic.reasoner import MAX_CANDIDATES, Reasoner
from drowzee_core.logic.time_words import time_phrase
from drowzee_core.records.enums import ProofStatus, TimeWord
from drowzee_core.records.proof import ProofNode

_FLIP = {ProofStatus.SUPPORTED: ProofStatus.CONTRADICTED, ProofStatus.CONTRADICTED: ProofStatus.SUPPORTED}
_COMPARED = {
    TimeWord.BEFORE: lambda stored, year: stored < year,
    TimeWord.BY: lambda stored, year: stored <= year,
    TimeWord.AFTER: lambda stored, year: stored > year,
    TimeWord.DECADE: lambda stored, year: year <= stored <= year + 9,
}


def by_year_relation(
    reasoner: Reasoner, subject: str, name: str, obj: str, year: int, negated: bool, time: TimeWord
) -> Decided | None:
    """Decide the event (subject, name, object) at `year` by the relation that dates it (module doc).

    None where no year relation dates `name` (nor its inverse, whose year is the object's: "A surveyed X in
    1744" is dated by X's survey year), or the time word is one an event's year cannot decide.
    """
    other, dated = year_relation_of(reasoner.catalog, name), subject
    inverse = reasoner.catalog.get(name).inverse_of if name in reasoner.catalog else None
    if other is None and inverse is not None and inverse in reasoner.catalog:
        # "A surveyed X in 1744": the event is the inverse relation's fact of X, which its year relation dates
        other, dated = year_relation_of(reasoner.catalog, inverse), obj
    if other is None or (time != TimeWord.AT and time not in _COMPARED):
        return None
    event = prove_claim(reasoner, subject, name, obj)
    when = (
        prove_claim(reasoner, dated, other, str(year))
        if time == TimeWord.AT
        else _compared(reasoner, dated, other, year, time)
    )
    if ProofStatus.CONTRADICTED in (event.status, when.status):
        status = ProofStatus.CONTRADICTED
    elif event.status == when.status == ProofStatus.SUPPORTED:
        status = ProofStatus.SUPPORTED
    else:
        return None
    premises = [d.proof for d in (event, when) if d.proof is not None]
    label = reasoner.catalog.get(other).label
    if status == ProofStatus.SUPPORTED:
        said = "the event and its year both hold"
    else:
        said = "the event does not hold" if event.status == ProofStatus.CONTRADICTED else f"its {label} does not fit"
    text = f"The KB stores the event undated and dates it by its {label}: {said}."
    fact = event.proof.fact if event.proof is not None and event.proof.fact else (subject, name, obj)
    proof = ProofNode(rule="at_year", fact=fact, text=text, premises=premises)
    final = _FLIP.get(status, status) if negated else status
    return Decided(final, proof, f"the event and its {other} {time_phrase(time, year)}")


def _compared(reasoner: Reasoner, subject: str, other: str, year: int, time: TimeWord) -> Decided:
    """Decide "before / by / after" a year, or "in the 1730s", by the one year a functional year relation stores."""
    spec = reasoner.catalog.get(other)
    subs = typed_names(reasoner.store, reasoner.catalog, subject, other, "s", MAX_CANDIDATES)
    rid = reasoner.relation_ids.get(other)
    stored = {
        (s, o)
        for s in subs[:1]
        for o, _start, _end in (reasoner.store.dated_objects(s, rid) if rid is not None else [])
    }
    if not spec.functional or len(stored) != 1:
        return Decided(ProofStatus.UNKNOWN, None, f"no one {other} is stored")
    ((s, o),) = stored
    labels = reasoner.store.labels([s, o])
    try:
        value = int(labels[o])
    except ValueError:
        return Decided(ProofStatus.UNKNOWN, None, f"the stored {other} is no year: {labels[o]!r}")
    holds = _COMPARED[time](value, year)
    fact = ProofNode(
        rule="fact", fact=(labels[s], other, labels[o]), text=f"The {spec.label} of {labels[s]} is {value}."
    )
    verdict = "fits" if holds else "does not fit"
    proof = ProofNode(
        rule="compare",
        fact=(labels[s], other, labels[o]),
        text=f"{value} {verdict} '{time_phrase(time, year)}'.",
        premises=[fact],
    )
    return Decided(
        ProofStatus.SUPPORTED if holds else ProofStatus.CONTRADICTED, proof, f"{value} {time_phrase(time, year)}"
    )


def in_decade(reasoner: Reasoner, subject: str, relation: str, decade: int, negated: bool = False) -> Decided:
    """Decide "the subject's `relation` (a functional year relation) is a year of the decade from `decade`"."""
    name = relation_name(reasoner, relation)
    if name is None or name not in reasoner.catalog:
        return Decided(ProofStatus.UNKNOWN, None, f"relation {relation!r} is not in this KB", linked=False)
    d = _compared(reasoner, subject, name, decade, TimeWord.DECADE)
    return Decided(_FLIP.get(d.status, d.status) if negated else d.status, d.proof, d.note, d.linked)


__all__ = ["by_year_relation", "in_decade"]
