"""A seeded KB of integer triples for the derivation differential test, and its recorded derivations.

`kb_rows(seed)` makes a KB over the catalog's rule families with the shapes that stress derivation:
a located-in forest with places in two regions, `contains` facts the other way round (level-1
`located_in`), two cycles, an `is_a` lattice with a cycle that `instance_of` and `occupation` reach
(composites over a transitive second relation), `part_of` chains, capitals both ways, borders,
members, functional values and explicit negative facts.

`record(out)` derives everything with the engine and writes down what it found: every materialized
fact per family, every fact that holds at any level (`holds_all/4`), and the status and proof of
every derived fact and of a seeded sample of other queries (proved, refuted and unknown ones).
`tests/data/derive_golden.json.gz` is that record, made with the engine before the derivation was
rewritten (issue 36, commit 2ba7db3):

    python -m tests.derive_kb tests/data/derive_golden.json.gz

The test (`tests/integration/test_derive_differential.py`) derives again and compares.
"""

from __future__ import annotations

import gzip
import json
import random
import sys
from pathlib import Path
from typing import Any

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore
from drowzee_core.logic import session
from drowzee_core.logic.engine import PrologEngine
from drowzee_core.logic.rules import Family

SEED = 36
Row = tuple[int, int, int, int]


def relation_ids() -> tuple[Catalog, dict[str, int]]:
    """The catalog and its relation ids, as a fresh KB numbers them."""
    store = KBStore(":memory:", create=True)
    catalog = Catalog.from_toml()
    store.save_catalog(catalog)
    return catalog, store.relation_ids()


def kb_rows(rid: dict[str, int], seed: int = SEED) -> list[Row]:
    """The seeded KB's rows (s, r, o, negated), entity ids from 1."""
    rng = random.Random(seed)
    ids = iter(range(1, 10**6))

    def pool(n: int) -> list[int]:
        return [next(ids) for _ in range(n)]

    continents, subregions, countries, regions, cities = pool(3), pool(6), pool(24), pool(90), pool(500)
    currencies, languages, quantities = pool(8), pool(10), pool(300)
    classes, items, people = pool(60), pool(220), pool(120)
    parts, groups = pool(80), pool(12)
    rows: set[Row] = set()

    def add(s: int, r: str, o: int, neg: int = 0) -> None:
        if s != o:
            rows.add((s, rid[r], o, neg))

    loc = "located_in"
    for i, s in enumerate(subregions):
        add(s, loc, continents[i % 3])
    for i, c in enumerate(countries):
        add(c, loc, subregions[i % 6])
    for i, r in enumerate(regions):
        add(r, loc, countries[i % 24])
    for i, c in enumerate(cities):
        add(c, loc, regions[i % 90]) if i % 7 else add(regions[i % 90], "contains", c)  # level-1 located_in
        if i % 23 == 0:
            add(c, loc, rng.choice(regions))  # a place in two regions
        add(c, "population", rng.choice(quantities))
    add(regions[0], loc, regions[1])
    add(regions[1], loc, regions[0])  # a cycle
    for i in range(0, 500, 31):  # contains facts that skip a level: a base edge the closure also gives
        add(countries[(i % 90) % 24], "contains", cities[i])
    add(continents[0], "contains", countries[0])
    for i, c in enumerate(countries):
        add(c, "has_currency", currencies[i % 8])
        add(c, "has_official_language", languages[i % 10])
        if i % 3 == 0:
            add(c, "on_continent", continents[i % 3])
        capital = cities[(i * 19) % 500]
        add(c, "has_capital", capital) if i % 2 else add(capital, "capital_of", c)
    add(regions[5], "has_currency", currencies[1])  # a region with its own currency, under a country with another
    add(regions[6], "has_currency", currencies[6])  # and one with its country's: two chains to one currency
    for i, k in enumerate(classes[1:], 1):
        add(k, "is_a", classes[rng.randrange(0, i)])
        if i % 9 == 0:
            add(k, "is_a", classes[rng.randrange(0, i)])  # a lattice
        if i % 13 == 0:
            add(classes[rng.randrange(0, i)], "has_subtype", k)  # level-1 is_a
        if i % 17 == 0:
            add(classes[0], "has_subtype", k)  # often also reached through the lattice
    add(classes[0], "is_a", classes[40])  # a cycle through the root
    for x in items:
        add(x, "instance_of", rng.choice(classes))
    for p in people:
        add(p, "occupation", rng.choice(classes[20:]))
        add(p, "member_of", rng.choice(groups)) if p % 2 else add(rng.choice(groups), "has_member", p)
        add(p, "born_in_year", rng.choice(quantities))
    for i, p in enumerate(parts[1:], 1):
        add(p, "part_of", parts[rng.randrange(max(0, i - 5), i)])
    add(parts[0], "part_of", parts[3])  # a cycle
    for _ in range(200):
        a, b = rng.sample(regions + countries, 2)
        add(a, "shares_border_with", b)
    for _ in range(60):  # explicit negative facts
        add(rng.choice(cities), loc, rng.choice(countries), 1)
        add(rng.choice(people), "occupation", rng.choice(classes), 1)
    return sorted(rows)


def derive(catalog: Catalog, rid: dict[str, int], rows: list[Row]) -> tuple[PrologEngine, dict[str, Any]]:
    """A fresh engine with the rows, derived; and the facts per family it materialized."""
    engine = PrologEngine()
    engine.load_rules(catalog, rid)
    engine.load_rows([rows])
    runs = engine.derive()
    facts = {str(f): sorted(engine.derived_sample(f, 10**7)) for f in Family if f in {r.family for r in runs}}
    goal = f"findall([_S,_R,_O], (member(_R, Rs), {engine.module}:holds_all(_S,_R,_O,_)), _L0), sort(_L0, L)"
    holding = session.call(goal, {"Rs": sorted(rid.values())})["L"]
    return engine, {"counts": {str(r.family): r.facts for r in runs}, "facts": facts, "holds": holding}


def queries(rows: list[Row], facts: dict[str, list[tuple[int, int, int]]], seed: int = SEED) -> list[tuple[int, ...]]:
    """Every derived fact, and a seeded sample of base facts and of other (s, r, o) triples."""
    rng = random.Random(seed + 1)
    derived = sorted({tuple(f) for fs in facts.values() for f in fs})
    base = [(s, r, o) for s, r, o, _ in rng.sample(rows, 300)]
    names = sorted({x for s, _, o, _ in rows for x in (s, o)})
    relations = sorted({r for _, r, _, _ in rows})
    other = [(rng.choice(names), rng.choice(relations), rng.choice(names)) for _ in range(600)]
    return [*derived, *base, *other]


def record(out: Path) -> None:
    """Derive the seeded KB and write every family's facts and the queries' statuses and proofs."""
    catalog, rid = relation_ids()
    rows = kb_rows(rid)
    engine, derived = derive(catalog, rid, rows)
    proved = []
    for q in queries(rows, derived["facts"]):
        res = engine.prove(*q)
        proved.append([list(q), str(res.status), res.proof])
    body = {"rows": len(rows), **derived, "proofs": proved}
    with gzip.open(out, "wt", encoding="utf-8") as f:
        json.dump(body, f, separators=(",", ":"))


if __name__ == "__main__":
    record(Path(sys.argv[1]))
