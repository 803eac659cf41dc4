"""Temporal facts: events with year intervals, from Drowzee fact files or from the KB.

An event holds on the union of its intervals. Drowzee's `facts.pl` gives `begin('e', D, M, YYYY)` and
`end('e', D, M, YYYY)` facts; an event with several of each gets the cross product of begins and ends
with begin <= end (as the authors' Prolog does). KB facts with start/end years become events too
("the currency of France is French franc" over 1795-2001), and a person's birth and death give a
lifetime.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from drowzee_core.errors import LoadError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.template_regex import fill
from drowzee_core.records.cases import Interval

log = logging.getLogger(__name__)


def drowzee_key(name: str) -> str:
    """Drowzee's event key: lowercase ASCII, every other byte of the UTF-8 text replaced by `_`.

    `Council_of_Florence` -> `council_of_florence`; `Lützen` -> `l__tzen` (two bytes, two `_`).
    """
    return "".join(
        chr(b).lower() if (48 <= b <= 57 or 65 <= b <= 90 or 97 <= b <= 122) else "_"
        for b in name.strip().encode("utf-8")
    )


@dataclass(frozen=True, slots=True)
class Event:
    """A named event, its intervals (as given: possibly overlapping) and the facts behind them."""

    key: str
    label: str
    intervals: tuple[Interval, ...]
    facts: tuple[str, ...]
    domain: str = ""
    """The KB domain of the facts behind the event ("" when unknown, as for fact files)."""


@dataclass(slots=True)
class EventTable:
    """Events by key, with name resolution for formula atoms."""

    events: dict[str, Event] = field(default_factory=dict)
    _index: dict[str, list[str]] = field(default_factory=dict)
    """Drowzee's normalized key of each event key and label -> the keys of the events it names, in order."""
    problems: list[str] = field(default_factory=list)

    def add(self, event: Event) -> None:
        """Add (or replace) an event; its key and label become resolvable names."""
        self.events[event.key] = event
        for name in (event.key, event.label):
            keys = self._index.setdefault(drowzee_key(name), [])
            if event.key not in keys:
                keys.append(event.key)

    def candidates(self, name: str) -> list[Event]:
        """Every event a name can mean: its exact key, else all events whose key or label it names.

        Labels are not unique ("the lifetime of Curie" is Marie's and Pierre's): `resolve` takes the
        first, this gives them all.
        """
        hit = self.events.get(name)
        if hit is not None:
            return [hit]
        return [self.events[k] for k in self._index.get(drowzee_key(name), [])]

    def resolve(self, name: str) -> Event | None:
        """The event an atom names: exact key first, then the first event Drowzee's normalized key or label names."""
        found = self.candidates(name)
        return found[0] if found else None

    def __len__(self) -> int:
        return len(self.events)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events.values())

    def as_mapping(self) -> dict[str, tuple[Interval, ...]]:
        """Key -> intervals (what the reference evaluator takes)."""
        return {k: e.intervals for k, e in self.events.items()}


@dataclass(slots=True)
class BeginEnd:
    """Drowzee's begin/end clauses of a parsed fact file, and everything else in it."""

    begins: dict[str, list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))
    """Event -> [(line, year)] of its `begin/4` facts."""
    ends: dict[str, list[tuple[int, int]]] = field(default_factory=lambda: defaultdict(list))
    other: list[dict[str, Any]] = field(default_factory=list)
    """Clauses that are not begin/end facts, for callers that accept other facts."""
    errors: list[tuple[int, str]] = field(default_factory=list)
    """(line, reason) of unreadable clauses and malformed begin/end facts."""

    @property
    def accepted(self) -> int:
        """Number of begin/end facts read."""
        return sum(map(len, self.begins.values())) + sum(map(len, self.ends.values()))

    def intervals(self) -> Iterator[tuple[str, list[Interval], int]]:
        """(event, its begin <= end pairs from the cross product, first line) per event, sorted by name."""
        for event in sorted(set(self.begins) | set(self.ends)):
            begins, ends = self.begins.get(event, []), self.ends.get(event, [])
            pairs = sorted({(b, e) for _, b in begins for _, e in ends if b <= e})
            yield event, pairs, (begins or ends)[0][0]


def read_begin_end(items: Iterable[dict[str, Any]]) -> BeginEnd:
    """Sort parsed clauses (see `engine.read_fact_file`) into begin/end facts, other clauses and errors."""
    out = BeginEnd()
    for item in items:
        line = int(item["line"])
        if "error" in item:
            out.errors.append((line, str(item["error"])))
            continue
        functor, args = str(item["functor"]), list(item["args"])
        if functor not in ("begin", "end") or len(args) != 4 or item.get("negated") == 1:
            out.other.append(item)
            continue
        event, _day, _month, year = args
        if not isinstance(year, int) or isinstance(year, bool) or not isinstance(event, str):
            out.errors.append((line, f"{functor}/4 needs an event name and an integer year, got {args}"))
            continue
        (out.begins if functor == "begin" else out.ends)[event].append((line, year))
    return out


