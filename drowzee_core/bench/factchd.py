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
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from drowzee_core.bench.request import check_request, check_share
from drowzee_core.bench.splits import SplitPlan
from drowzee_core.errors import DrowzeeError
from drowzee_core.kb.model import RelationSpec, ValueKind
from drowzee_core.logic.reasoner import Reasoner

log = logging.getLogger(__name__)

PATTERNS: tuple[str, ...] = ("vanilla", "multi_hop", "comparison", "set_operation")
CATEGORY = {"vanilla": "Conventional", "multi_hop": "Reasoning", "comparison": "Comparing",
            "set_operation": "Operation"}
SUBGRAPH = {"vanilla": "single_fact", "multi_hop": "multi_hop_reasoning", "comparison": "quantitative_comparison",
            "set_operation": "set_operation"}
NO_FALLACY = (
    "Therefore, there are no fallacies, faulty reasoning, or incorrect conclusions present in this question and answer."
)
MAX_TRIES = 60
MAX_SET = 6

Fact = tuple[int, int, int]


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


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _low(text: str) -> str:
    """Lower-case a leading article so a sentence can follow 'that'."""
    return text[:1].lower() + text[1:] if text.startswith(("The ", "An ", "A ")) else text


def _clause(sentence: str) -> str:
    return _low(sentence.rstrip("."))


