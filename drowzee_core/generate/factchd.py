"""FactCHD-style Query-Response pairs from the KB, each with its evidence chain and gold explanation.

Four patterns (FactCHD's categories in brackets):

- vanilla [Conventional]: one fact, asked with the relation's noun phrase ("What is the capital of X?");
- multi_hop [Reasoning]: a random walk of 2-4 hops through relations whose current node has exactly
  one object, asked as a nested phrase ("What is the currency of the country whose capital is Y?");
- comparison [Comparing]: 2-4 entities of one kind compared on a numeric or year relation;
- set_operation [Operation]: intersection, union or difference of two subject sets
  {x | r(x, o)}, computed by Prolog.

Labels alternate FACTUAL / NON-FACTUAL within each pattern. A NON-FACTUAL response is made by a named
corruption: wrong_entity, wrong_number, broken_hop, wrong_comparison or wrong_set_member. Every pair
keeps the claims of its response with Prolog's status (supported / contradicted / unknown, never
rewritten) in `ground_truth`, and says in `grounding` how its label is grounded: `proved` (Prolog
proves every claim of a FACTUAL response, or refutes the false claims of a NON-FACTUAL one),
`closed_world` (a false claim is only absent from the KB) or `computed` (the label is arithmetic over
proved facts: comparisons, set operations). The makers prefer corruptions Prolog can refute (see
`Knobs`); `FactCHDConfig.grounding` keeps only pairs of one grounding.
`FactCHDConfig.style` "natural" re-words every response (`drowzee_core.generate.natural`) and keeps
each pair's facts, label, evidence and ground truth; `meta.style` says which wording a pair has.
Records are `QRPair`s with FactCHD's JSONL fields first (`id, label, query, response, evidence,
reason, domain, type, category`, plus `subgraph_type` and sizes as FactCHD has them), then `pattern`,
`corruption`, `split`, `entities`, `ground_truth` and `grounding`.
"""

from __future__ import annotations

import logging
import random
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate import factchd_compute, factchd_patterns
from drowzee_core.generate.factchd_record import Knobs
from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.generate.prover import EngineProver
from drowzee_core.generate.request import check_request, check_share
from drowzee_core.generate.splits import SplitPlan
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.records.enums import Grounding, Label, Split
from drowzee_core.records.pair import QRPair

log = logging.getLogger(__name__)

PATTERNS: tuple[str, ...] = ("vanilla", "multi_hop", "comparison", "set_operation")
Maker = Callable[[KBIndex, random.Random, bool, Knobs], QRPair | None]
MAKERS: dict[str, Maker] = {
    "vanilla": factchd_patterns.vanilla,
    "multi_hop": factchd_patterns.multi_hop,
    "comparison": factchd_compute.comparison,
    "set_operation": factchd_compute.set_operation,
}
GROUNDINGS: dict[tuple[str, bool], frozenset[Grounding]] = {
    ("vanilla", True): frozenset({Grounding.PROVED}),
    ("vanilla", False): frozenset({Grounding.PROVED, Grounding.CLOSED_WORLD}),
    ("multi_hop", True): frozenset({Grounding.PROVED}),
    ("multi_hop", False): frozenset({Grounding.PROVED, Grounding.CLOSED_WORLD}),
    ("comparison", True): frozenset({Grounding.COMPUTED}),
    ("comparison", False): frozenset({Grounding.PROVED, Grounding.COMPUTED}),
    ("set_operation", True): frozenset({Grounding.COMPUTED}),
    ("set_operation", False): frozenset({Grounding.PROVED, Grounding.CLOSED_WORLD}),
}
"""The groundings each (pattern, FACTUAL?) can have (see `factchd_record.grounding_of`)."""


class Style(StrEnum):
    """How responses are worded: the catalog's templates, or re-worded by `drowzee_core.generate.natural`."""

    TEMPLATE = "template"
    NATURAL = "natural"


