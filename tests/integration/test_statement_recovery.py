"""How much of a generated FactCHD pair's ground truth the statement reader recovers from query + response.

The pairs are made in-process from the seed KB exactly as `drowzee generate factchd --n 200 --seed 0
--dedupe 0` makes them; for each pair `QueryReader(catalog).with_query(query, response)` must
recover every ground-truth claim (subject / relation / object by label, case-insensitive, negation).

Measured on the seed KB (n=200, seeds 0-4, 250 pairs per pattern in all) before the "St." and
"XVIII." sentence-split fixes: vanilla 1.00, multi_hop 0.996, comparison 0.996, set_operation 0.988;
after them, seed 0: 1.00 on every pattern. Known remaining limits: set-operation members whose name
holds " and " ("Serbia and Montenegro", "Svalbard and Jan Mayen") split at the last " and ", and a
label with a final period ("K.Street Jr.") that the query's condition drops.
"""

from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import pytest

from agents.reading.templates.questions import QueryReader
from agents.reading.templates.statement_types import Statement
from drowzee_core.generate.factchd import PATTERNS, FactCHDConfig, FactCHDGenerator
from drowzee_core.kb.model import Stats
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.records.pair import QRPair

pytestmark = [pytest.mark.integration, pytest.mark.slow]

N, SEED = 200, 0
THRESHOLDS = {"vanilla": 0.95, "multi_hop": 0.95, "comparison": 0.95, "set_operation": 0.9}
"""Per-pattern floor: the measured rate (1.00, 1.00, 0.98, 1.00 for this seed) less a margin."""

Key = tuple[str, str, str, bool]


@pytest.fixture(scope="module")
def pairs_and_labels(seed_kb: tuple[Path, Stats]) -> tuple[list[QRPair], Reasoner, dict[str, str]]:
    reasoner = Reasoner(KBStore(seed_kb[0]))
    pairs = FactCHDGenerator.from_reasoner(reasoner).generate(FactCHDConfig(n=N, seed=SEED))
    ids = reasoner.store.entity_ids()
    keys: set[str] = set()
    for p in pairs:
        assert p.ground_truth is not None and p.ground_truth.claims, p.id
        keys |= {k for c in p.ground_truth.claims for k in (c.subject, c.object) if k in ids}
    by_id = reasoner.store.labels(ids[k] for k in keys)
    return pairs, reasoner, {k: by_id[ids[k]] for k in keys}


def _norm(text: str) -> str:
    return " ".join(text.split()).casefold()


def test_reader_recovers_ground_truth_claims(
    pairs_and_labels: tuple[list[QRPair], Reasoner, dict[str, str]],
) -> None:
    pairs, reasoner, labels = pairs_and_labels
    reader = QueryReader(reasoner.catalog)
    hits: dict[str, list[bool]] = defaultdict(list)
    misses: list[str] = []
    for pair in pairs:
        assert pair.ground_truth is not None and pair.pattern is not None
        got: set[Key] = {
            (_norm(c.subject), c.relation, _norm(c.object), c.negated)
            for c in reader.with_query(pair.query, pair.response)
            if isinstance(c, Statement)
        }
        want: set[Key] = {
            (_norm(labels.get(c.subject, c.subject)), c.relation, _norm(labels.get(c.object, c.object)), c.negated)
            for c in pair.ground_truth.claims
        }
        hits[pair.pattern].append(want <= got)
        if not want <= got:
            misses.append(f"{pair.pattern}: {pair.query!r} -> {pair.response!r}: missing {sorted(want - got)}")
    rates = {p: sum(h) / len(h) for p, h in hits.items()}
    print("statement recovery per pattern:", {p: f"{r:.2f} of {len(hits[p])}" for p, r in rates.items()})
    for miss in misses:
        print("  miss", miss)
    assert set(rates) == set(PATTERNS) and all(len(h) == N // len(PATTERNS) for h in hits.values())
    low = {p: r for p, r in rates.items() if r < THRESHOLDS[p]}
    assert low == {}, (rates, misses)
    assert sum(map(sum, hits.values())) >= 0.97 * len(pairs), (rates, misses)