def _join(items: Sequence[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + f" and {items[-1]}"


def _number(text: str) -> float | None:
    try:
        return float(text.replace(",", ""))
    except ValueError:
        return None


def _fmt(value: float) -> str:
    return f"{int(value)}" if value == int(value) else f"{value:g}"


class FactCHDGenerator:
    """Generates FactCHD Query-Response pairs over a loaded `Reasoner`."""

    def __init__(self, reasoner: Reasoner, hub_degree: int = 100) -> None:
        self.reasoner = reasoner
        self.store = reasoner.store
        self.catalog = reasoner.catalog
        self.rids = reasoner.relation_ids
        self.names = reasoner.relation_names
        self.hub_ids = self.store.hub_entities(hub_degree)
        self.specs: dict[int, RelationSpec] = {
            self.rids[r.name]: r for r in self.catalog if r.name in self.rids
        }
        composite_results = {c.result for c in self.catalog.composites}
        self.phrased = {i for i, r in self.specs.items() if r.phrase}
        self.settable = {i for i, r in self.specs.items()
                         if not r.transitive and r.name not in composite_results and r.object_kind == ValueKind.ENTITY}
        self.facts = self.store.facts_of(self.phrased | self.settable)
        self.domain_of: dict[Fact, str] = {}
        self.objs: dict[tuple[int, int], list[int]] = defaultdict(list)
        self.by_rel: dict[int, list[tuple[int, int]]] = defaultdict(list)
        self.rels_of: dict[int, set[int]] = defaultdict(set)
        for s, r, o, d in self.facts:
            self.domain_of[(s, r, o)] = d
            self.objs[(s, r)].append(o)
            self.by_rel[r].append((s, o))
            self.rels_of[s].add(r)
        self.unique = [(s, r, o, d) for s, r, o, d in self.facts if r in self.phrased and len(self.objs[(s, r)]) == 1]
        self.stats: dict[str, dict[str, int]] = {}
        """Per pattern of the last `generate`: candidates made and near-duplicates dropped."""
        self._labels: dict[int, str] = {}
        self._keys: dict[int, str] = {}

    # ------------------------------------------------------------------ helpers
    def _label(self, eid: int) -> str:
        if eid not in self._labels:
            self._labels.update(self.store.labels([eid]))
        return self._labels[eid]

    def _key(self, eid: int) -> str:
        if eid not in self._keys:
            self._keys.update(self.store.keys([eid]))
        return self._keys[eid]

    def _stmt(self, s: int, r: int, o: int | str) -> str:
        return self.specs[r].positive.format(s=self._label(s), o=o if isinstance(o, str) else self._label(o))

    def _ev(self, s: int, r: int, o: int | str) -> list[str]:
        return [self._label(s), self.specs[r].label, o if isinstance(o, str) else self._label(o)]

    def _unique_object(self, s: int, r: int) -> int | None:
        objs = self.objs.get((s, r))
        return objs[0] if objs and len(objs) == 1 else None

    def _status(self, s: int, r: int, o: int) -> str:
        st = self.reasoner.engine.prove(s, r, o).status
        return "closed_world" if st == "unknown" else st

    def _claim(self, s: int, r: int, o: int | str, status: str) -> dict[str, Any]:
        return {"subject": self._key(s), "relation": self.names[r],
                "object": o if isinstance(o, str) else self._key(o), "status": status}

    def _wrong_object(self, rng: random.Random, r: int, not_in: set[int]) -> int | None:
        pool = self.by_rel[r]
        for _ in range(20):
            _s, o = rng.choice(pool)
            if o not in not_in:
                return o
        return None

    # ------------------------------------------------------------------ driver
    def generate(
        self, cfg: FactCHDConfig,
        dedupe: Callable[[list[str]], list[int]] | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> list[dict[str, Any]]:
        """Generate up to `cfg.n` pairs, spread evenly over the patterns.

        Args:
            cfg: What to generate.
            dedupe: Given the candidate queries of one pattern, the indices to keep (near-duplicate
                removal, see `drowzee_core.bench.dedupe`); None keeps every candidate.
            progress: Called with the number of candidates made so far.

        """
        rng = random.Random(cfg.seed)
        plan = SplitPlan(cfg.plan.seed, cfg.plan.shares, frozenset(self.store.keys(self.hub_ids).values()))
        makers = {"vanilla": self._vanilla, "multi_hop": self._multi_hop, "comparison": self._comparison,
                  "set_operation": self._set_operation}
        sources = {
            "vanilla": bool(self.unique), "multi_hop": bool(self.unique),
            "comparison": any(self.rids.get(c.relation) in self.by_rel for c in self.catalog.comparisons),
            "set_operation": any(self.by_rel.get(r) for r in self.settable),
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
                case = makers[pattern](rng, factual)
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

    def _record(
        self, pattern: str, factual: bool, query: str, response: str, evidence: list[list[str]], reason: str,
        domain: str, corruption: str | None, entities: set[int], ground_truth: dict[str, Any],
        **extra: Any,
    ) -> dict[str, Any]:
        return {
            "id": "",
            "label": "FACTUAL" if factual else "NON-FACTUAL",
            "query": query,
            "response": response,
            "evidence": evidence,
            "reason": reason,
            "domain": domain,
            "type": "kg",
            "category": CATEGORY[pattern],
            "subgraph_type": SUBGRAPH[pattern],
            **extra,
            "pattern": pattern,
            "corruption": corruption,
            "entities": sorted(self._key(e) for e in entities),
            "ground_truth": ground_truth,
        }

    # ------------------------------------------------------------------ vanilla
    def _vanilla(self, rng: random.Random, factual: bool) -> dict[str, Any] | None:
        s, r, o, domain = rng.choice(self.unique)
        spec = self.specs[r]
        assert spec.phrase is not None
        query = f"What is {spec.phrase.format(s=self._label(s))}?"
        truth = self._stmt(s, r, o)
        evidence = [self._ev(s, r, o)]
        if factual:
            reason = (f"FACTUAL.\nThe answer that {_clause(truth)} is correct. According to the evidence, "
                      f"{_clause(truth)}. {NO_FALLACY}")
            return self._record("vanilla", True, query, truth, evidence, reason, domain, None, {s, o},
                                {"claims": [self._claim(s, r, o, self._status(s, r, o))]})
        if spec.object_kind != ValueKind.ENTITY and (value := _number(self._label(o))) is not None:
            wrong = _perturb(rng, value, spec.object_kind)
            response = self._stmt(s, r, wrong)
            claim = self._claim(s, r, wrong, "contradicted" if spec.functional else "closed_world")
            corruption = "wrong_number"
        else:
            w = self._wrong_object(rng, r, {o})
            if w is None:
                return None
            response, wrong = self._stmt(s, r, w), self._label(w)
            claim = self._claim(s, r, w, self._status(s, r, w))
            if claim["status"] == "supported":
                return None
            corruption = "wrong_entity"
        reason = (f"NON-FACTUAL.\nThe answer that {_clause(response)} is incorrect. According to the evidence, "
                  f"{_clause(truth)}, not {wrong}. Therefore, the answer contains an incorrect conclusion.")
        return self._record("vanilla", False, query, response, evidence, reason, domain, corruption, {s, o},
                            {"claims": [claim], "correct": self._stmt(s, r, o)})

    # ------------------------------------------------------------------ multi-hop
    def _walk(self, rng: random.Random, start: int, relations: Sequence[int] | None, hops: int) -> list[Fact] | None:
        """A walk from `start`; with `relations`, it must follow exactly those relations."""
        path: list[Fact] = []
        cur, seen = start, {start}
        for k in range(len(relations) if relations is not None else hops):
            if relations is not None:
                choices = [relations[k]]
            else:
                choices = sorted(r for r in self.rels_of.get(cur, ()) if r in self.phrased)
                rng.shuffle(choices)
            for r in choices:
                nxt = self._unique_object(cur, r)
                if nxt is not None and nxt not in seen:
                    path.append((cur, r, nxt))
                    cur = nxt
                    seen.add(nxt)
                    break
            else:
                return None if relations is not None or len(path) < 2 else path
        return path

    def _nested(self, start: int, relations: Sequence[int]) -> str:
        text = self._label(start)
        for r in relations:
            phrase = self.specs[r].phrase
            assert phrase is not None
            text = phrase.format(s=text)
        return text

    def _multi_hop(self, rng: random.Random, factual: bool) -> dict[str, Any] | None:
        s0, _r, _o, domain = rng.choice(self.unique)
        path = self._walk(rng, s0, None, rng.randint(2, 4))
        if path is None or len(path) < 2:
            return None
        rels = [r for _s, r, _o in path]
        nested = self._nested(s0, rels)
        query = f"What is {nested}?"
        final = path[-1][2]
        evidence = [self._ev(*f) for f in path]
        chain = " ".join(self._stmt(*f) for f in path)
        entities = {s0, *(f[2] for f in path)}
        if factual:
            response = f"{chain} So {nested} is {self._label(final)}."
            reason = (f"FACTUAL.\nThe answer that {nested} is {self._label(final)} is correct. {chain} {NO_FALLACY}")
            return self._record("multi_hop", True, query, response, evidence, reason, domain, None, entities,
                                {"claims": [self._claim(*f, self._status(*f)) for f in path]}, hops=len(path))
        for _ in range(6):
            j = rng.randrange(len(path))
            s_j, r_j, o_j = path[j]
            w = self._wrong_object(rng, r_j, {o_j})
            if w is None:
                continue
            rest = self._walk(rng, w, rels[j + 1 :], 0) if j + 1 < len(rels) else []
            if rest is None:
                continue
            bad = [*path[:j], (s_j, r_j, w), *rest]
            if bad[-1][2] == final or self._status(s_j, r_j, w) == "supported":
                continue
            wrong_chain = " ".join(self._stmt(*f) for f in bad)
            response = f"{wrong_chain} So {nested} is {self._label(bad[-1][2])}."
            corruption = "wrong_entity" if j == len(path) - 1 else "broken_hop"
            reason = (f"NON-FACTUAL.\nThe answer that {nested} is {self._label(bad[-1][2])} is incorrect. {chain} "
                      f"The answer wrongly states that {_clause(self._stmt(s_j, r_j, w))}. Therefore, the answer "
                      f"contains faulty reasoning and an incorrect conclusion: {nested} is {self._label(final)}.")
            claims = [self._claim(*f, self._status(*f)) for f in bad]
            return self._record("multi_hop", False, query, response, evidence, reason, domain, corruption,
                                entities | {w}, {"claims": claims, "broken_hop": j, "correct": self._label(final)},
                                hops=len(path))
        return None

    # ------------------------------------------------------------------ comparison
    def _comparison(self, rng: random.Random, factual: bool) -> dict[str, Any] | None:
        comps = [c for c in self.catalog.comparisons if self.rids.get(c.relation) in self.by_rel]
        if not comps:
            return None
        comp = rng.choice(comps)
        r = self.rids[comp.relation]
        s0, _o = rng.choice(self.by_rel[r])
        kind = self._key(s0).split(":", 1)[0]
        pool = [s for s, _ in self.by_rel[r] if self._unique_object(s, r) is not None]
        k = rng.randint(2, 4)
        picked: dict[int, float] = {}
        for _ in range(40):
            s = rng.choice(pool) if picked else s0
            o = self._unique_object(s, r)
            if o is None or s in picked or self._key(s).split(":", 1)[0] != kind:
                continue
            value = _number(self._label(o))
            if value is None or value in picked.values():
                continue
            picked[s] = value
            if len(picked) == k:
                break
        if len(picked) < 2:
            return None
        most = rng.random() < 0.5
        subjects = list(picked)
        winner = (max if most else min)(subjects, key=lambda s: picked[s])
        pred = comp.most if most else comp.least
        query = f"Among {_join([self._label(s) for s in subjects])}, which one {pred}?"
        values = {s: self._unique_object(s, r) for s in subjects}
        evidence = [self._ev(s, r, o) for s, o in values.items() if o is not None]
        facts = " ".join(self._stmt(s, r, o) for s, o in values.items() if o is not None)
        domain = self.domain_of.get((s0, r, values[s0] or 0), self.specs[r].domain)
        entities = {*subjects}
        truth = {"relation": comp.relation, "values": {self._key(s): picked[s] for s in subjects},
                 "answer": self._key(winner), "direction": "most" if most else "least"}
        if factual:
            response = f"{self._label(winner)} {pred}. {facts}"
            reason = (f"FACTUAL.\nThe answer that {self._label(winner)} {pred} is correct. {facts} "
                      f"{NO_FALLACY}")
            return self._record("comparison", True, query, response, evidence, reason, domain, None, entities,
                                truth, comparison_size=len(subjects))
        loser = rng.choice([s for s in subjects if s != winner])
        if rng.random() < 0.5:
            corruption = "wrong_comparison"
            response = f"{self._label(loser)} {pred}. {facts}"
        else:
            corruption = "wrong_number"
            best = picked[winner]
            fake = best * (1.1 + rng.random()) if most else best * (0.5 + 0.4 * rng.random())
            if self.specs[r].object_kind == ValueKind.YEAR:
                fake = best + rng.randint(1, 30) if most else best - rng.randint(1, 30)
            fake = float(round(fake))
            stated = " ".join(self._stmt(s, r, _fmt(fake) if s == loser else self._label(o))
                              for s, o in values.items() if o is not None)
            response = f"{self._label(loser)} {pred}. {stated}"
            truth["stated_value"] = {self._key(loser): fake}
        reason = (f"NON-FACTUAL.\nThe answer that {self._label(loser)} {pred} is incorrect. {facts} "
                  f"Therefore, the answer contains faulty reasoning and an incorrect conclusion: "
                  f"{self._label(winner)} {pred}.")
        return self._record("comparison", False, query, response, evidence, reason, domain, corruption, entities,
                            truth, comparison_size=len(subjects))

    # ------------------------------------------------------------------ set operation
    def _set_operation(self, rng: random.Random, factual: bool) -> dict[str, Any] | None:
        rels = sorted(r for r in self.settable if self.by_rel.get(r))
        if not rels:
            return None
        r1 = rng.choice(rels)
        m, o1 = rng.choice(self.by_rel[r1])
        r2 = rng.choice(sorted(x for x in self.rels_of[m] if x in self.settable))
        o2 = rng.choice(self.objs[(m, r2)])
        if (r1, o1) == (r2, o2):
            return None
        s1, s2 = (set(x) for x in self.reasoner.engine.subject_sets([(r1, o1), (r2, o2)]))
        op = rng.choice(("intersection", "union", "difference"))
        answer = s1 & s2 if op == "intersection" else s1 | s2 if op == "union" else s1 - s2
        if not 1 <= len(answer) <= MAX_SET or (op == "difference" and not s1 & s2):
            return None
        c1 = _clause(self.specs[r1].positive.format(s="X", o=self._label(o1)))
        c2 = _clause(self.specs[r2].positive.format(s="X", o=self._label(o2)))
        n2 = _clause(self.specs[r2].negative.format(s="X", o=self._label(o2)))
        cond = {"intersection": f"{c1} and {c2}", "union": f"{c1} or {c2}", "difference": f"{c1} and {n2}"}[op]
        query = f"What are all X such that {cond}?"
        members = sorted(answer, key=self._label)
        evidence: list[list[str]] = []
        for x in members:
            if x in s1:
                evidence.append(self._ev(x, r1, o1))
            if x in s2 and op != "difference":
                evidence.append(self._ev(x, r2, o2))
        truth = {"operation": op, "sets": [{"relation": self.names[r1], "object": self._key(o1)},
                                           {"relation": self.names[r2], "object": self._key(o2)}],
                 "answer": sorted(self._key(x) for x in members)}
        domain = self.domain_of.get((m, r1, o1), self.specs[r1].domain)
        entities = {o1, o2, *members}
        listed = _join([self._label(x) for x in members])
        if factual:
            response = _members_sentence(listed, len(members))
            reason = (f"FACTUAL.\nThe answer that {_clause(response)} is correct. According to the evidence, "
                      + " ".join(self._stmt(x, r, o) for x, r, o in _ev_facts(members, s1, s2, op, r1, o1, r2, o2))
                      + f" {NO_FALLACY}")
            return self._record("set_operation", True, query, response, evidence, reason, domain, None, entities,
                                truth, set_size=2, answer_size=len(members))
        if op == "intersection":
            pool = (s1 | s2) - answer
        elif op == "union":
            pool = {s for s, _ in self.by_rel[r1] if s not in s1 | s2}
        else:
            pool = s1 & s2
        if not pool:
            return None
        distractor = rng.choice(sorted(pool))
        shown = list(members)
        shown[rng.randrange(len(shown))] = distractor
        shown.sort(key=self._label)
        response = _members_sentence(_join([self._label(x) for x in shown]), len(shown))
        truth["stated"] = sorted(self._key(x) for x in shown)
        reason = (f"NON-FACTUAL.\nThe answer that {_clause(response)} is incorrect. According to the evidence, "
                  f"the X such that {cond} are {listed}; {self._label(distractor)} is not one of them. "
                  "Therefore, the answer contains a false assumption and an incorrect conclusion.")
        return self._record("set_operation", False, query, response, evidence, reason, domain, "wrong_set_member",
                            entities | {distractor}, truth, set_size=2, answer_size=len(shown))


def _members_sentence(listed: str, n: int) -> str:
    return f"The only X that meets the given criteria is {listed}." if n == 1 else \
        f"The X that meet the given criteria are {listed}."


def _ev_facts(
    members: list[int], s1: set[int], s2: set[int], op: str, r1: int, o1: int, r2: int, o2: int
) -> list[Fact]:
    out: list[Fact] = []
    for x in members:
        if x in s1:
            out.append((x, r1, o1))
        if x in s2 and op != "difference":
            out.append((x, r2, o2))
    return out


def _perturb(rng: random.Random, value: float, kind: ValueKind) -> str:
    """A wrong value near `value`: a few years off, or 10-60% off for quantities."""
    if kind == ValueKind.YEAR:
        return _fmt(value + rng.choice((-1, 1)) * rng.randint(1, 40))
    factor = 1 + rng.choice((-1, 1)) * rng.uniform(0.1, 0.6)
    wrong = round(value * factor)
    return _fmt(wrong if wrong != value else value + 1)


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
