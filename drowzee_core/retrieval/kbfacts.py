"""KB facts about given entities, verbalized with the catalog's templates (SQL only, no Prolog).

A fact is a stored triple: the relation's `positive` template states it (`negative` for an explicit
negative fact), with its years appended when it has them. Its provisional evidence id is
`kb:<subject key>|<relation>|<object key>` (plus `|not` for a negative fact and `@start-end` for a
dated one), and its `ref` is the same key without the `kb:` prefix, so the KB check, the corpus and
this tool name one fact the same way.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from drowzee_core.errors import KBError
from drowzee_core.kb.model import RelationSpec
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.template_regex import fill
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource

MAX_FACTS = 500
"""Most facts one `about` call returns."""

_SELECT = (
    "SELECT t.id, es.key, es.label, r.name, eo.key, eo.label, t.negated, t.start_year, t.end_year"
    " FROM triple t JOIN relation r ON r.id = t.r JOIN entity es ON es.id = t.s JOIN entity eo ON eo.id = t.o"
)


@dataclass(frozen=True)
class KBFact:
    """One stored triple with labels: enough to verbalize and name it."""

    triple_id: int
    s_key: str
    s_label: str
    relation: str
    o_key: str
    o_label: str
    negated: bool
    start_year: int | None
    end_year: int | None

    @property
    def ref(self) -> str:
        """`subject key|relation|object key`, with `|not` and `@start-end` when they apply."""
        ref = f"{self.s_key}|{self.relation}|{self.o_key}"
        if self.negated:
            ref += "|not"
        if self.start_year is not None or self.end_year is not None:
            ref += f"@{_year(self.start_year)}-{_year(self.end_year)}"
        return ref

    def text(self, spec: RelationSpec) -> str:
        """The fact as an English sentence, with its years when it has them and the sentence lacks them."""
        template = spec.negative if self.negated else spec.positive
        sentence = fill(template, self.s_label, self.o_label)
        years = [str(y) for y in (self.start_year, self.end_year) if y is not None]
        if all(y in sentence for y in years):  # no years, or the object is the year ("born in 1844")
            return sentence
        if self.end_year is None:
            period = f"since {self.start_year}"
        elif self.start_year is None:
            period = f"until {self.end_year}"
        elif self.start_year == self.end_year:
            period = f"in {self.start_year}"
        else:
            period = f"from {self.start_year} to {self.end_year}"
        return f"{sentence.rstrip().rstrip('.')} ({period})."

    def evidence(self, spec: RelationSpec, score: float | None = None) -> EvidenceItem:
        """The fact as a KB evidence item with its provisional id."""
        return EvidenceItem(
            id=f"kb:{self.ref}", source=EvidenceSource.KB, text=self.text(spec), score=score, ref=self.ref
        )


def _year(y: int | None) -> str:
    return "" if y is None else str(y)


def _fact(row: tuple[int, str, str, str, str, str, int, int | None, int | None]) -> KBFact:
    return KBFact(row[0], row[1], row[2], row[3], row[4], row[5], bool(row[6]), row[7], row[8])


def iter_facts(db: sqlite3.Connection, batch: int = 50_000) -> Iterator[KBFact]:
    """Every stored triple of the KB, in storage order."""
    cur = db.execute(_SELECT + " ORDER BY t.id")
    while rows := cur.fetchmany(batch):
        yield from (_fact(r) for r in rows)


class KBFacts:
    """Facts whose subject or object is one of the given entities, verbalized; deterministic order."""

    def __init__(self, store: KBStore) -> None:
        self.store = store
        self.specs = {spec.name: spec for spec in store.catalog()}

    def about(self, entity_ids: Sequence[int], limit: int = 20) -> list[EvidenceItem]:
        """Up to `limit` facts about `entity_ids` (KB entity ids, most important first).

        Facts that link two of the entities come first (they bear on a claim relating them); then the
        entities take turns, in the order given, each with its subject facts before its object facts,
        in storage order, so a hub entity (a continent, a year) cannot crowd out the others.
        """
        if not 1 <= limit <= MAX_FACTS:
            raise KBError(f"`limit` must be in [1, {MAX_FACTS}], got {limit}")
        ids = list(dict.fromkeys(int(e) for e in entity_ids))
        if not ids:
            return []
        db = self.store.db
        marks = ",".join("?" * len(ids))
        linking = [
            _fact(r)
            for r in db.execute(
                _SELECT + f" WHERE t.s IN ({marks}) AND t.o IN ({marks}) AND t.s != t.o ORDER BY t.id LIMIT ?",
                [*ids, *ids, limit],
            )
        ]
        per_entity: list[list[KBFact]] = []
        for eid in ids:
            facts = [_fact(r) for r in db.execute(_SELECT + " WHERE t.s = ? ORDER BY t.id LIMIT ?", (eid, limit))]
            facts += [_fact(r) for r in db.execute(_SELECT + " WHERE t.o = ? ORDER BY t.id LIMIT ?", (eid, limit))]
            per_entity.append(facts)
        chosen: dict[int, KBFact] = {f.triple_id: f for f in linking}
        for rank in range(2 * limit):
            if len(chosen) >= limit:
                break
            for facts in per_entity:
                if rank < len(facts) and len(chosen) < limit:
                    chosen.setdefault(facts[rank].triple_id, facts[rank])
        return [self._item(f) for f in list(chosen.values())[:limit]]

    def _item(self, fact: KBFact) -> EvidenceItem:
        spec = self.specs.get(fact.relation)
        if spec is None:
            raise KBError(f"relation {fact.relation!r} of triple {fact.triple_id} is not in the KB's catalog")
        return fact.evidence(spec)


__all__ = ["MAX_FACTS", "KBFact", "KBFacts", "iter_facts"]
