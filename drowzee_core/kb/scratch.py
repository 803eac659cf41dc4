"""A scratch KB for one Query-Response pair: its supplied triples in an in-memory store.

Supplied triples never touch the user's KB. Relation text becomes the catalog relation whose name
or label it equals (ignoring case), else a generic relation with no rules. Numbers and years
become value entities keyed the way the main KB writes them (`year:1642`, `num:103000000`), so a
supplied "1642" and the main KB's year look alike. FactCHD qualifiers (a triple whose subject is a
stringified triple, `["['Honshu', 'population', '103000000']", "point in time", "2005"]`) load
their base triple; a time qualifier dates it. Bad triples are reported, never raised.
"""

from __future__ import annotations

import ast
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.writer import MAX_YEAR, MIN_YEAR, KBWriter, LoadReport, RowError

log = logging.getLogger(__name__)

MAX_PART_CHARS = 300
"""Longest subject, relation or object of a supplied triple, in characters."""
MAX_SCRATCH_TRIPLES = 5_000
"""Most supplied triples one scratch KB loads."""
SUPPLIED = "supplied"
"""The `file` of a supplied triple's `RowError` (its `line` is the 1-based triple number)."""
DOMAIN = "supplied"

Triple = tuple[str, str, str]
_PARTS = ("subject", "relation", "object")
_DATE = re.compile(r"^\+?(-?\d{1,4})-\d{2}-\d{2}(?:T[\d:]+Z?)?$")
_INTEGER = re.compile(r"^[+-]?\d{1,4}$")
_NUMBER = re.compile(r"^[+-]?(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?$")
_TIME_QUALIFIERS = {"point in time": (True, True), "start time": (True, False), "end time": (False, True)}
"""Qualifier relation -> (sets the start year, sets the end year)."""


@dataclass(frozen=True, slots=True)
class Qualified:
    """A supplied triple split into its base triple and, for a qualifier, (relation, value)."""

    base: Triple
    qualifier: tuple[str, str] | None = None


def split_qualifier(triple: Triple) -> Qualified:
    """Split a FactCHD qualifier triple (subject = a stringified triple) into base and qualifier (pure).

    The subject is read with `ast.literal_eval` (never `eval`); anything that is not the repr of
    three strings is an ordinary subject.
    """
    subject, relation, obj = triple
    text = subject.strip()
    if text.startswith("[") and text.endswith("]") and len(text) <= 3 * MAX_PART_CHARS + 20:
        try:
            parsed = ast.literal_eval(text)
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            parsed = None
        if isinstance(parsed, list | tuple) and len(parsed) == 3 and all(isinstance(p, str) for p in parsed):
            return Qualified((parsed[0], parsed[1], parsed[2]), (relation, obj))
    return Qualified(triple)


def relation_for(text: str, catalog: Catalog) -> str | None:
    """The catalog relation whose name or label (or other label) is `text`, ignoring case; None when none is."""
    return next((spec.name for spec in catalog if spec.named(text)), None)


def year_of(text: str) -> int | None:
    """The year a value names: an integer of up to four digits or an ISO date ("1969-11-03")."""
    text = text.strip()
    match = _DATE.match(text)
    value = int(match.group(1)) if match else int(text) if _INTEGER.match(text) else None
    return value if value is not None and MIN_YEAR <= value <= MAX_YEAR else None


def value_of(text: str, kind: ValueKind | None) -> tuple[ValueKind, int | float] | None:
    """Which value entity `text` stands for in an object slot of kind `kind` (None: a generic relation).

    A year relation takes integers and ISO dates; a quantity relation takes numbers ("103,000,000",
    "5.638"); an entity relation takes neither. For a generic relation, an ISO date or an integer
    from 1000 to 2999 is a year and any other number a quantity.
    """
    text = text.strip()
    if kind == ValueKind.ENTITY:
        return None
    year = year_of(text)
    if kind == ValueKind.YEAR:
        return (ValueKind.YEAR, year) if year is not None else None
    if kind is None and year is not None and (_DATE.match(text) or 1000 <= year <= 2999):
        return ValueKind.YEAR, year
    if _NUMBER.match(text):
        number = float(text.replace(",", ""))
        return ValueKind.QUANTITY, int(number) if number.is_integer() else number
    return None


def value_key(writer: KBWriter, text: str, kind: ValueKind | None) -> str | None:
    """Declare the value entity `text` names in an object slot of kind `kind` (see `value_of`); its key."""
    value = value_of(text, kind)
    if value is None:
        return None
    vkind, number = value
    return writer.year(int(number)) if vkind == ValueKind.YEAR else writer.quantity(number)


def add_value(store: KBStore, catalog: Catalog, text: str, kind: ValueKind | None) -> str | None:
    """Add the value entity a stated year or number names to `store` (no facts); its key, or None."""
    writer = KBWriter(store, catalog)
    key = value_key(writer, text, kind)
    if key is not None:
        writer.flush()
    return key


@dataclass
class ScratchReport(LoadReport):
    """What `scratch_store` loaded: counts, rejected triples, and how each relation text was mapped."""

    relations: dict[str, str] = field(default_factory=dict)
    generic: list[str] = field(default_factory=list)
    qualifiers: int = 0

    def to_json(self) -> dict[str, object]:
        """JSON-ready summary: the load report plus the relation mapping."""
        return super().to_json() | {"relations": self.relations, "generic": self.generic, "qualifiers": self.qualifiers}


