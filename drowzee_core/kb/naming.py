"""The entities a name stands for as an argument of one relation: typed by the relation, shortened names too.

A name often stands for several entities of the KB's sources ("Newton": towns, and the physicist
whose WordNet entry holds his years; "gold": the element, and an alias of a coast). Where a claim
puts the name at one end of a relation, only entities that can stand there count: those at that
end of a fact the relation holds by (`drowzee_core.kb.argtypes`). The name's every reading is
tried (key, label, alias, any case), in `KBStore.resolve`'s order first, and so is every entity that
bears the label of one it names by an alias (`homonyms`).

A name no entity of that type bears may be the last words of one that does ("the yen" for
"Japanese Yen"): English names keep their head at the end. Only a lowercase name is shortened
(a currency, a language said as a common noun); a capitalised one is a proper name and stands for
itself ("Africa" never for "South Africa"). Such a shortened name counts only when
the full name is of the relation's type; when nothing fits, the untyped readings stay as they were,
so a relation the KB holds no facts of is unchanged.
"""

from __future__ import annotations

import unicodedata

from drowzee_core.kb.argtypes import End, argument_types
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore

MAX_SHORTENED = 20
"""Entities a shortened name may stand for at most (more: too vague to be a name)."""
MIN_SHORT_CHARS = 3


def _ends(store: KBStore, catalog: Catalog, relation: str, end: End) -> list[tuple[int, End]]:
    types = argument_types(catalog, relation)
    ids = store.relation_ids()
    return sorted((ids[r], e) for r, e in (types.subject if end == "s" else types.object) if r in ids)


def _fits(store: KBStore, eid: int, ends: list[tuple[int, End]]) -> bool:
    """Whether the entity stands at one of these ends of a stored fact."""
    for rid, e in ends:
        column = "s" if e == "s" else "o"
        if store.db.execute(f"SELECT 1 FROM triple WHERE {column} = ? AND r = ? LIMIT 1", (eid, rid)).fetchone():
            return True
    return False


def shortened(store: KBStore, text: str, ends: list[tuple[int, End]], limit: int = MAX_SHORTENED) -> list[int]:
    """Entities at these ends whose label ends with `text` as whole words ("yen" -> "Japanese Yen").

    None for a capitalised name (a proper name), or when more than `limit` labels end with it.
    """
    words = " ".join(text.split())
    if len(words) < MIN_SHORT_CHARS or not any(c.isalpha() for c in words):
        return []
    if words != words.lower():
        return []  # a proper name stands for itself ("Africa"), never for "South Africa"
    like = "% " + words.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
    found: dict[int, None] = {}
    for rid, e in ends:
        column = "s" if e == "s" else "o"
        rows = store.db.execute(
            f"SELECT DISTINCT t.{column} FROM triple t JOIN entity e ON e.id = t.{column}"
            " WHERE t.r = ? AND e.label LIKE ? ESCAPE '\\' LIMIT ?",
            (rid, like, limit + 1),
        )
        found.update(dict.fromkeys(r[0] for r in rows))
    return list(found) if len(found) <= limit else []


def _typed_ends(store: KBStore, catalog: Catalog, relation: str, end: End) -> list[tuple[int, End]]:
    """The ends that type `end` of `relation` and hold a stored fact (none: the KB cannot tell)."""
    ends = _ends(store, catalog, relation, end) if relation in catalog else []
    return [
        (rid, e) for rid, e in ends if store.db.execute("SELECT 1 FROM triple WHERE r = ? LIMIT 1", (rid,)).fetchone()
    ]


