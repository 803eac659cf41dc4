"""Training and dev data for the grounded judge: (query, response, evidence) examples from the KB.

Each recipe of `judge_recipes` draws facts through a `Pools` of one split's entities and returns a
SUPPORTED or NOT_SUPPORTED `Draft` (the Prover decides every claim). This module gives each draft its
evidence and writes `JudgeExample`s:

- the draft's `keep` facts (minus `drop`, replaced in place by another distractor), one fact of the
  same relation about another subject per kept fact, a fact about each entity the draft mentions (a
  wrong answer appears in the evidence too), then distractors about the same entities, up to a length
  drawn independently of the label, shuffled;
- distractors never join the two entities of a dropped fact, nor use its relation (or inverse) on
  them, so the rest of the evidence cannot re-derive what was left out;
- rendered as verbalized sentences (the relation's template or noun phrase), as raw triples
  "subject | relation | object", or mixed (`JudgeConfig.triple_share`, `mixed_share`).

Labels alternate within each recipe (a contrast recipe makes both at once, linked by `contrast_of`);
splits are entity-disjoint (`SplitPlan`: every non-hub entity of an example, evidence included, is in
its split); the same seed and KB give the same examples.
"""

from __future__ import annotations

import logging
import random
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.judge_parts import Draft, Pools
from drowzee_core.generate.judge_recipes import MAKERS, RECIPES
from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.generate.prover import EngineProver, Fact
from drowzee_core.generate.request import check_request, check_share
from drowzee_core.generate.splits import SplitPlan
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.records.enums import Split
from drowzee_core.records.judge import JudgeExample, Support

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class JudgeConfig:
    """What to generate; validated at construction."""

    n: int
    seed: int = 0
    recipes: tuple[str, ...] = RECIPES
    split: str | None = None
    plan: SplitPlan = field(default_factory=SplitPlan)
    triple_share: float = 0.25
    """Share of examples whose evidence is all raw triples ("s | relation | o")."""
    mixed_share: float = 0.25
    """Share of examples whose evidence mixes sentences and triples (the rest: sentences only)."""
    evidence_len: tuple[int, int] = (3, 8)
    """Fewest and most evidence items (drawn uniformly, whatever the label; witnesses may add more)."""

    def __post_init__(self) -> None:
        check_request(self.n, self.recipes, RECIPES, "recipes", self.split)
        check_share("triple_share", self.triple_share)
        check_share("mixed_share", self.mixed_share)
        if self.triple_share + self.mixed_share > 1:
            raise DrowzeeError(
                f"`triple_share` + `mixed_share` must be <= 1, got {self.triple_share + self.mixed_share}"
            )
        lo, hi = self.evidence_len
        if not 1 <= lo <= hi <= 50:
            raise DrowzeeError(
                f"`evidence_len` must be (low, high) with 1 <= low <= high <= 50, got {self.evidence_len}"
            )


