"""KB-side work of the KB check, run on the KB thread: prove a named claim, decide a comparison.

Names are resolved like `Reasoner.prove` (keys, labels, aliases; every candidate tried, the best
outcome wins). A stated number or year that no entity stands for is still decided: it is a new
constant, so a functional relation's stored value refutes it (Prolog says so, with the proof).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from drowzee_core.errors import KBError
from drowzee_core.generate.prover import NEW_CONSTANT
from drowzee_core.generate.templates_kb import format_number, parse_number
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.naming import first_reading, resolved, typed_names
from drowzee_core.kb.template_regex import fill
from drowzee_core.kb.wording import split_names
from drowzee_core.logic.explain import label_proof, proof_ids
from drowzee_core.logic.mtl import Atom, Finally, Formula, Globally, MTLQuery, Neg, Next, Until, atoms
from drowzee_core.logic.mtl_syntax import parse_query, to_drowzee
from drowzee_core.logic.reasoner import MAX_CANDIDATES, Reasoner, best_outcome, first_reading_partition
from drowzee_core.logic.temporal import TemporalEngine, event_sentence, formula_sentence, years_text
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode

_FLIP = {ProofStatus.SUPPORTED: ProofStatus.CONTRADICTED, ProofStatus.CONTRADICTED: ProofStatus.SUPPORTED}


@dataclass(frozen=True, slots=True)
class Decided:
    """A claim's status on one KB, its proof and how its names were linked."""

    status: ProofStatus
    proof: ProofNode | None
    note: str
    linked: bool = True
    """Whether the KB knows the claim's relation and names (False: it could not even read the claim)."""


def objects_of(reasoner: Reasoner, relation: str, obj: str) -> tuple[list[int], str]:
    """The object's entity candidates; a number is looked up as written and as the KB writes it ("3,784,539")."""
    found = typed_names(reasoner.store, reasoner.catalog, obj, relation, "o", MAX_CANDIDATES)
    number = parse_number(obj)
    if not found and number is not None:
        found = typed_names(reasoner.store, reasoner.catalog, format_number(number), relation, "o", MAX_CANDIDATES)
    if found:
        return found, ""
    spec = reasoner.catalog.get(relation)
    if spec.object_kind != ValueKind.ENTITY and number is not None:
        return [NEW_CONSTANT], f"{obj!r} is a value no KB entity holds"
    return [], f"object {obj!r} is not in the KB"


def relation_name(reasoner: Reasoner, text: str) -> str | None:
    """The KB's name of a relation given by catalog name or label (a scratch KB's generic ones too)."""
    try:
        return reasoner.relation_names[reasoner.relation_id(text)]
    except KBError:
        return None


def prove_claim(reasoner: Reasoner, subject: str, relation: str, obj: str, negated: bool = False) -> Decided:
    """Prove (subject, relation, object) by names; a negated claim's status is flipped."""
    name = relation_name(reasoner, relation)
    if name is None:
        return Decided(ProofStatus.UNKNOWN, None, f"relation {relation!r} is not in this KB", linked=False)
    relation = name
    subs = typed_names(reasoner.store, reasoner.catalog, subject, relation, "s", MAX_CANDIDATES)
    if not subs:
        return Decided(ProofStatus.UNKNOWN, None, f"subject {subject!r} is not in the KB", linked=False)
    objs, note = objects_of(reasoner, relation, obj)
    if not objs:
        return Decided(ProofStatus.UNKNOWN, None, note, linked=False)
    rid = reasoner.relation_ids[relation]
    first = (first_reading(reasoner.store, subject, subs), first_reading(reasoner.store, obj, objs))
    best, _s, _o = best_outcome(
        subs, objs, lambda s, o: first_reading_partition(reasoner.engine.prove(s, rid, o), (s, o), first)
    )
    labels = reasoner.store.labels([i for i in (*proof_ids(best.proof), *subs, *objs) if i != NEW_CONSTANT])
    labels[NEW_CONSTANT] = obj
    labelled = label_proof(
        best.proof, labels, reasoner.relation_names, reasoner.catalog, reasoner.rules.composite_names
    )
    proof = ProofNode.model_validate(labelled) if labelled is not None else None
    status = _FLIP.get(best.status, best.status) if negated else best.status
    return Decided(status, proof, note or f"{len(subs)} subject and {len(objs)} object candidate(s)")


