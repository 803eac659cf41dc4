"""Drowzee yes/no questions from facts derived by the KB's rules, each with its Prolog proof.

A case starts from a seed: a base fact of a relation that one of the five rule families applies to
(symmetric, inverse, transitive, composite including "same object", negation through functional
relations). Prolog derives a conclusion from the seed by that family's rule and returns the proof
(`PrologEngine.case_batch`); the generator only phrases it. The answer follows from the proof's
status and the question form, never from the generator's intent, and every case stores the
conclusion by key so that `reprove` (and the tests) can check it again.

Cases are spread evenly over the chosen families and, within a family, over the domains that have
seed facts; a cell that runs out of seeds hands its share to the others. Within each family the
target answer alternates Yes / No, so every family is balanced.
"""

from __future__ import annotations

import logging
import random
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate import templates_kb
from drowzee_core.generate.drowzee_qa_plan import Cell, Seed, allocate, family_kinds, interleave
from drowzee_core.generate.request import check_request, check_share
from drowzee_core.generate.splits import SplitPlan
from drowzee_core.kb.model import RelationSpec
from drowzee_core.logic.explain import label_proof, proof_ids, proof_leaves, reasoning_lines
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.records.cases import QACase
from drowzee_core.records.enums import ProofStatus, Split, YesNo
from drowzee_core.records.proof import KBClaim, ProofNode
from prompts import render

log = logging.getLogger(__name__)

FAMILIES: tuple[str, ...] = ("symmetric", "inverse", "transitive", "composite", "negation")
"""Drowzee's rule families, in the order cases are interleaved."""


@dataclass(frozen=True, slots=True)
class DrowzeeQAConfig:
    """What to generate; validated at construction."""

    n: int
    seed: int = 0
    families: tuple[str, ...] = FAMILIES
    domains: tuple[str, ...] | None = None
    """Only seed facts of these KB domains (None: all)."""
    split: str | None = None
    """Keep only cases of this split (None: all cases, each labelled with its split or null)."""
    plan: SplitPlan = field(default_factory=SplitPlan)
    antonym_share: float = 0.5
    """Share of flipped questions phrased with an antonym, where the relation has one."""
    batch: int = 200

    def __post_init__(self) -> None:
        check_request(self.n, self.families, FAMILIES, "rules", self.split, self.domains)
        check_share("antonym_share", self.antonym_share)


