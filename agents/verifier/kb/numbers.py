"""A stated number with a tolerance ("about 67 million") decided against the KB's stored value.

An exact number goes through Prolog like any value (`kb.prove.prove_claim`: a functional relation's
other value refutes it). A rounded or approximate one (`Claim.tolerance`) is compared with the one
value the KB stores for the subject: within the tolerance (relative to the stated number) it is
supported; outside it a functional relation refutes it and any other leaves it unknown. A name
several entities share with different values supports a number near the value of any of
them, as the exact path supports a value any of them stores; near none, it is compared with its first
reading's value, the reading the exact path refutes by (`drowzee_core.kb.naming.first_reading`); no
stored value leaves the exact path to decide.
"""

from __future__ import annotations

from collections.abc import Callable

from agents.verifier.kb.prove import Decided, dates_said, prove_claim, relation_name, stored_value
from drowzee_core.generate.templates_kb import format_number, parse_number
from drowzee_core.kb.naming import resolved
from drowzee_core.kb.template_regex import fill
from drowzee_core.logic.reasoner import MAX_CANDIDATES, Reasoner
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode

_FLIP = {ProofStatus.SUPPORTED: ProofStatus.CONTRADICTED, ProofStatus.CONTRADICTED: ProofStatus.SUPPORTED}


def near(
    reasoner: Reasoner, subject: str, relation: str, value: str, tolerance: float, negated: bool = False
) -> Decided:
    """Decide "subject's `relation` is `value` within `tolerance`" (negated: it is not)."""
    name = relation_name(reasoner, relation)
    stated = parse_number(value)
    if name is None or stated is None or name not in reasoner.catalog:
        return prove_claim(reasoner, subject, relation, value, negated)
    rid = reasoner.relation_ids[name]
    target = stated
    found = (
        stored_value(reasoner, subject, rid, None)
        or _some_value(reasoner, subject, rid, lambda n: abs(n - target) <= tolerance * abs(target))
        or _first_value(reasoner, subject, rid)
    )
    if found is None or not reasoner.store.resolve(subject, MAX_CANDIDATES):
        return prove_claim(reasoner, subject, relation, value, negated)
    label, number, when = found
    spec = reasoner.catalog.get(name)
    inside = abs(number - stated) <= tolerance * abs(stated)
    if not inside and not spec.functional:
        return Decided(ProofStatus.UNKNOWN, None, f"the stored {label} is outside {tolerance:.1%} of {value}")
    fact = ProofNode(
        rule="fact", fact=(subject, name, label), text=fill(spec.positive, subject, label).rstrip(".") + when + "."
    )
    said = "within" if inside else "outside"
    text = f"{label} is {said} {tolerance:.1%} of the stated {format_number(stated)}"
    proof = ProofNode(rule="approximately", fact=(subject, name, value), text=text + ".", premises=[fact])
    status = ProofStatus.SUPPORTED if inside else ProofStatus.CONTRADICTED
    return Decided(_FLIP.get(status, status) if negated else status, proof, f"compared within {tolerance:.1%}")


def _values(reasoner: Reasoner, eid: int, rid: int) -> list[tuple[str, float, str]]:
    """(label, number, when) of each numeric value one entity stores for a relation."""
    return [
        (label, number, dates_said(start, end))
        for oid, start, end in reasoner.store.dated_objects(eid, rid)
        if (number := parse_number(label := reasoner.store.labels([oid])[oid])) is not None
    ]


def _some_value(
    reasoner: Reasoner, subject: str, rid: int, inside: Callable[[float], bool]
) -> tuple[str, float, str] | None:
    """The value, within the tolerance, of one of the entities a shared name names, or None.

    A number said of a name two places share holds of one of them: as the exact path supports a value any
    of them stores, so a number near the value of one of them is supported. Outside every one, the
    first reading refutes it (`_first_value`).
    """
    for eid in resolved(reasoner.store, subject, MAX_CANDIDATES):
        near_ones = [v for v in _values(reasoner, eid, rid) if inside(v[1])]
        if near_ones:
            return near_ones[0]
    return None


def _first_value(reasoner: Reasoner, subject: str, rid: int) -> tuple[str, float, str] | None:
    """(label, number, when) of the one value the name's first reading stores, or None."""
    first = reasoner.store.resolve(subject, 1)
    if not first:
        return None
    values = _values(reasoner, first[0], rid)
    return values[0] if len(values) == 1 else None


__all__ = ["near"]
