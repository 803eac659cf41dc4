"""SQLite storage of a knowledge base: entities, relations (catalog), triples, sources."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

from drowzee_core.errors import KBError, KBMissingError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.fingerprints import kb_fingerprint
from drowzee_core.kb.model import Entity, RelationSpec, Stats, ValueKind
from drowzee_core.kb.schema import SCHEMA

TripleRow = tuple[int, int, int, int, int | None, int | None, str, str]
"""(s, r, o, negated, start_year, end_year, domain, source) with integer ids."""


class KBStore:
    """A knowledge base in one SQLite file. Not thread-safe; open one per thread."""

    def __init__(self, path: Path | str, *, create: bool = False) -> None:
        self.path = Path(path)
        if not create and str(path) != ":memory:" and not self.path.exists():
            raise KBMissingError(
                f"no knowledge base at {self.path}; run `drowzee kb build` (bundled seed KB)"
                " or `drowzee kb load FILE` first, or pass --kb PATH"
            )
        if create and str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        self.db = sqlite3.connect(str(path))
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")
        self.db.executescript(SCHEMA)
        self._entity_ids: dict[str, int] | None = None
        self._relation_ids: dict[str, int] | None = None

    def close(self) -> None:
        """Commit and close the connection."""
        self.db.commit()
        self.db.close()

    def __enter__(self) -> KBStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------ catalog
    def save_catalog(self, catalog: Catalog) -> None:
        """Store every relation of `catalog` (new ones appended, existing specs replaced) and its rules."""
        for spec in catalog:
            self.ensure_relation(spec)
        self.db.execute("DELETE FROM rule")
        self.db.executemany(
            "INSERT INTO rule(kind, spec) VALUES (?, ?)",
            [("composite", c.model_dump_json()) for c in catalog.composites]
            + [("same_object", s.model_dump_json()) for s in catalog.same_object]
            + [("comparison", c.model_dump_json()) for c in catalog.comparisons],
        )

    def ensure_relation(self, spec: RelationSpec) -> int:
        """Id of relation `spec.name`, inserting or updating its spec."""
        ids = self.relation_ids()
        payload = spec.model_dump_json()
        if spec.name in ids:
            self.db.execute("UPDATE relation SET spec = ? WHERE id = ?", (payload, ids[spec.name]))
            return ids[spec.name]
        cur = self.db.execute("INSERT INTO relation(name, spec) VALUES (?, ?)", (spec.name, payload))
        rid = int(cur.lastrowid or 0)
        ids[spec.name] = rid
        return rid

    def catalog(self) -> Catalog:
        """The catalog stored with this KB (relations of loaded data included)."""
        raw: dict[str, Any] = {
            "relation": [json.loads(s) for (s,) in self.db.execute("SELECT spec FROM relation ORDER BY id")],
            "composite": [],
            "same_object": [],
            "comparison": [],
        }
        for kind, spec in self.db.execute("SELECT kind, spec FROM rule"):
            raw[kind].append(json.loads(spec))
        return Catalog.from_dict(raw, where=str(self.path))

    def relation_ids(self) -> dict[str, int]:
        """Relation name -> id (cached)."""
        if self._relation_ids is None:
            self._relation_ids = {n: i for i, n in self.db.execute("SELECT id, name FROM relation")}
        return self._relation_ids

    # ------------------------------------------------------------------ entities
    def entity_ids(self) -> dict[str, int]:
        """Entity key -> id (cached; loads every key once)."""
        if self._entity_ids is None:
            self._entity_ids = {k: i for i, k in self.db.execute("SELECT id, key FROM entity")}
        return self._entity_ids

    def add_entities(self, entities: Iterable[Entity]) -> None:
        """Insert entities whose key is new; existing keys keep their first label."""
        ids = self.entity_ids()
        new = [e for e in entities if e.key not in ids]
        start = int(self.db.execute("SELECT coalesce(max(id), 0) FROM entity").fetchone()[0]) + 1
        rows = []
        alias_rows: list[tuple[int, str]] = []
        for offset, ent in enumerate(_unique_by_key(new)):
            eid = start + offset
            ids[ent.key] = eid
            rows.append((eid, ent.key, ent.label, ent.kind.value, json.dumps(list(ent.aliases)), ent.description))
            alias_rows.extend((eid, a) for a in ent.aliases)
        self.db.executemany("INSERT INTO entity(id, key, label, kind, aliases, description) VALUES (?,?,?,?,?,?)", rows)
        self.db.executemany("INSERT OR IGNORE INTO alias(entity, alias) VALUES (?, ?)", alias_rows)

    def entity(self, eid: int) -> Entity:
        """The entity with id `eid`."""
        row = self.db.execute(
            "SELECT key, label, kind, aliases, description FROM entity WHERE id = ?", (eid,)
        ).fetchone()
        if row is None:
            raise KBError(f"no entity with id {eid}")
        return Entity(row[0], row[1], ValueKind(row[2]), tuple(json.loads(row[3])), row[4])

    def labels(self, ids: Iterable[int]) -> dict[int, str]:
        """Labels of the given entity ids."""
        return self._by_id("label", ids)

    def _by_id(self, column: str, ids: Iterable[int]) -> dict[int, str]:
        wanted = sorted(set(ids))
        out: dict[int, str] = {}
        for chunk_start in range(0, len(wanted), 900):
            chunk = wanted[chunk_start : chunk_start + 900]
            q = f"SELECT id, {column} FROM entity WHERE id IN ({','.join('?' * len(chunk))})"
            out.update(self.db.execute(q, chunk).fetchall())
        return out

    def keys(self, ids: Iterable[int]) -> dict[int, str]:
        """Keys of the given entity ids."""
        return self._by_id("key", ids)

    def resolve(self, text: str, limit: int = 20) -> list[int]:
        """Entity ids that `text` names: by key, then exact label, alias, case-insensitive label.

        A name written as a Wikipedia title ("King_Arthur", or "Con_n_mac_Lia" where the title lost
        its "á" to "_" too) that names nothing as written matches labels with any one character in
        place of each "_" (SQL LIKE).
        """
        ids = self.entity_ids()
        if text in ids:
            return [ids[text]]
        lookups = [
            ("SELECT id FROM entity WHERE label = ? ORDER BY id LIMIT ?", text),
            ("SELECT entity FROM alias WHERE alias = ? ORDER BY entity LIMIT ?", text),
            ("SELECT id FROM entity WHERE label = ? COLLATE NOCASE ORDER BY id LIMIT ?", text),
        ]
        if "_" in text and text.strip("_"):
            like = re.sub(r"([%\\])", r"\\\1", text)  # "_" stays the one-character wildcard
            lookups.append(("SELECT id FROM entity WHERE label LIKE ? ESCAPE '\\' ORDER BY id LIMIT ?", like))
        for query, arg in lookups:
            found = [r[0] for r in self.db.execute(query, (arg, limit))]
            if found:
                return found
        return []

    def named_by(self, text: str, limit: int = 20) -> list[int]:
        """Every entity `text` may name: `resolve`'s lookups together (key, label, alias, any case), not the first.

        For telling whether a name stands for an entity (a list that names it), where `resolve` picks
        the entities a name most likely means.
        """
        ids = self.entity_ids()
        found = dict.fromkeys([ids[text]] if text in ids else [])
        for query in (
            "SELECT id FROM entity WHERE label = ? COLLATE NOCASE ORDER BY id LIMIT ?",
            "SELECT entity FROM alias WHERE alias = ? COLLATE NOCASE ORDER BY entity LIMIT ?",
        ):
            found.update(dict.fromkeys(r[0] for r in self.db.execute(query, (text, limit))))
        return list(found) or self.resolve(text, limit)

    # ------------------------------------------------------------------ triples
    def add_triples(self, rows: Sequence[TripleRow]) -> int:
        """Insert id-level triples, ignoring exact duplicates; returns how many were new."""
        before = self.db.total_changes
        self.db.executemany(
            "INSERT OR IGNORE INTO triple(s, r, o, negated, start_year, end_year, domain, source)"
            " VALUES (?,?,?,?,?,?,?,?)",
            rows,
        )
        return self.db.total_changes - before

    def iter_triples(self, *, batch: int = 200_000) -> Iterator[list[tuple[int, int, int, int]]]:
        """(s, r, o, negated) in batches, for loading into the logic engine."""
        cur = self.db.execute("SELECT s, r, o, negated FROM triple ORDER BY id")
        while rows := cur.fetchmany(batch):
            yield rows

    def facts_of(self, relation_ids: Iterable[int]) -> list[tuple[int, int, int, str]]:
        """Positive base facts (s, r, o, domain) of the given relations, in storage order."""
        rids = sorted(set(relation_ids))
        if not rids:
            return []
        q = f"SELECT s, r, o, domain FROM triple WHERE negated = 0 AND r IN ({','.join('?' * len(rids))}) ORDER BY id"
        return [tuple(r) for r in self.db.execute(q, rids)]

    def objects(self, subject: int, relation: int) -> list[int]:
        """Objects of the stored positive facts (subject, relation, _), in storage order."""
        return [o for o, _start, _end in self.dated_objects(subject, relation)]

    def dated_objects(self, subject: int, relation: int) -> list[tuple[int, int | None, int | None]]:
        """(object, start year, end year) of the stored positive facts (subject, relation, _), in storage order."""
        q = "SELECT o, start_year, end_year FROM triple WHERE s = ? AND r = ? AND negated = 0 ORDER BY id"
        return [(r[0], r[1], r[2]) for r in self.db.execute(q, (subject, relation))]

    def hub_entities(self, min_degree: int) -> set[int]:
        """Entities that are numbers or years, or the object of at least `min_degree` base facts."""
        q = "SELECT id FROM entity WHERE kind != 'entity' UNION SELECT o FROM triple GROUP BY o HAVING count(*) >= ?"
        return {r[0] for r in self.db.execute(q, (min_degree,))}

    def temporal_rows(self) -> list[tuple[int, str, str, str, str, str, int, int | None, str]]:
        """Positive facts with years: (triple id, s key, s label, relation, o key, o label, start, end, domain)."""
        rows = self.db.execute(
            "SELECT t.id, es.key, es.label, r.name, eo.key, eo.label, t.start_year, t.end_year, t.domain"
            " FROM triple t JOIN relation r ON r.id = t.r JOIN entity es ON es.id = t.s"
            " JOIN entity eo ON eo.id = t.o WHERE t.start_year IS NOT NULL AND t.negated = 0 ORDER BY t.id"
        ).fetchall()
        return [tuple(r) for r in rows]

    def add_source(self, name: str, licence: str, url: str = "", note: str = "") -> None:
        """Record where triples come from and under which licence."""
        self.db.execute(
            "INSERT OR REPLACE INTO source(name, licence, url, note) VALUES (?,?,?,?)",
            (name, licence, url, note),
        )

    def sources(self) -> list[dict[str, str]]:
        """All recorded sources with their licences."""
        cur = self.db.execute("SELECT name, licence, url, note FROM source ORDER BY name")
        return [dict(zip(("name", "licence", "url", "note"), r, strict=True)) for r in cur]

    def commit(self) -> None:
        """Commit pending writes."""
        self.db.commit()

    def set_meta(self, key: str, value: str) -> None:
        """Store one metadata value (build time, versions...)."""
        self.db.execute("INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)", (key, value))

    def meta(self) -> dict[str, str]:
        """Every metadata value, by key."""
        return dict(self.db.execute("SELECT key, value FROM meta"))

    def relation_counts(self) -> dict[str, int]:
        """Relation name -> number of stored triples (relations with none are left out)."""
        rows = self.db.execute("SELECT r.name, count(*) FROM triple t JOIN relation r ON r.id = t.r GROUP BY r.name")
        return {name: int(n) for name, n in rows}

    def stats(self) -> Stats:
        """Counts of triples, entities, relations, temporal and negative facts, per domain and source."""

        def one(q: str) -> int:
            return int(self.db.execute(q).fetchone()[0])

        return Stats(
            triples=one("SELECT count(*) FROM triple"),
            entities=one("SELECT count(*) FROM entity"),
            relations=one("SELECT count(DISTINCT r) FROM triple"),
            temporal_facts=one("SELECT count(*) FROM triple WHERE start_year IS NOT NULL OR end_year IS NOT NULL"),
            negative_facts=one("SELECT count(*) FROM triple WHERE negated = 1"),
            domains=dict(self.db.execute("SELECT domain, count(*) FROM triple GROUP BY domain ORDER BY domain")),
            sources=dict(self.db.execute("SELECT source, count(*) FROM triple GROUP BY source ORDER BY source")),
        )

    def fingerprint(self) -> str:
        """A short hash of the KB's content, recorded in the provenance of everything generated from it.

        `kb.fingerprints.content_fingerprint` says what it covers; it is remembered per file state, so a
        process does not hash a large KB again (an in-memory KB, or uncommitted writes, are hashed).
        """
        return kb_fingerprint(self.db, None if str(self.path) == ":memory:" else self.path)


def _unique_by_key(entities: Iterable[Entity]) -> list[Entity]:
    seen: dict[str, Entity] = {}
    for ent in entities:
        seen.setdefault(ent.key, ent)
    return list(seen.values())


__all__ = ["KBStore", "Stats", "TripleRow"]
