"""FactCHD-style Query-Response pairs from the KB, each with its evidence chain and gold explanation.

Four patterns (FactCHD's categories in brackets):

- vanilla [Conventional]: one fact, asked with the relation's noun phrase ("What is the capital of X?");
- multi_hop [Reasoning]: a random walk of 2-4 hops through relations whose current node has exactly
  one object, asked as a nested phrase ("What is the currency of the country whose capital is Y?");
- comparison [Comparing]: 2-4 entities of one kind compared on a numeric or year relation;
- set_operation [Operation]: intersection, union or difference of two subject sets
  {x | r(x, o)}, computed by Prolog.

Labels alternate FACTUAL / NON-FACTUAL within each pattern. A NON-FACTUAL response is made by a named
corruption: wrong_entity, wrong_number, broken_hop, wrong_comparison or wrong_set_member. Every case
keeps the claims of its response with their Prolog status in `ground_truth`, so labels can be
re-checked: a FACTUAL claim is supported; a NON-FACTUAL one is contradicted (functional relations)
or absent from the KB (`closed_world`, as FactCHD's KG-built pairs are).
Records use FactCHD's JSONL fields (`id, label, query, response, evidence, reason, domain, type,
category`, plus `subgraph_type` and sizes as FactCHD has them) and add `pattern`, `corruption`,
`split`, `entities` and `ground_truth`.
"""

from __future__ import annotations

import logging
import random
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate import factchd_patterns
from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.generate.request import check_request, check_share
from drowzee_core.generate.splits import SplitPlan
from drowzee_core.logic.reasoner import Reasoner

log = logging.getLogger(__name__)

PATTERNS: tuple[str, ...] = ("vanilla", "multi_hop", "comparison", "set_operation")
CATEGORY = factchd_patterns.CATEGORY
MAKERS = {
    "vanilla": factchd_patterns.vanilla,
    "multi_hop": factchd_patterns.multi_hop,
    "comparison": factchd_patterns.comparison,
    "set_operation": factchd_patterns.set_operation,
}


@dataclass(frozen=True, slots=True)
class FactCHDConfig:
    """What to generate; validated at construction."""

    n: int
    seed: int = 0
    patterns: tuple[str, ...] = PATTERNS
    domains: tuple[str, ...] | None = None
    split: str | None = None
    plan: SplitPlan = field(default_factory=SplitPlan)
    oversample: float = 1.2
    """Candidates made per case wanted, so near-duplicate removal still leaves `n`."""

    def __post_init__(self) -> None:
        check_request(self.n, self.patterns, PATTERNS, "patterns", self.split, self.domains)
        check_share("oversample", self.oversample, 1.0, 5.0)


class FactCHDGenerator:
    """Generates FactCHD Query-Response pairs over a loaded `Reasoner`."""

    def __init__(self, reasoner: Reasoner, hub_degree: int = 100) -> None:
        self.reasoner = reasoner
        self.store = reasoner.store
        self.index = KBIndex(reasoner)
        self.hub_ids = self.store.hub_entities(hub_degree)
        self.stats: dict[str, dict[str, int]] = {}
        """Per pattern of the last `generate`: candidates made and near-duplicates dropped."""

    def generate(
        self,
        cfg: FactCHDConfig,
        dedupe: Callable[[list[str]], list[int]] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[dict[str, Any]]:
        """Generate up to `cfg.n` pairs, spread evenly over the patterns.

        Args:
            cfg: What to generate.
            dedupe: Given the candidate queries of one pattern, the indices to keep (near-duplicate
                removal, see `drowzee_core.generate.dedupe`); None keeps every candidate.
            progress: Called with the number of candidates made so far.

        """
        rng = random.Random(cfg.seed)
        plan = SplitPlan(cfg.plan.seed, cfg.plan.shares, frozenset(self.store.keys(self.hub_ids).values()))
        ix = self.index
        sources = {
            "vanilla": ix.unique,
            "multi_hop": ix.unique,
            "comparison": ix.comparisons,
            "set_operation": ix.set_relations,
        }
        missing = [p for p in cfg.patterns if not sources[p]]
        if missing:
            raise DrowzeeError(
                f"this KB has no facts for patterns {missing}: they need relations with a `phrase`"
                " (vanilla, multi_hop), a [[comparison]] relation with numeric facts, or non-transitive entity"
                " relations (set_operation); a KB built before the catalog had them needs `drowzee kb build`"
            )
        out: list[dict[str, Any]] = []
        made = 0
        for pi, pattern in enumerate(cfg.patterns):
            want = cfg.n // len(cfg.patterns) + (1 if pi < cfg.n % len(cfg.patterns) else 0)
            target = int(want * cfg.oversample) + 1
            cands: list[dict[str, Any]] = []
            seen: set[str] = set()
            misses = 0
            budget = (50 if cfg.split is None else 500) * target + 1000  # a split rejects most candidates
            while len(cands) < target and misses < budget:
                factual = len(cands) % 2 == 0
                case = MAKERS[pattern](ix, rng, factual)
                if case is None or case["query"] + case["response"] in seen:
                    misses += 1
                    continue
                if cfg.domains is not None and case["domain"] not in cfg.domains:
                    misses += 1
                    continue
                split = plan.case_split(case["entities"])
                if cfg.split is not None and split != cfg.split:
                    misses += 1
                    continue
                seen.add(case["query"] + case["response"])
                case["split"] = split
                cands.append(case)
                made += 1
                if progress:
                    progress(made)
            keep = dedupe([c["query"] for c in cands]) if dedupe else list(range(len(cands)))
            kept = [cands[i] for i in keep]
            self.stats[pattern] = {"candidates": len(cands), "near_duplicates": len(cands) - len(kept)}
            chosen = _balanced(kept, want)
            if len(chosen) < want:
                log.warning("pattern %s: %d of %d pairs (the KB ran out of distinct cases)", pattern, len(chosen), want)
            for case in chosen:
                case["id"] = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            out.extend(chosen)
        return out


def _balanced(cases: list[dict[str, Any]], want: int) -> list[dict[str, Any]]:
    """The first `want` cases, taking FACTUAL and NON-FACTUAL in turn while both remain."""
    fact = [c for c in cases if c["label"] == "FACTUAL"]
    non = [c for c in cases if c["label"] != "FACTUAL"]
    out: list[dict[str, Any]] = []
    while len(out) < want and (fact or non):
        for q in (fact, non):
            if q and len(out) < want:
                out.append(q.pop(0))
    return out
