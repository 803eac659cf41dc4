"""A claim put at a year ("In 1995 France used the euro") decided by the dates the KB stores with the fact.

The stored fact (subject, relation, object) is looked up with its years: a fact dated to a period
that covers the year supports the claim; a fact the KB holds only for other periods refutes it (the
KB dates it, and the year is outside). Another time word ("until 2001", "since 1999", "before", "by",
"after") is the MTL formula of `drowzee_core.logic.time_words` over the fact's periods. An undated
fact says nothing of the year ("In 1985 the capital of Germany was Berlin": the KB's undated capital
fact is today's), so the claim stays unknown, unless the fact is an event a year relation dates
("X proved Y in 1994": `event_years`); but a claim "since" a year takes in today, so what the KB
refutes today (a value its complete list leaves out) it refutes. When the KB holds no such fact, the claim
goes to Prolog as a past-tense claim (`kb_check`: a unique value the KB holds today does not refute it).
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date

from agents.verifier.kb.event_years import by_year_relation
from agents.verifier.kb.prove import Decided, objects_of, prove_claim, relation_name
from drowzee_core.kb.naming import typed_names
from drowzee_core.kb.template_regex import fill
from drowzee_core.logic.reasoner import MAX_CANDIDATES, Reasoner
from drowzee_core.logic.time_words import time_phrase, timed_truth
from drowzee_core.records.enums import ProofStatus, TimeWord
from drowzee_core.records.proof import ProofNode

_FLIP = {ProofStatus.SUPPORTED: ProofStatus.CONTRADICTED, ProofStatus.CONTRADICTED: ProofStatus.SUPPORTED}


def _period(start: int | None, end: int | None) -> str:
    return f"{'' if start is None else start}-{'' if end is None else end}"


def at_year(
    reasoner: Reasoner,
    subject: str,
    relation: str,
    obj: str,
    year: int,
    negated: bool = False,
    time: TimeWord = TimeWord.AT,
) -> Decided:
    """Decide (subject, relation, object) at `year` from the stored fact's dates (negated: it did not hold).

    With another time word than "in" (`time`: "until 2001", "since 1999", ...), the claim is its MTL
    formula over the fact's periods (`drowzee_core.logic.time_words`).
    """
    name = relation_name(reasoner, relation)
    if name is None:
        if time != TimeWord.AT:
            return Decided(ProofStatus.UNKNOWN, None, f"no KB relation reads '{relation}': nothing is dated")
        return prove_claim(reasoner, subject, relation, obj, negated)
    subs = typed_names(reasoner.store, reasoner.catalog, subject, name, "s", MAX_CANDIDATES)
    objs, _note = objects_of(reasoner, name, obj) if name in reasoner.catalog else (reasoner.store.resolve(obj, 4), "")
    periods = [
        (s, o, start, end)
        for s in subs
        for o, start, end in reasoner.store.dated_objects(s, reasoner.relation_ids[name])
        if o in objs
    ]
    if not periods:
        return _derived_at_year(reasoner, subject, name, obj, year, negated, time)
    if all(start is None and end is None for _s, _o, start, end in periods):
        event = by_year_relation(reasoner, subject, name, obj, year, negated, time)
        if event is not None:
            return event
        return Decided(ProofStatus.UNKNOWN, None, f"the KB holds this fact undated: it says nothing of {year}")
    if time != TimeWord.AT:
        return _timed(reasoner, name, periods, year, negated, time)
    covering = [p for p in periods if (p[2] is None or p[2] <= year) and (p[3] is None or year <= p[3])]
    s, o, start, end = (covering or periods)[0]
    labels = reasoner.store.labels([s, o])
    dated = "" if start is None and end is None else f" ({_period(start, end)})"
    said = _said(reasoner, name, labels[s], labels[o])
    fact = ProofNode(rule="fact", fact=(labels[s], name, labels[o]), text=f"{said}{dated}.")
    if covering:
        status, text = ProofStatus.SUPPORTED, f"The KB's fact holds in {year}{dated}"
    else:
        status, text = ProofStatus.CONTRADICTED, f"The KB dates this fact to {_period(start, end)}, not {year}"
    proof = ProofNode(rule="at_year", fact=(labels[s], name, labels[o]), text=text + ".", premises=[fact])
    return Decided(_FLIP.get(status, status) if negated else status, proof, f"dated fact at {year}")


def _said(reasoner: Reasoner, name: str, subject: str, obj: str) -> str:
    """A stored fact as its relation's template words it (or as the label reads), without the period."""
    if name in reasoner.catalog:
        return fill(reasoner.catalog.get(name).positive, subject, obj).rstrip(".")
    return f"{subject} {name} {obj}"


