"""Buffered, validated writes of entities and triples into a KBStore."""

from __future__ import annotations

import logging
import math
import re
import unicodedata
from dataclasses import dataclass, field

from drowzee_core.errors import CatalogError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import MAX_LABEL_CHARS, Entity, RelationSpec, ValueKind
from drowzee_core.kb.store import KBStore, TripleRow

log = logging.getLogger(__name__)

MIN_YEAR, MAX_YEAR = -10_000, 10_000


@dataclass(frozen=True, slots=True)
class RowError:
    """A rejected input row: where it was and why."""

    file: str
    line: int
    reason: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.reason}"


@dataclass
class LoadReport:
    """What a load or build did: rows accepted, new triples, rejected rows with reasons."""

    accepted: int = 0
    new_triples: int = 0
    errors: list[RowError] = field(default_factory=list)
    undeclared: list[str] = field(default_factory=list)
    """Relations the data uses that nothing declares: generic wording from their name, no logic."""

    def to_json(self) -> dict[str, object]:
        """JSON-ready summary (errors capped at 1,000 entries; the count is always exact)."""
        return {
            "accepted": self.accepted,
            "new_triples": self.new_triples,
            "rejected": len(self.errors),
            "undeclared": list(self.undeclared),
            "errors": [str(e) for e in self.errors[:1000]],
        }


def check_text(value: str, what: str) -> str:
    """Validate a label or key: non-empty, bounded, no NUL; any other unicode is kept exactly."""
    if not isinstance(value, str):
        raise ValueError(f"{what} must be text, got {type(value).__name__}")
    if not value.strip():
        raise ValueError(f"{what} is empty")
    if len(value) > MAX_LABEL_CHARS:
        raise ValueError(f"{what} has {len(value)} characters; the limit is {MAX_LABEL_CHARS}")
    if "\x00" in value:
        raise ValueError(f"{what} contains a NUL character")
    return value


def check_year(value: int | None, what: str) -> int | None:
    """Validate an optional year."""
    if value is None:
        return None
    if not MIN_YEAR <= value <= MAX_YEAR:
        raise ValueError(f"{what} {value} is outside [{MIN_YEAR}, {MAX_YEAR}]")
    return value


def relation_name_for(text: str) -> str:
    """A catalog identifier for a relation first seen in data ('Place of birth' -> 'place_of_birth')."""
    norm = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    name = "".join(ch if ch.isalnum() else "_" for ch in norm).strip("_")
    while "__" in name:
        name = name.replace("__", "_")
    if not name or not name[0].isalpha():
        name = f"rel_{name}" if name else "rel"
    return name[:64]


def label_from_name(text: str) -> str:
    """How a relation named in data is said: an identifier in words, less a leading "has" / "is".

    "has_director" -> "director", "partnerOf" -> "partner of", "is_member_of" -> "member of",
    "founded_in" -> "founded in"; a label with spaces is kept as written ("place of birth").
    """
    text = " ".join(text.split())
    if " " in text:
        return text
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", text).replace("_", " ").replace("-", " ").lower().split()
    if len(words) > 1 and words[0] in ("has", "have", "is"):
        words = words[1:]
    return " ".join(words) or text


