"""What the Knowledge base tab shows, as typed results: KB counts, entities, their stored and derived facts.

Every function takes the verifier's `Services` and must run on its KB thread (`Runtime.kb_call`): the
store and Prolog belong to that thread. Stored facts are verbalized by `KBFacts` (the Seeker's tool);
derived facts are the consequences of the catalog's rules (symmetric, inverse, transitive, composite)
that are not stored, each proved by the reasoner. Loading a file is `kbload.py`.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Literal

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.errors import KBError
from drowzee_core.logic import session
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode
from drowzee_core.retrieval.kbfacts import MAX_FACTS

if TYPE_CHECKING:
    from agents.verifier.services import Services
    from drowzee_core.kb.store import KBStore

log = logging.getLogger(__name__)

MAX_TEXT_CHARS = 300
"""Longest search text or entity name."""
MAX_SEARCH = 100
"""Most entities one search returns."""
MAX_DERIVED = 200
"""Most derived facts one call proves and returns."""
MAX_CANDIDATES = 20
"""Entities a name may resolve to before the one with the most facts is picked."""

# Candidates for derived facts about entity E (proved one by one afterwards). Level-1 and composite
# facts are materialized in dfact/5; transitive ones (and the inverse of a transitive closure) are
# reached through tc/3 along a relation's edges, which include the level-1 inverse facts.
_OUTGOING = (
    "findall([_R,_O], limit(M, {m}:("
    "dfact(E,_R,_O,_,_)"
    " ; (transitive(_R) ; inverse(_R,_Rc), \\+ transitive(_R), canonical_transitive(_Rc)),"
    " tc(E,_R,_O), \\+ edge(E,_R,_O))), X)"
)
_INCOMING = (
    "findall([_S,_R], limit(M, {m}:("
    "dfact(_S,_R,E,_,_)"
    " ; inverse(_R,_Ri), (transitive(_R) ; \\+ transitive(_R), canonical_transitive(_Ri)),"
    " tc(E,_Ri,_S), \\+ edge(_S,_R,E)"
    " ; transitive(_R), \\+ inverse(_R,_), closure(_S,_R,E), \\+ edge(_S,_R,E))), X)"
)


class KBViewError(KBError):
    """A Knowledge base query or load cannot be done as asked; the message says what to change."""


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class KBSummary(_Model):
    """The KB's size and content fingerprint."""

    path: str = Field(description="The KB file.")
    entities: int
    triples: int
    relations: int = Field(description="Relations that have at least one triple.")
    fingerprint: str = Field(description="Content hash recorded in provenance.")


class EntityHit(_Model):
    """One entity: its key, label, kind, description, the domains of its facts and how many it has."""

    key: str
    label: str
    kind: str = Field(description="entity, year or quantity.")
    description: str | None = None
    domains: list[str] = Field(default_factory=list, description="Domains of the facts it takes part in.")
    facts: int = Field(description="Stored facts it is the subject or object of.")


class StoredFact(_Model):
    """A stored triple about the entity, as a sentence."""

    text: str
    ref: str = Field(description="`subject key|relation|object key` (+ `|not`, `@start-end`).")
    direction: Literal["subject", "object"] = Field(description="Whether the entity is the fact's subject or object.")


class EntityFacts(_Model):
    """Stored facts about one entity (both directions)."""

    entity: EntityHit
    alternatives: list[str] = Field(default_factory=list, description="Other entity keys the name matched.")
    facts: list[StoredFact]
    truncated: bool = Field(description="More facts exist than were returned.")


class DerivedFact(_Model):
    """A fact that holds by the catalog's rules but is not stored, with its proof."""

    text: str
    subject_key: str
    relation: str
    object_key: str
    rule: str = Field(description="The rule at the top of the proof (symmetric, inverse, transitive, composite:NAME).")
    proof: ProofNode


class DerivedFacts(_Model):
    """Derived facts about one entity (both directions)."""

    entity: EntityHit
    alternatives: list[str] = Field(default_factory=list)
    facts: list[DerivedFact]
    truncated: bool = Field(description="More candidates existed than were proved.")


def _text(text: str, what: str) -> str:
    text = (text or "").strip()
    if not text:
        raise KBViewError(f"{what} is empty; type an entity label, alias or key (e.g. Paris)")
    if len(text) > MAX_TEXT_CHARS:
        raise KBViewError(f"{what} has {len(text)} characters; the limit is {MAX_TEXT_CHARS}")
    return text


def _limit(limit: int, most: int) -> int:
    if not 1 <= limit <= most:
        raise KBViewError(f"`limit` must be in [1, {most}], got {limit}")
    return limit


def kb_summary(services: Services) -> KBSummary:
    """Counts and fingerprint of the running KB."""
    stats = services.store.stats()
    return KBSummary(
        path=str(services.store.path),
        entities=stats.entities,
        triples=stats.triples,
        relations=stats.relations,
        fingerprint=services.kb_fingerprint,
    )


def relation_choices(services: Services) -> list[tuple[str, str]]:
    """(`label (name)`, name) of every catalog relation, by label: the choices of a relation picker."""
    return sorted(((f"{s.label} ({s.name})", s.name) for s in services.catalog), key=lambda c: c[0].lower())