def common(reasoner: Reasoner, subject: str, relation: str, other: str, negated: bool = False) -> Decided:
    """Decide "subject and other are both `relation` the same thing" (negated: not the same)."""
    name = relation_name(reasoner, relation)
    if name is None:
        return Decided(ProofStatus.UNKNOWN, None, f"relation {relation!r} is not in this KB", linked=False)
    v = reasoner.common_object(subject, name, other)
    proof = ProofNode.model_validate(v.proof) if v.proof is not None else None
    status = _FLIP.get(v.status, v.status) if negated else v.status
    return Decided(status, proof, v.relation or "common object")


def dates_said(start: int | None, end: int | None) -> str:
    """A fact's dates as shown after its value, `(1967)` or `(1960-1970)` after a space; empty when undated."""
    if start is None and end is None:
        return ""
    if start == end:
        return f" ({start})"
    return f" ({'' if start is None else start}-{'' if end is None else end})"


def stored_value(reasoner: Reasoner, name: str, rid: int, year: int | None) -> tuple[str, float, str] | None:
    """(label, number, when) of `name`'s stored value (at `year` when dated); None when none or several differ.

    Every entity the name resolves to counts: a name several entities share with different values is
    ambiguous (None). A value dated to periods that do not cover `year` does not count; undated
    values count at any year.
    """
    found: dict[float, tuple[str, str]] = {}
    for eid in resolved(reasoner.store, name, MAX_CANDIDATES):
        for oid, start, end in reasoner.store.dated_objects(eid, rid):
            dated = start is not None or end is not None
            if year is not None and dated and not ((start is None or start <= year) and (end is None or year <= end)):
                continue
            label = reasoner.store.labels([oid])[oid]
            if (v := parse_number(label)) is not None:
                found.setdefault(v, (label, dates_said(start, end)))
    if len(found) != 1:  # none, or a name several entities share with different values ("Wright")
        return None
    number, (label, when) = next(iter(found.items()))
    return label, number, when


def _known_names(reasoner: Reasoner, name: str) -> list[str]:
    """`name`, or the names of the list it is ("Uruguay and Spain") when only those are in the KB."""
    parts = split_names(name)
    if len(parts) < 2 or reasoner.store.resolve(name, 1) or not all(reasoner.store.resolve(p, 1) for p in parts):
        return [name]
    return parts


def compare(
    reasoner: Reasoner,
    subject: str,
    relation: str,
    direction: str,
    candidates: tuple[str, ...],
    year: int | None = None,
) -> Decided:
    """Decide "subject has the most / least `relation` among candidates [at `year`]" from the stored values.

    Without candidates besides the subject there is nothing to compare with: the claim stays unknown.
    An entity with no stored value, or with several different ones and no year to choose by, leaves
    the claim unknown too.
    """
    name = relation_name(reasoner, relation)
    if name is None:
        return Decided(ProofStatus.UNKNOWN, None, f"relation {relation!r} is not in this KB", linked=False)
    relation = name
    rid = reasoner.relation_ids[relation]
    spec = reasoner.catalog.get(relation)
    names = list(dict.fromkeys(n for c in (*candidates, subject) for n in _known_names(reasoner, c)))
    if len(names) < 2:
        return Decided(ProofStatus.UNKNOWN, None, f"no entities named to compare {subject!r} with")
    values = {n: stored_value(reasoner, n, rid, year) for n in names}
    missing = [n for n, v in values.items() if v is None]
    if missing:
        at = f" in {year}" if year is not None else ""
        return Decided(ProofStatus.UNKNOWN, None, f"no single stored {relation}{at} for {missing}")
    nums = {n: v[1] for n, v in values.items() if v is not None}
    pick = max if direction == "most" else min
    best = pick(nums.values())
    winners = [n for n, v in nums.items() if v == best]
    premises = [
        ProofNode(rule="fact", fact=(n, relation, label), text=fill(spec.positive, n, label).rstrip(".") + when + ".")
        for n, (label, _v, when) in ((n, v) for n, v in values.items() if v is not None)
    ]
    ok = subject in winners and len(winners) == 1
    if spec.object_kind == ValueKind.YEAR:
        word = "latest" if direction == "most" else "earliest"
    else:
        word = "largest" if direction == "most" else "smallest"
    at = f" in {year}" if year is not None else ""
    text = (
        f"{subject} has the {word} {spec.label}{at} ({format_number(nums[subject])})"
        if ok
        else f"{', '.join(winners)}, not {subject}, has the {word} {spec.label}{at} ({format_number(best)})"
    )
    proof = ProofNode(rule="comparison", fact=(subject, relation, direction), text=text + ".", premises=premises)
    return Decided(ProofStatus.SUPPORTED if ok else ProofStatus.CONTRADICTED, proof, "compared stored values")