def folded(text: str) -> str:
    """`text` without its diacritics ("René Descartes" -> "Rene Descartes"), as sources often write names."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def _readings(store: KBStore, text: str, limit: int) -> list[int]:
    """Every entity `text` may name.

    `resolve`'s, `named_by`'s (also without diacritics), and the homonyms of one it names by an alias.
    """
    bare = folded(text)
    plain = store.named_by(bare, limit) if bare != text else []
    readings = list(dict.fromkeys([*store.resolve(text, limit), *store.named_by(text, limit), *plain]))
    return readings + [h for h in homonyms(store, text, readings, limit) if h not in readings]


def _named_at(store: KBStore, text: str, readings: list[int], ends: list[tuple[int, End]], limit: int) -> bool:
    return any(_fits(store, eid, ends) for eid in readings) or bool(shortened(store, text, ends, limit))


def typed_names(store: KBStore, catalog: Catalog, text: str, relation: str, end: End, limit: int) -> list[int]:
    """The entities `text` names at `end` ("s" or "o") of `relation` (module docstring), best reading first."""
    first = store.resolve(text, limit)
    ends = _ends(store, catalog, relation, end) if relation in catalog else []
    if not ends:
        return first
    readings = list(dict.fromkeys([*first, *_readings(store, text, limit)]))
    typed = [eid for eid in readings if _fits(store, eid, ends)]
    if typed:
        return typed[:limit]
    return shortened(store, text, ends, limit) or first


def homonyms(store: KBStore, text: str, readings: list[int], limit: int) -> list[int]:
    """The entities that bear the label of a reading `text` names by an alias ("UK": both "United Kingdom"s).

    Sources keep one thing apart under one label (WordNet's "United Kingdom", which has the alias "UK", and
    GeoNames' country with its capital); a name said by an alias stands for each of them. Only a label at
    least as long as the name said counts: one that shortens it ("Newton" for "Isaac Newton") names others.
    """
    labels = store.labels(readings)
    said = {
        labels[eid]
        for eid in readings
        if labels[eid].casefold() != text.casefold() and len(labels[eid].split()) >= len(text.split())
    }  # "Isaac Newton" is an alias of WordNet's "Newton": the towns called Newton are no readings of it
    return [h for label in sorted(said) for h in store.named_by(label, limit)]


def resolved(store: KBStore, text: str, limit: int) -> list[int]:
    """`KBStore.resolve`'s readings of a name, then the homonyms of one it names by an alias (`homonyms`)."""
    first = store.resolve(text, limit)
    return first + [h for h in homonyms(store, text, first, limit) if h not in first]


def first_reading(store: KBStore, text: str, candidates: list[int]) -> int:
    """What a name reads as first (`KBStore.resolve`'s first), or the first typed candidate when none is typed.

    A rule that refutes a name's secondary reading (a partition) must not come to refute it because
    typing dropped the first one: a dropped first reading keeps its place, so no candidate is first.
    """
    first = store.resolve(text, 1)
    return first[0] if first else (candidates[0] if candidates else -1)


class TypeCheck:
    """Whether two names can be a relation's subject and object in a KB (cached per name and end)."""

    def __init__(self, store: KBStore, catalog: Catalog, limit: int = 20) -> None:
        self.store = store
        self.catalog = catalog
        self.limit = limit
        self._seen: dict[tuple[str, str, End], bool] = {}
        self._ends: dict[tuple[str, End], list[tuple[int, End]]] = {}
        self._readings: dict[str, list[int]] = {}

    def __call__(self, relation: str, subject: str, obj: str, strict: bool = False) -> bool:
        """Whether `subject` may stand at the subject end of `relation` and `obj` at its object end.

        With `strict`, only when stored facts say so (a relation the KB holds no fact of says nothing).
        """
        return self._can(subject, relation, "s", strict) and self._can(obj, relation, "o", strict)

    def can(self, text: str, relation: str, end: End, strict: bool = False) -> bool:
        """Whether `text` may stand at one end ("s" or "o") of `relation` (True where the KB cannot tell).

        With `strict`, only when stored facts say so.
        """
        return self._can(text, relation, end, strict)

    def _can(self, text: str, relation: str, end: End, strict: bool) -> bool:
        if (relation, end) not in self._ends:
            self._ends[(relation, end)] = _typed_ends(self.store, self.catalog, relation, end)
        ends = self._ends[(relation, end)]
        if not ends:
            return not strict
        key = (text, relation, end)
        if key not in self._seen:
            if text not in self._readings:
                self._readings[text] = _readings(self.store, text, self.limit)
            self._seen[key] = _named_at(self.store, text, self._readings[text], ends, self.limit)
        return self._seen[key]


__all__ = ["MAX_SHORTENED", "TypeCheck", "first_reading", "homonyms", "resolved", "shortened", "typed_names"]


MAX_HOP_READINGS = 5
"""Readings of a name a multi-hop answer is followed from through the KB (`StatementReader.hops`)."""


def stored_objects(store: KBStore, name: str, relation: str) -> list[str]:
    """The labels of what the KB stores as `relation` of each entity `name` names (its first few readings)."""
    rid = store.relation_ids().get(relation)
    if rid is None:
        return []
    out: list[str] = []
    for entity in store.resolve(name, limit=MAX_HOP_READINGS):
        out += store.labels(store.objects(entity, rid)).values()
    return list(dict.fromkeys(out))