def _timed(
    reasoner: Reasoner,
    name: str,
    periods: Sequence[tuple[int, int, int | None, int | None]],
    year: int,
    negated: bool,
    time: TimeWord,
) -> Decided:
    """A time-worded claim decided by the MTL formula over each matching fact's periods (one true: it holds)."""
    by_fact: dict[tuple[int, int], list[tuple[int | None, int | None]]] = {}
    for s, o, start, end in periods:
        by_fact.setdefault((s, o), []).append((start, end))
    today = date.today().year
    truths = [(key, timed_truth(time, year, spans, today)) for key, spans in by_fact.items()]
    decided = [(key, t) for key, t in truths if t is not None]
    if not decided:
        return Decided(
            ProofStatus.UNKNOWN, None, f"the KB holds this fact undated: it says nothing of {time_phrase(time, year)}"
        )
    (s, o), truth = next(((k, t) for k, t in decided if t.holds), decided[0])
    labels = reasoner.store.labels([s, o])
    said = _said(reasoner, name, labels[s], labels[o])
    spans = ", ".join(_period(a, b) for a, b in sorted(by_fact[(s, o)], key=lambda p: (p[0] or 0, p[1] or 0)))
    fact = ProofNode(rule="fact", fact=(labels[s], name, labels[o]), text=f"{said} ({spans}).")
    verdict = "holds" if truth.holds else "does not hold"
    text = f"The KB dates this fact to {spans}: it {verdict} {time_phrase(time, year)} (MTL {truth.formula})."
    proof = ProofNode(rule="at_year", fact=(labels[s], name, labels[o]), text=text, premises=[fact])
    status = ProofStatus.SUPPORTED if truth.holds else ProofStatus.CONTRADICTED
    return Decided(_FLIP.get(status, status) if negated else status, proof, f"dated fact {time_phrase(time, year)}")


def _derived_at_year(
    reasoner: Reasoner, subject: str, name: str, obj: str, year: int, negated: bool, time: TimeWord = TimeWord.AT
) -> Decided:
    """A claim at a year with no stored fact of its own: a derived fact's dates are those of its premises.

    A composite over a transitive first relation holds of the subject itself by its second relation
    ("Germany uses the euro" by "The currency of Germany is Euro"): that relation's dated facts decide
    the year. Any other derived fact is not decided at a year (its premises' dates are not joined), so
    a fact the KB holds only since 1999 never supports a claim about 1990.
    """
    d = prove_claim(reasoner, subject, name, obj, negated)
    if time == TimeWord.SINCE and year <= date.today().year and not negated and d.status == ProofStatus.CONTRADICTED:
        return _refuted_today(subject, name, obj, year, d)
    holds = ProofStatus.CONTRADICTED if negated else ProofStatus.SUPPORTED  # the fact itself holds
    if d.status == holds and (event := by_year_relation(reasoner, subject, name, obj, year, negated, time)):
        return event
    if time != TimeWord.AT and d.status == ProofStatus.SUPPORTED and (d.proof is None or d.proof.rule == "fact"):
        return Decided(
            ProofStatus.UNKNOWN, None, f"the KB holds this fact undated: it says nothing of {time_phrase(time, year)}"
        )
    if d.status == ProofStatus.UNKNOWN or d.proof is None or d.proof.rule == "fact":
        return d
    own = [c.second for c in reasoner.catalog.composites if c.result == name and _transitive(reasoner, c.first)]
    for second in own:
        sub = at_year(reasoner, subject, second, obj, year, negated, time)
        if sub.status != ProofStatus.UNKNOWN and sub.proof is not None and sub.proof.rule == "at_year":
            return sub
    return Decided(ProofStatus.UNKNOWN, None, f"derived facts are not dated: the KB cannot say this of {year}")


def _refuted_today(subject: str, name: str, obj: str, year: int, today: Decided) -> Decided:
    """A claim said to hold since `year` holds today too: what the KB's present facts refute, it refutes.

    The KB's undated facts are today's ("the currencies of X", a complete list); "since 2002" takes in today,
    so a claim they refute today is refuted, whatever held before (that part stays unsaid).
    """
    text = f"A fact since {year} holds today too, and today the KB refutes it."
    premises = [today.proof] if today.proof is not None else []
    proof = ProofNode(rule="at_year", fact=(subject, name, obj), text=text, premises=premises)
    return Decided(ProofStatus.CONTRADICTED, proof, f"refuted today, which 'since {year}' takes in")


def _transitive(reasoner: Reasoner, relation: str) -> bool:
    return relation in reasoner.catalog and reasoner.catalog.get(relation).transitive


__all__ = ["at_year"]