def _check(raw: object) -> Triple:
    """The triple as three stripped strings; a ValueError that says what is wrong otherwise."""
    if isinstance(raw, str) or not isinstance(raw, Sequence):
        raise ValueError(f"expected a triple [subject, relation, object], got {type(raw).__name__}")
    if len(raw) != 3:
        raise ValueError(f"expected a triple [subject, relation, object], got {len(raw)} parts")
    parts: list[str] = []
    for name, part in zip(_PARTS, raw, strict=True):
        if not isinstance(part, str):
            raise ValueError(f"the {name} must be text, got {type(part).__name__}")
        if not part.strip():
            raise ValueError(f"the {name} is empty")
        if "\x00" in part:
            raise ValueError(f"the {name} contains a NUL character")
        parts.append(part.strip())
    if "{" in parts[1] or "}" in parts[1]:
        raise ValueError("the relation contains '{' or '}', which templates reserve")
    return parts[0], parts[1], parts[2]


def _check_parts(triple: Triple, what: str = "") -> None:
    for name, part in zip(_PARTS, triple, strict=True):
        if not part.strip():
            raise ValueError(f"the {what}{name} is empty")
        if len(part) > MAX_PART_CHARS:
            raise ValueError(f"the {what}{name} has {len(part)} characters; the limit is {MAX_PART_CHARS}")


class _Loader:
    """Maps supplied text to relations and entity keys, then writes the triples."""

    def __init__(self, store: KBStore, catalog: Catalog, report: ScratchReport) -> None:
        self.catalog = catalog
        self.writer = KBWriter(store, catalog, auto_relations=True)
        self.report = report
        self.values: dict[str, str] = {}

    def relation(self, text: str) -> str:
        if text not in self.report.relations:
            name = relation_for(text, self.catalog) or self.writer.relation(text)
            if name not in self.catalog and name not in self.report.generic:
                self.report.generic.append(name)
            self.report.relations[text] = name
        return self.report.relations[text]

    def value_key(self, text: str, relation: str) -> None:
        kind = self.catalog.get(relation).object_kind if relation in self.catalog else None
        if text not in self.values:
            key = value_key(self.writer, text, kind)
            if key is not None:
                self.values[text] = key

    def key(self, text: str) -> str:
        return self.values.get(text) or self.writer.entity(text)


def _years(qualifiers: list[tuple[str, str]]) -> tuple[int | None, int | None]:
    start = end = None
    for relation, value in qualifiers:
        sets = _TIME_QUALIFIERS.get(relation.strip().lower())
        year = year_of(value)
        if sets is None or year is None:
            continue
        start = year if sets[0] else start
        end = year if sets[1] else end
    if start is not None and end is not None and start > end:
        return None, None
    return start, end


def scratch_store(triples: Sequence[object], catalog: Catalog) -> tuple[KBStore, ScratchReport]:
    """An in-memory KB of one pair's supplied triples, and what was loaded or rejected.

    Args:
        triples: Supplied `[subject, relation, object]` items, FactCHD qualifier triples included.
            Anything else (wrong arity, non-text or empty parts, parts over `MAX_PART_CHARS`,
            triples beyond `MAX_SCRATCH_TRIPLES`) is reported in `ScratchReport.errors`.
        catalog: The relation catalog (rules and templates) the supplied relations map onto.

    Returns:
        The store (close it when done) and the report.

    """
    store = KBStore(":memory:", create=True)
    report = ScratchReport()
    loader = _Loader(store, catalog, report)
    grouped: dict[Triple, list[tuple[str, str]]] = {}
    for number, raw in enumerate(triples[:MAX_SCRATCH_TRIPLES], start=1):
        try:
            triple = _check(raw)
            item = split_qualifier(triple)
            if item.qualifier is None:
                _check_parts(triple)
            else:
                _check_parts(item.base, "qualified triple's ")
                _check_parts(("qualifier", *item.qualifier))
            s, r, o = (p.strip() for p in item.base)
            if "{" in r or "}" in r:
                raise ValueError("the qualified triple's relation contains '{' or '}', which templates reserve")
            relation = loader.relation(r)
        except ValueError as exc:
            report.errors.append(RowError(SUPPLIED, number, str(exc)))
            continue
        quals = grouped.setdefault((s, relation, o), [])
        if item.qualifier is not None:
            quals.append(item.qualifier)
            report.qualifiers += 1
        report.accepted += 1
    if len(triples) > MAX_SCRATCH_TRIPLES:
        extra = len(triples) - MAX_SCRATCH_TRIPLES
        report.errors.append(
            RowError(SUPPLIED, MAX_SCRATCH_TRIPLES + 1, f"{extra} triples beyond the limit of {MAX_SCRATCH_TRIPLES}")
        )
    for _s, relation, o in grouped:  # values first: a subject that is also a value shares its key
        loader.value_key(o, relation)
    for (s, relation, o), quals in grouped.items():
        start, end = _years(quals)
        loader.writer.triple(
            loader.key(s), relation, loader.key(o), domain=DOMAIN, source=SUPPLIED, start_year=start, end_year=end
        )
    report.new_triples = loader.writer.flush()
    log.info("scratch KB: %d triples loaded, %d rejected", report.new_triples, len(report.errors))
    return store, report


__all__ = [
    "MAX_PART_CHARS",
    "MAX_SCRATCH_TRIPLES",
    "Qualified",
    "ScratchReport",
    "add_value",
    "relation_for",
    "scratch_store",
    "split_qualifier",
    "value_key",
    "value_of",
    "year_of",
]