class JudgeGenerator:
    """Generates `JudgeExample`s over a `KBIndex` (a KB store and a `Prover`)."""

    def __init__(self, index: KBIndex, hub_degree: int = 100) -> None:
        self.index = index
        self.keys = {i: k for k, i in index.store.entity_ids().items()}
        self.hubs = frozenset(self.keys[i] for i in index.store.hub_entities(hub_degree) if i in self.keys)
        self.stats: dict[str, dict[str, int]] = {}
        """Per recipe of the last `generate`: examples per variant, and draws that gave none."""

    @classmethod
    def from_reasoner(cls, reasoner: Reasoner, hub_degree: int = 100) -> JudgeGenerator:
        """A generator whose statuses come from the reasoner's Prolog engine."""
        return cls(KBIndex(reasoner.store, EngineProver(reasoner.engine)), hub_degree)

    def generate(self, cfg: JudgeConfig, progress: Callable[[int], None] | None = None) -> list[JudgeExample]:
        """Up to `cfg.n` examples, spread evenly over the recipes, labels alternating within each."""
        rng = random.Random(cfg.seed)
        plan = SplitPlan(cfg.plan.seed, cfg.plan.shares, self.hubs)
        pools = Pools(self.index, self._admits(plan, cfg.split))
        out: list[JudgeExample] = []
        self.stats = {}
        for ri, recipe in enumerate(cfg.recipes):
            want = cfg.n // len(cfg.recipes) + (1 if ri < cfg.n % len(cfg.recipes) else 0)
            got: list[JudgeExample] = []
            variants: Counter[str] = Counter()
            seen: set[tuple[str, str, str]] = set()
            misses, budget = 0, 200 * want + 1000
            while len(got) < want and misses < budget:
                drafts = MAKERS[recipe](pools, rng, len(got) % 2 == 0)
                made = None if drafts is None else self._assemble(cfg, plan, pools, rng, recipe, drafts)
                if made is None or any((e.query, e.response, e.label) in seen for e in made):
                    misses += 1
                    continue
                made = made[: want - len(got)]
                seen.update((e.query, e.response, e.label) for e in made)
                variants.update(f"{e.label}:{d.variant}" for e, d in zip(made, drafts or [], strict=False))
                got.extend(made)
                if progress:
                    progress(len(out) + len(got))
            if len(got) < want:
                log.warning("recipe %s: %d of %d examples (the KB ran out of cases)", recipe, len(got), want)
            self.stats[recipe] = dict(sorted(variants.items())) | {"misses": misses}
            out.extend(got)
        return out

    def _admits(self, plan: SplitPlan, split: str | None) -> Callable[[int], bool]:
        if split is None:
            return lambda _e: True
        keys = self.keys
        return lambda e: plan.admits(keys[e], split) if e in keys else True

    def _assemble(
        self, cfg: JudgeConfig, plan: SplitPlan, pools: Pools, rng: random.Random, recipe: str, drafts: list[Draft]
    ) -> list[JudgeExample] | None:
        """The drafts' examples with one shared evidence (a contrast replaces its dropped facts), or None."""
        keep = list(dict.fromkeys(f for d in drafts for f in d.keep))
        drops = {f for d in drafts for f in d.drop}
        core = {e for f in keep for e in (f[0], f[2])} | {e for d in drafts for e in (*d.mention, *d.entities)}
        core.discard(-1)
        split = plan.case_split(self.keys[e] for e in core)
        if split is None or (cfg.split is not None and split != cfg.split):
            return None
        free = self._free(plan, split, set(keep), drops)
        facts = list(keep)
        for s, r, _o in keep:  # the same relation about another subject, in both labels' evidence
            facts += _first([g for g in rng.sample(pools.by_rel[r], min(10, len(pools.by_rel[r]))) if g[0] != s], free)
        for m in (m for d in drafts for m in d.mention):
            if not any(m in (g[0], g[2]) for g in facts):
                facts += _first([g for g in pools.touching(rng, m) if g not in facts], free)
        size = rng.randint(*cfg.evidence_len)
        pool = [g for e in sorted(core) for g in pools.touching(rng, e, 6)]
        for r in sorted({f[1] for f in keep}):  # more facts of the same relations: hard distractors
            pool += rng.sample(pools.by_rel[r], min(4, len(pools.by_rel[r])))
        rng.shuffle(pool)
        extra = [g for g in dict.fromkeys(pool) if free(g) and g not in facts]
        taken = max(0, size - len(facts))
        facts += extra[:taken]
        spares = extra[taken : taken + len(drops)]
        facts = list(dict.fromkeys(facts))
        rng.shuffle(facts)
        texts = self._render(cfg, rng, [*facts, *spares])
        ids = [str(uuid.UUID(int=rng.getrandbits(128), version=4)) for _ in drafts]
        out = []
        for i, d in enumerate(drafts):
            spare = iter(texts[len(facts) :])
            evidence = [texts[j] if f not in d.drop else next(spare, "") for j, f in enumerate(facts)]
            ents = core | {e for f in facts for e in (f[0], f[2])}
            out.append(
                JudgeExample(
                    id=ids[i],
                    query=d.query,
                    response=d.response,
                    evidence=[t for t in evidence if t],
                    label=Support.SUPPORTED if d.supported else Support.NOT_SUPPORTED,
                    source=f"kb:{recipe}",
                    recipe=recipe,
                    contrast_of=ids[0] if i > 0 and d.drop else None,
                    split=Split(split),
                    entities=sorted(self.keys[e] for e in ents if e in self.keys),
                )
            )
        return out

    def _free(self, plan: SplitPlan, split: str, keep: set[Fact], drops: set[Fact]) -> Callable[[Fact], bool]:
        """Whether a fact may be a distractor: in the split, and unable to re-derive a dropped fact."""
        ix = self.index
        pairs = {frozenset((s, o)) for s, _r, o in drops}
        ents = {e for s, _r, o in drops for e in (s, o)}
        rels = {r for _s, r, _o in drops}
        rels |= {ix.rids[n] for r in list(rels) if (n := ix.specs[r].inverse_of) is not None and n in ix.rids}

        def free(f: Fact) -> bool:
            s, r, o = f
            return (
                f not in keep
                and frozenset((s, o)) not in pairs
                and not (r in rels and (s in ents or o in ents))
                and plan.admits(self.keys.get(s, ""), split)
                and plan.admits(self.keys.get(o, ""), split)
            )

        return free

    def _render(self, cfg: JudgeConfig, rng: random.Random, facts: Sequence[Fact]) -> list[str]:
        """Facts as sentences, raw triples or a mix of both (one choice per example)."""
        ix = self.index
        u = rng.random()
        mode = "triples" if u < cfg.triple_share else "mixed" if u < cfg.triple_share + cfg.mixed_share else "text"
        out = []
        for s, r, o in facts:
            spec = ix.specs[r]
            if mode == "triples" or (mode == "mixed" and rng.random() < 0.5):
                out.append(f"{ix.label(s)} | {spec.label} | {ix.label(o)}")
            elif spec.phrase and rng.random() < 0.3:
                phrase = spec.phrase.format(s=ix.label(s))
                out.append(f"{phrase[:1].upper()}{phrase[1:]} is {ix.label(o)}.")
            else:
                out.append(ix.stmt(s, r, o))
        return out


def _first(facts: Sequence[Fact], ok: Callable[[Fact], bool]) -> list[Fact]:
    """The first fact that `ok` accepts, as a list of at most one."""
    return next(([f] for f in facts if ok(f)), [])


__all__ = ["RECIPES", "JudgeConfig", "JudgeGenerator"]