def _hit(store: KBStore, eid: int) -> EntityHit:
    ent = store.entity(eid)
    db = store.db
    count = sum(db.execute(f"SELECT count(*) FROM triple WHERE {c} = ?", (eid,)).fetchone()[0] for c in ("s", "o"))
    query = "SELECT domain FROM triple WHERE s = ? UNION SELECT domain FROM triple WHERE o = ? ORDER BY 1"
    domains = [r[0] for r in db.execute(query, (eid, eid))]
    return EntityHit(
        key=ent.key, label=ent.label, kind=ent.kind.value, description=ent.description, domains=domains, facts=count
    )


def search_entities(services: Services, text: str, limit: int = 20) -> list[EntityHit]:
    """Entities matching `text`: exact key, label or alias first (most facts first), then label prefix, then substring.

    Raises:
        KBViewError: `text` is empty or too long, or `limit` is outside [1, MAX_SEARCH].

    """
    text, limit = _text(text, "search text"), _limit(limit, MAX_SEARCH)
    store = services.store
    exact = [_hit(store, i) for i in store.resolve(text, limit)]
    found = sorted(exact, key=lambda h: -h.facts)
    seen = {h.key for h in found}
    pattern = text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    for like in (f"{pattern}%", f"%{pattern}%"):
        if len(found) >= limit:
            break
        rows = store.db.execute(
            "SELECT id, key FROM entity WHERE label LIKE ? ESCAPE '\\' ORDER BY length(label), id LIMIT ?",
            (like, limit + len(seen)),
        ).fetchall()
        for eid, key in rows:
            if key not in seen and len(found) < limit:
                seen.add(key)
                found.append(_hit(store, eid))
    return found


def _pick(services: Services, key_or_label: str) -> tuple[int, EntityHit, list[str]]:
    """The entity a name means (the one with the most facts when several match) and the other matches."""
    name = _text(key_or_label, "entity")
    store = services.store
    ids = store.resolve(name, MAX_CANDIDATES)
    if not ids:
        raise KBViewError(
            f"no entity named {name!r} in the KB (keys, labels and aliases match exactly, labels also ignoring"
            " case); search for it and pick one of the results"
        )
    hits = sorted(((_hit(store, i), i) for i in ids), key=lambda p: -p[0].facts)
    return hits[0][1], hits[0][0], [h.key for h, _ in hits[1:]]


def entity_facts(services: Services, key_or_label: str, limit: int = 50) -> EntityFacts:
    """Stored facts whose subject or object is the entity, verbalized (subject facts first).

    Raises:
        KBViewError: the name is empty, too long or unknown, or `limit` is outside [1, 500].

    """
    limit = _limit(limit, MAX_FACTS)
    eid, hit, others = _pick(services, key_or_label)
    items = services.kb_facts.about([eid], limit=limit)
    facts = [
        StoredFact(
            text=e.text,
            ref=e.ref or "",
            direction="subject" if (e.ref or "").startswith(hit.key + "|") else "object",
        )
        for e in items
    ]
    return EntityFacts(entity=hit, alternatives=others, facts=facts, truncated=hit.facts > len(facts))


def _interleave(first: list[tuple[int, int, int]], second: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
    out: dict[tuple[int, int, int], None] = {}
    for i in range(max(len(first), len(second))):
        for side in (first, second):
            if i < len(side):
                out.setdefault(side[i], None)
    return list(out)


def derived_facts(services: Services, key_or_label: str, limit: int = 50) -> DerivedFacts:
    """Facts about the entity that hold by the rules but are not stored, each with its proof.

    The rule families are materialized once per reasoner (`Reasoner.derive`, a few seconds on the
    seed KB); candidates are taken from both directions in turn, and each is proved.

    Raises:
        KBViewError: the name is empty, too long or unknown, or `limit` is outside [1, MAX_DERIVED].

    """
    limit = _limit(limit, MAX_DERIVED)
    eid, hit, others = _pick(services, key_or_label)
    reasoner = services.reasoner
    reasoner.derive()
    module, inputs = reasoner.engine.module, {"E": eid, "M": limit + 1}
    out = [(eid, int(r), int(o)) for r, o in session.call(_OUTGOING.format(m=module), inputs)["X"]]
    inc = [(int(s), int(r), eid) for s, r in session.call(_INCOMING.format(m=module), inputs)["X"]]
    candidates = _interleave(out, inc)
    keys = services.store.keys({i for s, _r, o in candidates[:limit] for i in (s, o)})
    facts: list[DerivedFact] = []
    for s, r, o in candidates[:limit]:
        relation = reasoner.relation_names[r]
        verdict = reasoner.prove(keys[s], relation, keys[o])
        if verdict.proof is None or verdict.status != ProofStatus.SUPPORTED:
            log.warning("derived candidate %s %s %s was not proved (%s)", keys[s], relation, keys[o], verdict.status)
            continue
        proof = ProofNode.model_validate(verdict.proof)
        facts.append(
            DerivedFact(
                text=proof.text,
                subject_key=keys[s],
                relation=relation,
                object_key=keys[o],
                rule=proof.rule,
                proof=proof,
            )
        )
    return DerivedFacts(entity=hit, alternatives=others, facts=facts, truncated=len(candidates) > limit)


__all__ = [
    "MAX_DERIVED",
    "MAX_SEARCH",
    "MAX_TEXT_CHARS",
    "DerivedFact",
    "DerivedFacts",
    "EntityFacts",
    "EntityHit",
    "KBSummary",
    "KBViewError",
    "StoredFact",
    "derived_facts",
    "entity_facts",
    "kb_summary",
    "relation_choices",
    "search_entities",
]
