"""Derivation at Drowzee's KB size: 1,647,206 synthetic triples with a realistic mix.

Mix: a 5-level located-in tree (continent <- subregion <- country <- region <- city), functional
population / time zone per city, capitals and currencies per country, symmetric borders between
regions. Prints load seconds, seconds per materialized family, queries per second of the on-demand
families (negation and same-object) over 100,000 seeded pairs each, and peak RSS.

`--scale 3` builds a KB three times as large (the same mix, 3x the regions, cities, borders and
quantities; the continents, subregions, countries, currencies and zones stay): cost against size.

Run: .venv/bin/python bench/derive_scale.py [--seed 7] [--pairs 100000] [--scale 1]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import sys
import time

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.engine import PrologEngine

TARGET = 1_647_206


def synthetic(
    rid: dict[str, int], seed: int, scale: float = 1.0
) -> tuple[list[tuple[int, int, int, int]], dict[str, list[int]]]:
    """The synthetic rows (s, r, o, negated) and the id pools used for on-demand sampling."""
    rng = random.Random(seed)
    ids = iter(range(1, 10**9))
    target, n_regions, n_borders = round(TARGET * scale), round(12_000 * scale), round(30_000 * scale)
    continents = [next(ids) for _ in range(6)]
    subregions = [next(ids) for _ in range(24)]
    countries = [next(ids) for _ in range(240)]
    regions = [next(ids) for _ in range(n_regions)]
    currencies = [next(ids) for _ in range(40)]
    zones = [next(ids) for _ in range(400)]
    fixed = 24 + 240 + n_regions + 240 * 4 + n_borders
    n_cities = (target - fixed) // 3
    extra_borders = target - fixed - 3 * n_cities
    cities = [next(ids) for _ in range(n_cities)]
    quantities = [next(ids) for _ in range(round(50_000 * scale))]
    rows: list[tuple[int, int, int, int]] = []
    loc = rid["located_in"]
    rows += [(s, loc, continents[i % 6], 0) for i, s in enumerate(subregions)]
    rows += [(c, loc, subregions[i % 24], 0) for i, c in enumerate(countries)]
    rows += [(r, loc, countries[i % 240], 0) for i, r in enumerate(regions)]
    capital = {}
    for i, c in enumerate(cities):
        region = regions[i % len(regions)]
        rows.append((c, loc, region, 0))
        rows.append((c, rid["population"], rng.choice(quantities), 0))
        rows.append((c, rid["in_time_zone"], zones[i % len(zones)], 0))
        capital.setdefault(countries[(i % len(regions)) % 240], c)
    for i, c in enumerate(countries):
        rows.append((c, rid["has_capital"], capital[c], 0))
        rows.append((c, rid["has_currency"], currencies[i % 40], 0))
        rows.append((c, rid["on_continent"], continents[(i % 24) % 6], 0))
        rows.append((c, rid["population"], rng.choice(quantities), 0))
    pairs: set[tuple[int, int]] = set()
    while len(pairs) < n_borders + extra_borders:
        a, b = rng.sample(regions, 2)
        if (b, a) not in pairs:
            pairs.add((a, b))
    rows += [(a, rid["shares_border_with"], b, 0) for a, b in sorted(pairs)]
    assert len(rows) == target, len(rows)
    return rows, {"cities": cities, "countries": countries, "zones": zones, "quantities": quantities}


def main() -> None:
    """Run the benchmark and print its figures as JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--pairs", type=int, default=100_000)
    ap.add_argument("--scale", type=float, default=1.0, help="KB size as a multiple of Drowzee's (1,647,206 triples).")
    args = ap.parse_args()
    store = KBStore(":memory:", create=True)
    catalog = Catalog.from_toml()
    store.save_catalog(catalog)
    rid = store.relation_ids()
    t0 = time.perf_counter()
    rows, pools = synthetic(rid, args.seed, args.scale)
    n_triples = len(rows)
    gen_s = time.perf_counter() - t0

    engine = PrologEngine()
    engine.load_rules(catalog, rid)
    t0 = time.perf_counter()
    engine.load_rows(rows[i : i + 200_000] for i in range(0, len(rows), 200_000))
    load_s = time.perf_counter() - t0
    del rows

    t0 = time.perf_counter()
    runs = engine.derive()
    derive_s = time.perf_counter() - t0

    rng = random.Random(args.seed + 1)
    # negation: functional facts with a different object (time zone, population, capital)
    neg = []
    for _ in range(args.pairs):
        kind = rng.random()
        if kind < 0.45:
            neg.append((rng.choice(pools["cities"]), rid["in_time_zone"], rng.choice(pools["zones"])))
        elif kind < 0.9:
            neg.append((rng.choice(pools["cities"]), rid["population"], rng.choice(pools["quantities"])))
        else:
            neg.append((rng.choice(pools["countries"]), rid["has_capital"], rng.choice(pools["cities"])))
    t0 = time.perf_counter()
    neg_status = engine.prove_many(neg)
    neg_s = time.perf_counter() - t0
    same = [
        (rng.choice(pools["countries"]), rid["same_continent_as"], rng.choice(pools["countries"]))
        for _ in range(args.pairs)
    ]
    t0 = time.perf_counter()
    same_status = engine.prove_many(same)
    same_s = time.perf_counter() - t0

    peak_gb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024**2
    result = {
        "triples": n_triples,
        "scale": args.scale,
        "generate_seconds": round(gen_s, 2),
        "load_seconds": round(load_s, 2),
        "families": {str(r.family): {"facts": r.facts, "seconds": round(r.seconds, 2)} for r in runs},
        "materialized_total_seconds": round(derive_s, 2),
        "on_demand": {
            "negation": {
                "pairs": len(neg),
                "seed": args.seed + 1,
                "seconds": round(neg_s, 2),
                "queries_per_second": round(len(neg) / neg_s),
                "statuses": {s: neg_status.count(s) for s in set(neg_status)},
            },
            "same_object": {
                "pairs": len(same),
                "seed": args.seed + 1,
                "seconds": round(same_s, 2),
                "queries_per_second": round(len(same) / same_s),
                "statuses": {s: same_status.count(s) for s in set(same_status)},
            },
        },
        "total_seconds_load_derive_on_demand": round(load_s + derive_s + neg_s + same_s, 2),
        "peak_rss_gb": round(peak_gb, 2),
    }
    json.dump(result, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