def events_from_fact_items(items: Iterable[dict[str, Any]], source: str) -> EventTable:
    """Build events from parsed clauses of a Drowzee fact file (see `engine.read_fact_file`).

    Clauses other than begin/4 and end/4, and events without a begin <= end pair, are recorded in
    `problems` with their line, and skipped.
    """
    parsed = read_begin_end(items)
    table = EventTable()
    table.problems.extend(f"{source}:{line}: {reason}" for line, reason in parsed.errors)
    for item in parsed.other:
        table.problems.append(
            f"{source}:{item['line']}: not a begin/4 or end/4 fact ({item['functor']}/{len(item['args'])})"
        )
    for event, pairs, first in parsed.intervals():
        if not pairs:
            table.problems.append(f"{source}:{first}: event {event!r} has no begin <= end pair; it never holds")
        facts = [f"begin({event!r}, {y}) [{source}:{ln}]" for ln, y in parsed.begins.get(event, [])]
        facts += [f"end({event!r}, {y}) [{source}:{ln}]" for ln, y in parsed.ends.get(event, [])]
        table.add(Event(event, event, tuple(pairs), tuple(facts)))
    return table


def load_fact_file(path: Path) -> EventTable:
    """Read a Drowzee `facts.pl` with SWI-Prolog's reader (nothing in it is executed)."""
    from drowzee_core.logic.engine import read_fact_file

    if not path.is_file():
        raise LoadError(f"{path}: no such fact file")
    table = events_from_fact_items(read_fact_file(str(path)), path.name)
    log.info("%s: %d events, %d problems", path, len(table), len(table.problems))
    return table


# Readable names for events made from KB facts with years, by relation.
_POINT_EVENTS = {
    "born_in_year": "the birth of {s}",
    "died_in_year": "the death of {s}",
    "occurred_in_year": "{s}",
    "discovery_year": "the discovery of {s}",
    "proved_in_year": "the proof of {s}",
    "first_appeared_in_year": "the first appearance of {s}",
}


def _gerund(sentence: str) -> str:
    """'The currency of X is Y' -> 'the currency of X being Y' (a noun phrase an MTL atom can name)."""
    if sentence[:4] == "The ":
        sentence = "the " + sentence[4:]
    return sentence.replace(" is ", " being ", 1)


def events_from_kb(store: KBStore, open_end: int) -> EventTable:
    """Events from the KB's facts with years; a fact with no end year holds through `open_end`.

    Each fact becomes an event (its key is `fact:<triple id>`); the same (subject, relation, object)
    stated for several periods (Mali's currency was the CFA franc in 1960-1962 and from 1984) is one
    event with each period, keyed by its first triple. A person with both a birth and a death year
    gets a lifetime event `life:<entity key>` ("the lifetime of X").
    """
    catalog: Catalog = store.catalog()
    table = EventTable()
    births: dict[str, tuple[str, int, int]] = {}
    deaths: dict[str, tuple[int, int]] = {}
    same: dict[tuple[str, str, str], str] = {}
    for tid, s_key, s_label, rel, o_key, o_label, start, end, domain in store.temporal_rows():
        stop = end if end is not None else open_end
        if stop < start:
            table.problems.append(
                f"triple {tid}: starts in {start}, after its end {stop} (open ends hold through {open_end})"
            )
            continue
        spec = catalog.get(rel) if rel in catalog else None
        sentence = fill(spec.positive, s_label, o_label).rstrip(".") if spec else f"{s_label} {rel} {o_label}"
        span = f"{start}-{end if end is not None else 'present'}"
        fact = f"{sentence} ({span}) [triple {tid}]"
        label = _POINT_EVENTS[rel].format(s=s_label) if rel in _POINT_EVENTS else _gerund(sentence)
        key = same.setdefault((s_key, rel, o_key), f"fact:{tid}")
        if key in table.events:
            had = table.events[key]
            table.add(Event(key, label, tuple(sorted((*had.intervals, (start, stop)))), (*had.facts, fact), domain))
        else:
            table.add(Event(key, label, ((start, stop),), (fact,), domain))
        if rel == "born_in_year":
            births[s_key] = (s_label, start, tid)
        elif rel == "died_in_year":
            deaths[s_key] = (start, tid)
    for key, (label, born, btid) in births.items():
        if key in deaths and deaths[key][0] >= born:
            died, dtid = deaths[key]
            facts = (f"{label} was born in {born} [triple {btid}]", f"{label} died in {died} [triple {dtid}]")
            table.add(Event(f"life:{key}", f"the lifetime of {label}", ((born, died),), facts, "people"))
    return table