class DrowzeeQAGenerator:
    """Generates Drowzee QA cases over a loaded `Reasoner` (the KB is loaded once, reused per call)."""

    def __init__(self, reasoner: Reasoner, hub_degree: int = 100) -> None:
        self.reasoner = reasoner
        self.store = reasoner.store
        self.catalog = reasoner.catalog
        self.hub_ids = self.store.hub_entities(hub_degree)

    def _cells(self, cfg: DrowzeeQAConfig, rng: random.Random) -> list[Cell]:
        cells: dict[tuple[str, str], Cell] = {}
        for family in cfg.families:
            for kind, rels in family_kinds(family, self.catalog, self.reasoner.relation_ids):
                facts = self.store.facts_of(rels)
                by_rel: dict[int, list[tuple[int, int]]] = defaultdict(list)
                for s, r, o, _d in facts:
                    by_rel[r].append((s, o))
                for s, r, o, domain in facts:
                    if cfg.domains is not None and domain not in cfg.domains:
                        continue
                    if kind.startswith("negation"):
                        other_s, other_o = rng.choice(by_rel[r])
                        if other_o == o:
                            continue  # the distractor must name another value
                        k = other_o if kind == "negation" else other_s
                    else:
                        k = rng.randrange(1 << 30)
                    cell = cells.setdefault((family, domain), Cell(family, domain, []))
                    cell.seeds.append((kind, (s, r, o, k)))
        out = sorted(cells.values(), key=lambda c: (cfg.families.index(c.family), c.domain))
        for cell in out:
            rng.shuffle(cell.seeds)
        return out

    def generate(self, cfg: DrowzeeQAConfig, progress: Callable[[int], None] | None = None) -> list[QACase]:
        """Generate up to `cfg.n` cases; fewer (with a warning) only when the KB has no more seeds."""
        rng = random.Random(cfg.seed)
        plan = SplitPlan(cfg.plan.seed, cfg.plan.shares, frozenset(self.store.keys(self.hub_ids).values()))
        cells = self._cells(cfg, rng)
        if not cells:
            raise DrowzeeError(
                f"the KB has no seed facts for rules {list(cfg.families)}"
                + (f" in domains {list(cfg.domains)}" if cfg.domains else "")
            )
        allocate(cells, cfg.n, cfg.families)
        cases: list[QACase] = []
        seen: set[tuple[int, int, int]] = set()
        flips: dict[str, int] = defaultdict(int)
        while True:
            for cell in cells:
                while cell.need > 0 and not cell.exhausted:
                    made = self._fill(cell, cfg, plan, rng, seen, flips)
                    cases.extend(made)
                    cell.need -= len(made)
                    if progress:
                        progress(len(cases))
            deficit = cfg.n - len(cases)
            open_cells = [c for c in cells if not c.exhausted]
            if deficit <= 0 or not open_cells:
                break
            allocate(open_cells, deficit, cfg.families)
        if len(cases) < cfg.n:
            log.warning("the KB yielded %d of %d requested cases; every seed fact was tried", len(cases), cfg.n)
        cases = cases[: cfg.n]
        self._rebalance(cases)
        cases = interleave(cases, cfg.families)
        for i, case in enumerate(cases):
            case.id = f"drowzee-qa-{cfg.seed}-{i:06d}"
        return cases

    def _fill(
        self,
        cell: Cell,
        cfg: DrowzeeQAConfig,
        plan: SplitPlan,
        rng: random.Random,
        seen: set[tuple[int, int, int]],
        flips: dict[str, int],
    ) -> list[QACase]:
        take = cell.seeds[cell.pos : cell.pos + max(16, min(cfg.batch, 2 * cell.need))]
        cell.pos += len(take)
        if cfg.split is not None:
            keys = self.store.keys(s for _k, (s, _r, _o, _x) in take)
            take = [t for t in take if t[1][0] in self.hub_ids or plan.admits(keys[t[1][0]], cfg.split)]
        by_kind: dict[str, list[Seed]] = defaultdict(list)
        for kind, seed in take:
            by_kind[kind].append(seed)
        results = [(kind, r) for kind, seeds in by_kind.items() for r in self.reasoner.engine.case_batch(kind, seeds)]
        ids = {i for _k, r in results for i in proof_ids(r["proof"])}
        labels, keys = self.store.labels(ids), self.store.keys(ids)
        made: list[QACase] = []
        for kind, res in results:
            if len(made) >= cell.need:
                break
            s, r, o = (int(x) for x in res["fact"])
            if (s, r, o) in seen:
                continue
            entities = [keys[s], keys[o]]
            split = plan.case_split(entities)
            if cfg.split is not None and split != cfg.split:
                continue
            seen.add((s, r, o))
            made.append(self._case(cell, kind, res, labels, keys, entities, split, rng, flips, cfg))
        return made

    def _case(
        self,
        cell: Cell,
        kind: str,
        res: dict[str, Any],
        labels: dict[int, str],
        keys: dict[int, str],
        entities: list[str],
        split: str | None,
        rng: random.Random,
        flips: dict[str, int],
        cfg: DrowzeeQAConfig,
    ) -> QACase:
        s, r, o = (int(x) for x in res["fact"])
        rel = self.reasoner.relation_names[r]
        spec = self.catalog.get(rel)
        proof = label_proof(
            res["proof"], labels, self.reasoner.relation_names, self.catalog, self.reasoner.rules.composite_names
        )
        assert proof is not None
        status = ProofStatus(str(res["status"]))
        want_yes = flips[cell.family] % 2 == 0
        flips[cell.family] += 1
        if want_yes == (status == ProofStatus.SUPPORTED):
            form = "positive"
        else:
            form = "antonym" if spec.antonyms and rng.random() < cfg.antonym_share else "negated"
        q = templates_kb.question(spec, labels[s], labels[o], form, rng.randrange(8))
        ans = templates_kb.answer(status, form)
        return QACase(
            id="",
            split=None if split is None else Split(split),
            domain=cell.domain,
            rule=cell.family,
            rule_detail=str(proof["rule"]),
            form=form,
            question=q,
            answer=ans,
            entities=entities,
            facts=[(f[0], f[1], f[2]) for f in proof_leaves(proof)],
            conclusion=KBClaim(
                subject=keys[s],
                relation=rel,
                object=keys[o],
                status=status,
                subject_label=labels[s],
                object_label=labels[o],
                text=str(proof["text"]),
            ),
            proof=ProofNode.model_validate(proof),
            reasoning=[*reasoning_lines(proof, self.catalog), f"So the answer is {ans}."],
            prompt=render("drowzee_qa", question=q),
        )

    def _rebalance(self, cases: list[QACase]) -> None:
        """Make Yes and No differ by at most one overall.

        Each family alternates on its own, so every family with an odd count has one extra Yes;
        the last Yes case of such families is asked in a flipped form until the totals match.
        """
        diff = sum(1 if c.answer == YesNo.YES else -1 for c in cases)
        for family in FAMILIES:
            if diff <= 1:
                break
            mine = [c for c in cases if c.rule == family]
            if len(mine) % 2 == 1 and mine[-1].answer == YesNo.YES:
                _rephrase(mine[-1], self.catalog.get(mine[-1].conclusion.relation))
                diff -= 2


def _rephrase(case: QACase, spec: RelationSpec) -> None:
    """Ask a case in the form whose answer is the opposite of its current one."""
    c = case.conclusion
    form = "negated" if case.form == "positive" else "positive"
    q = templates_kb.question(spec, c.subject_label or c.subject, c.object_label or c.object, form)
    ans = templates_kb.answer(c.status, form)
    case.form, case.question, case.answer = form, q, ans
    case.prompt = render("drowzee_qa", question=q)
    case.reasoning = [*case.reasoning[:-1], f"So the answer is {ans}."]