STYLES: tuple[str, ...] = tuple(s.value for s in Style)


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
    grounding: Grounding | None = None
    """Keep only pairs with this grounding (None keeps all); patterns and labels that cannot have it are skipped."""
    knobs: Knobs = field(default_factory=Knobs)
    """How the makers draw (how strongly they prefer corruptions Prolog can refute)."""
    style: str = "template"
    """How responses are worded (`STYLES`); `natural` keeps every pair's facts, label and ground truth."""

    def __post_init__(self) -> None:
        check_request(self.n, self.patterns, PATTERNS, "patterns", self.split, self.domains)
        check_share("oversample", self.oversample, 1.0, 5.0)
        if self.style not in STYLES:
            raise DrowzeeError(f"`style` must be one of {list(STYLES)}, got {self.style!r}")
        if self.grounding is not None:
            if self.grounding not in set(Grounding):
                raise DrowzeeError(f"`grounding` must be one of {[g.value for g in Grounding]}, got {self.grounding!r}")
            if not any(self.labels(p) for p in self.patterns):
                raise DrowzeeError(
                    f"no pattern of {list(self.patterns)} makes `{self.grounding}` pairs; see"
                    " factchd.GROUNDINGS (computed: comparison and set_operation only)"
                )

    def labels(self, pattern: str) -> list[bool]:
        """The labels (FACTUAL?) that `pattern` makes under this config's grounding filter."""
        return [f for f in (True, False) if self.grounding is None or self.grounding in GROUNDINGS[(pattern, f)]]