class KBWriter:
    """Collects entities and triples, then writes them to a store in bulk on `flush`."""

    def __init__(
        self,
        store: KBStore,
        catalog: Catalog,
        *,
        auto_relations: bool = False,
        known: Catalog | None = None,
    ) -> None:
        """Write into `store` with `catalog`; with `auto_relations`, relations the data names are added.

        An added relation is taken from `known` (the bundled catalog, with the relations it refers to)
        when it is there, else made generic and listed in `undeclared`.
        """
        self.store = store
        self.catalog = catalog
        self.auto_relations = auto_relations
        self.known = known
        self.undeclared: list[str] = []
        self._entities: dict[str, Entity] = {}
        self._rows: list[tuple[str, str, str, int, int | None, int | None, str, str]] = []
        self.accepted = 0

    def entity(
        self,
        key: str,
        label: str | None = None,
        kind: ValueKind = ValueKind.ENTITY,
        aliases: tuple[str, ...] = (),
        description: str | None = None,
    ) -> str:
        """Declare an entity (first declaration of a key wins) and return its key."""
        if key not in self._entities:
            self._entities[key] = Entity(
                check_text(key, "entity key"), check_text(label or key, "entity label"), kind, aliases, description
            )
        return key

    def year(self, year: int) -> str:
        """The entity that stands for a calendar year."""
        return self.entity(f"year:{year}", str(year), ValueKind.YEAR)

    def quantity(self, value: float | int) -> str:
        """The entity that stands for a number."""
        text = f"{value:g}" if isinstance(value, float) and not value.is_integer() else str(int(value))
        return self.entity(f"num:{text}", text, ValueKind.QUANTITY)

    def relation(self, name_or_label: str) -> str:
        """The catalog name of a relation; unknown ones are added as generic when allowed."""
        if name_or_label in self.catalog:
            return name_or_label
        name = relation_name_for(name_or_label)
        if name in self.catalog:
            return name
        if not self.auto_relations:
            raise CatalogError(f"unknown relation {name_or_label!r}; add it to the catalog first")
        if self.known is not None and name in self.known:
            from drowzee_core.kb.declarations import with_references

            self.catalog = self.catalog.with_relations_of(
                self.known, [s.name for s in with_references(self.known, [name])]
            )
            log.info("relation %r added to the catalog as the bundled catalog declares it", name)
            return name
        self.catalog = self.catalog.with_relation(RelationSpec.generic(name, label_from_name(name_or_label)))
        self.undeclared.append(name)
        log.info("new relation %r added to the catalog with generic templates", name)
        return name

    def value(self, relation: str, label: str) -> str | None:
        """The year or number entity of `label` when `relation` takes one (`object_kind`), else None.

        Raises:
            ValueError: the relation takes a year or a number and `label` is not one.

        """
        name = self.relation(relation)  # first: it may add the relation to the catalog
        kind = self.catalog.get(name).object_kind
        text = label.strip().replace(",", "") if kind == ValueKind.QUANTITY else label.strip()
        if kind == ValueKind.YEAR:
            if not re.fullmatch(r"-?\d{1,5}", text):
                raise ValueError(f"relation {relation!r} takes a year (object_kind = year); got {label!r}")
            return self.year(int(text))
        if kind == ValueKind.QUANTITY:
            try:
                number = float(text)
            except ValueError:
                raise ValueError(f"relation {relation!r} takes a number (object_kind = quantity); got {label!r}") from (
                    None
                )
            if not math.isfinite(number):
                raise ValueError(f"relation {relation!r} takes a finite number; got {label!r}")
            return self.quantity(number)
        return None

    def triple(
        self,
        subject: str,
        relation: str,
        obj: str,
        *,
        domain: str,
        source: str,
        negated: bool = False,
        start_year: int | None = None,
        end_year: int | None = None,
    ) -> None:
        """Add a triple between declared entity keys."""
        for key in (subject, obj):
            if key not in self._entities and key not in self.store.entity_ids():
                raise ValueError(f"entity {key!r} was not declared")
        rel = self.relation(relation)
        start, end = check_year(start_year, "start year"), check_year(end_year, "end year")
        if start is not None and end is not None and start > end:
            raise ValueError(f"start year {start} is after end year {end}")
        self._rows.append((subject, rel, obj, int(negated), start, end, domain, source))
        self.accepted += 1

    def flush(self) -> int:
        """Write buffered entities and triples; returns the number of new triples."""
        self.store.save_catalog(self.catalog)
        self.store.add_entities(self._entities.values())
        ids = self.store.entity_ids()
        rids = self.store.relation_ids()
        rows: list[TripleRow] = [
            (ids[s], rids[r], ids[o], neg, start, end, dom, src) for s, r, o, neg, start, end, dom, src in self._rows
        ]
        new = self.store.add_triples(rows)
        self.store.commit()
        self._entities.clear()
        self._rows.clear()
        return new