MAX_READINGS = 16
"""Most readings of an MTL claim tried (one event per atom name, where a name fits several events)."""


def _keyed(f: Formula, keys: dict[str, str]) -> Formula:
    """`f` with each atom renamed to the key of the event chosen for it."""
    if isinstance(f, Atom):
        return Atom(keys[f.name])
    if isinstance(f, Finally | Globally):
        return type(f)(f.lo, f.hi, _keyed(f.child, keys))
    if isinstance(f, Until):
        return Until(f.lo, f.hi, _keyed(f.left, keys), _keyed(f.right, keys))
    if isinstance(f, Next | Neg):
        return type(f)(_keyed(f.child, keys))
    return type(f)(_keyed(f.left, keys), _keyed(f.right, keys))


def temporal(engine: TemporalEngine, mtl: str, negated: bool = False) -> Decided:
    """Decide "the MTL query `mtl` holds" (negated: does not hold) over the engine's dated events.

    The formula is evaluated as the temporal generator computes its gold answers (the engine's
    horizon bounds negation). An atom naming no known event leaves the claim unknown: absence of an
    event is never "false". Where a name fits several events ("the lifetime of Curie"), every
    reading is tried, as names are for triples: one that makes the claim hold proves it; it is
    refuted only when every reading refutes it.
    """
    query = parse_query(mtl)
    names = list(dict.fromkeys(atoms(query.formula)))
    options = [engine.table.candidates(n) for n in names]
    missing = [n for n, o in zip(names, options, strict=True) if not o]
    if missing:
        return Decided(ProofStatus.UNKNOWN, None, f"event(s) {missing} not in the KB", linked=False)
    combos = list(itertools.islice(itertools.product(*options), MAX_READINGS))
    readings = [
        MTLQuery(_keyed(query.formula, {n: e.key for n, e in zip(names, c, strict=True)}), query.year) for c in combos
    ]
    answers = engine.check_many(readings)
    pick = next((i for i, a in enumerate(answers) if a.truth != negated), 0)
    answer = answers[pick]
    premises = [
        ProofNode(
            rule="fact",
            fact=(e.label, "holds in", years_text(e.intervals)),
            text=event_sentence(e.label, e.intervals),
        )
        for e in answer.events
    ]
    text = formula_sentence(query.formula, answer.intervals, query.year)
    proof = ProofNode(
        rule="mtl", fact=(to_drowzee(query.formula), "holds in", str(query.year)), text=text, premises=premises
    )
    status = ProofStatus.SUPPORTED if answer.truth != negated else ProofStatus.CONTRADICTED
    note = f"MTL over {len(engine.table)} events, horizon {list(engine.horizon)}"
    if len(combos) > 1:
        agree = sum(a.truth == answer.truth for a in answers)
        note += f"; {len(combos)} readings of the event names, {agree} give this answer"
    return Decided(status, proof, note)


__all__ = ["Decided", "common", "compare", "dates_said", "prove_claim", "relation_name", "stored_value", "temporal"]