class FactCHDGenerator:
    """Generates FactCHD Query-Response pairs over a `KBIndex` (a KB store and a `Prover`)."""

    def __init__(self, index: KBIndex, hub_degree: int = 100) -> None:
        self.index = index
        self.store = index.store
        self.hub_ids = self.store.hub_entities(hub_degree)
        self.stats: dict[str, dict[str, int]] = {}
        """Per pattern of the last `generate`: candidates made, near-duplicates and other-grounding drops."""

    @classmethod
    def from_reasoner(cls, reasoner: Reasoner, hub_degree: int = 100) -> FactCHDGenerator:
        """A generator whose statuses come from the reasoner's Prolog engine."""
        return cls(KBIndex(reasoner.store, EngineProver(reasoner.engine)), hub_degree)

    def generate(
        self,
        cfg: FactCHDConfig,
        dedupe: Callable[[list[str]], list[int]] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[QRPair]:
        """Generate up to `cfg.n` pairs, spread evenly over the patterns that can make `cfg.grounding`.

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
        usable = [p for p in cfg.patterns if cfg.labels(p)]
        for p in cfg.patterns:
            if p not in usable:
                log.warning("pattern %s makes no %s pairs: skipped", p, cfg.grounding)
        out: list[QRPair] = []
        made = 0
        self.stats = {}
        kept: list[QRPair] = []
        for pi, pattern in enumerate(usable):
            want = cfg.n // len(usable) + (1 if pi < cfg.n % len(usable) else 0)
            target = int(want * cfg.oversample) + 1
            budget = (50 if cfg.split is None and cfg.grounding is None else 500) * target + 1000
            pool = _Pool(pattern, cfg, plan, budget)
            for _round in range(TOP_UPS + 1):  # near-duplicate removal may leave too few: make more
                made += pool.grow(ix, rng, target, progress, made)
                keep = dedupe([c.query for c in pool.cands]) if dedupe else list(range(len(pool.cands)))
                kept = [pool.cands[i] for i in keep]
                if _enough(kept, want, len(cfg.labels(pattern))) or pool.misses >= pool.budget:
                    break
                target = len(pool.cands) + max(8, 2 * (want - len(kept)))
            self.stats[pattern] = {
                "candidates": len(pool.cands),
                "near_duplicates": len(pool.cands) - len(kept),
                "other_grounding": pool.other,
            }
            chosen = _balanced(kept, want)
            if len(chosen) < want:
                log.warning("pattern %s: %d of %d pairs (the KB ran out of distinct cases)", pattern, len(chosen), want)
            for case in chosen:
                case.id = str(uuid.UUID(int=rng.getrandbits(128), version=4))
            out.extend(chosen)
        if cfg.style == "natural":
            # imported here: the package is loaded only by a generator that asks for it, never by a reader
            from drowzee_core.generate.natural import restyle

            # after every draw of the pairs, so both styles give the same pairs for the same seed
            return restyle(ix, out, random.Random(rng.getrandbits(64)))
        for case in out:
            case.meta = {**(case.meta or {}), "style": str(cfg.style)}
        return out


TOP_UPS = 4
"""Rounds of extra candidates after near-duplicate removal left too few."""


@dataclass
class _Pool:
    """The candidates of one pattern, with what was drawn and rejected so far."""

    pattern: str
    cfg: FactCHDConfig
    plan: SplitPlan
    budget: int
    cands: list[QRPair] = field(default_factory=list)
    seen: set[str] = field(default_factory=set)
    misses: int = 0
    other: int = 0

    def grow(
        self, ix: KBIndex, rng: random.Random, target: int, progress: Callable[[int], None] | None, made: int
    ) -> int:
        """Draw until there are `target` candidates or the budget of misses is spent; returns how many were added."""
        cfg, labels, before = self.cfg, self.cfg.labels(self.pattern), len(self.cands)
        while len(self.cands) < target and self.misses < self.budget:
            case = MAKERS[self.pattern](ix, rng, labels[len(self.cands) % len(labels)], cfg.knobs)
            split = None if case is None else self.plan.case_split(case.entities)
            if (
                case is None
                or case.query + case.response in self.seen
                or (cfg.domains is not None and case.domain not in cfg.domains)
                or (cfg.split is not None and split != cfg.split)
            ):
                self.misses += 1
                continue
            if cfg.grounding is not None and case.grounding != cfg.grounding:
                self.misses += 1
                self.other += 1
                continue
            self.seen.add(case.query + case.response)
            case.split = None if split is None else Split(split)
            self.cands.append(case)
            if progress:
                progress(made + len(self.cands) - before)
        return len(self.cands) - before


def _enough(kept: list[QRPair], want: int, labels: int) -> bool:
    """Whether `kept` holds `want` pairs with both labels balanced (when the pattern makes both)."""
    if labels == 1:
        return len(kept) >= want
    fact = sum(c.label == Label.FACTUAL for c in kept)
    return min(fact, len(kept) - fact) >= (want + 1) // 2


def _balanced(cases: list[QRPair], want: int) -> list[QRPair]:
    """The first `want` cases, taking FACTUAL and NON-FACTUAL in turn while both remain."""
    fact = [c for c in cases if c.label == Label.FACTUAL]
    non = [c for c in cases if c.label != Label.FACTUAL]
    out: list[QRPair] = []
    while len(out) < want and (fact or non):
        for q in (fact, non):
            if q and len(out) < want:
                out.append(q.pop(0))
    return out


def to_rows(pairs: Sequence[QRPair]) -> list[dict[str, Any]]:
    """Pairs as JSON-ready dicts in FactCHD's field order, without the fields a pair leaves empty."""
    return [p.model_dump(mode="json", exclude_defaults=True) for p in pairs]


def grounding_shares(rows: Sequence[QRPair]) -> dict[str, dict[str, int]]:
    """How many pairs have each grounding: overall, per pattern and per label."""
    groups: dict[str, Counter[str]] = {"all": Counter()}
    for p in rows:
        g = "none" if p.grounding is None else str(p.grounding)
        for key in ("all", f"pattern={p.pattern}", f"label={p.label}"):
            groups.setdefault(key, Counter())[g] += 1
            if key.startswith("pattern"):
                groups.setdefault(f"{key},label={p.label}", Counter())[g] += 1
    return {k: dict(sorted(v.items())) for k, v in groups.items()}
