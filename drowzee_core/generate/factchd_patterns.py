"""The four FactCHD patterns: each makes one FACTUAL or NON-FACTUAL pair, or None (see `factchd`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from drowzee_core.generate.kb_index import Fact, KBIndex
from drowzee_core.generate.templates_kb import clause, format_number, join_names, parse_number
from drowzee_core.kb.model import ValueKind

CATEGORY = {
    "vanilla": "Conventional",
    "multi_hop": "Reasoning",
    "comparison": "Comparing",
    "set_operation": "Operation",
}
SUBGRAPH = {
    "vanilla": "single_fact",
    "multi_hop": "multi_hop_reasoning",
    "comparison": "quantitative_comparison",
    "set_operation": "set_operation",
}
NO_FALLACY = (
    "Therefore, there are no fallacies, faulty reasoning, or incorrect conclusions present in this question and answer."
)
MAX_SET = 6


def _record(
    ix: KBIndex,
    pattern: str,
    factual: bool,
    query: str,
    response: str,
    evidence: list[list[str]],
    reason: str,
    domain: str,
    corruption: str | None,
    entities: set[int],
    ground_truth: dict[str, Any],
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
        "entities": sorted(ix.key(e) for e in entities),
        "ground_truth": ground_truth,
    }


# ---------------------------------------------------------------------- vanilla
def vanilla(ix: KBIndex, rng: random.Random, factual: bool) -> dict[str, Any] | None:
    """One fact, asked with the relation's noun phrase."""
    s, r, o, domain = rng.choice(ix.unique)
    spec = ix.specs[r]
    assert spec.phrase is not None
    query = f"What is {spec.phrase.format(s=ix.label(s))}?"
    truth = ix.stmt(s, r, o)
    evidence = [ix.ev(s, r, o)]
    if factual:
        reason = (
            f"FACTUAL.\nThe answer that {clause(truth)} is correct. According to the evidence, "
            f"{clause(truth)}. {NO_FALLACY}"
        )
        return _record(
            ix,
            "vanilla",
            True,
            query,
            truth,
            evidence,
            reason,
            domain,
            None,
            {s, o},
            {"claims": [ix.claim(s, r, o, ix.status(s, r, o))]},
        )
    if spec.object_kind != ValueKind.ENTITY and (value := parse_number(ix.label(o))) is not None:
        wrong = _perturb(rng, value, spec.object_kind)
        response = ix.stmt(s, r, wrong)
        claim = ix.claim(s, r, wrong, "contradicted" if spec.functional else "closed_world")
        corruption = "wrong_number"
    else:
        w = ix.wrong_object(rng, r, {o})
        if w is None:
            return None
        response, wrong = ix.stmt(s, r, w), ix.label(w)
        claim = ix.claim(s, r, w, ix.status(s, r, w))
        if claim["status"] == "supported":
            return None
        corruption = "wrong_entity"
    reason = (
        f"NON-FACTUAL.\nThe answer that {clause(response)} is incorrect. According to the evidence, "
        f"{clause(truth)}, not {wrong}. Therefore, the answer contains an incorrect conclusion."
    )
    return _record(
        ix,
        "vanilla",
        False,
        query,
        response,
        evidence,
        reason,
        domain,
        corruption,
        {s, o},
        {"claims": [claim], "correct": ix.stmt(s, r, o)},
    )


# ---------------------------------------------------------------------- multi-hop
def _walk(ix: KBIndex, rng: random.Random, start: int, relations: Sequence[int] | None, hops: int) -> list[Fact] | None:
    """A walk from `start`; with `relations`, it must follow exactly those relations."""
    path: list[Fact] = []
    cur, seen = start, {start}
    for k in range(len(relations) if relations is not None else hops):
        if relations is not None:
            choices = [relations[k]]
        else:
            choices = sorted(r for r in ix.rels_of.get(cur, ()) if r in ix.phrased)
            rng.shuffle(choices)
        for r in choices:
            nxt = ix.unique_object(cur, r)
            if nxt is not None and nxt not in seen:
                path.append((cur, r, nxt))
                cur = nxt
                seen.add(nxt)
                break
        else:
            return None if relations is not None or len(path) < 2 else path
    return path


def _nested(ix: KBIndex, start: int, relations: Sequence[int]) -> str:
    text = ix.label(start)
    for r in relations:
        phrase = ix.specs[r].phrase
        assert phrase is not None
        text = phrase.format(s=text)
    return text


def multi_hop(ix: KBIndex, rng: random.Random, factual: bool) -> dict[str, Any] | None:
    """A 2-4 hop walk through unique-object facts, asked as a nested phrase."""
    s0, _r, _o, domain = rng.choice(ix.unique)
    path = _walk(ix, rng, s0, None, rng.randint(2, 4))
    if path is None or len(path) < 2:
        return None
    rels = [r for _s, r, _o in path]
    nested = _nested(ix, s0, rels)
    query = f"What is {nested}?"
    final = path[-1][2]
    evidence = [ix.ev(*f) for f in path]
    chain = " ".join(ix.stmt(*f) for f in path)
    entities = {s0, *(f[2] for f in path)}
    if factual:
        response = f"{chain} So {nested} is {ix.label(final)}."
        reason = f"FACTUAL.\nThe answer that {nested} is {ix.label(final)} is correct. {chain} {NO_FALLACY}"
        return _record(
            ix,
            "multi_hop",
            True,
            query,
            response,
            evidence,
            reason,
            domain,
            None,
            entities,
            {"claims": [ix.claim(*f, ix.status(*f)) for f in path]},
            hops=len(path),
        )
    for _ in range(6):
        j = rng.randrange(len(path))
        s_j, r_j, o_j = path[j]
        w = ix.wrong_object(rng, r_j, {o_j})
        if w is None:
            continue
        rest = _walk(ix, rng, w, rels[j + 1 :], 0) if j + 1 < len(rels) else []
        if rest is None:
            continue
        bad = [*path[:j], (s_j, r_j, w), *rest]
        if bad[-1][2] == final or ix.status(s_j, r_j, w) == "supported":
            continue
        wrong_chain = " ".join(ix.stmt(*f) for f in bad)
        response = f"{wrong_chain} So {nested} is {ix.label(bad[-1][2])}."
        corruption = "wrong_entity" if j == len(path) - 1 else "broken_hop"
        reason = (
            f"NON-FACTUAL.\nThe answer that {nested} is {ix.label(bad[-1][2])} is incorrect. {chain} "
            f"The answer wrongly states that {clause(ix.stmt(s_j, r_j, w))}. Therefore, the answer "
            f"contains faulty reasoning and an incorrect conclusion: {nested} is {ix.label(final)}."
        )
        claims = [ix.claim(*f, ix.status(*f)) for f in bad]
        return _record(
            ix,
            "multi_hop",
            False,
            query,
            response,
            evidence,
            reason,
            domain,
            corruption,
            entities | {w},
            {"claims": claims, "broken_hop": j, "correct": ix.label(final)},
            hops=len(path),
        )
    return None


# ---------------------------------------------------------------------- comparison
def comparison(ix: KBIndex, rng: random.Random, factual: bool) -> dict[str, Any] | None:
    """2-4 entities of one kind (same key prefix) compared on a numeric relation."""
    if not ix.comparisons:
        return None
    comp, r, pool = rng.choice(ix.comparisons)
    s0 = rng.choice(pool)
    kind = ix.key(s0).split(":", 1)[0]
    k = rng.randint(2, 4)
    picked: dict[int, float] = {}
    for _ in range(40):
        s = rng.choice(pool) if picked else s0
        o = ix.unique_object(s, r)
        if o is None or s in picked or ix.key(s).split(":", 1)[0] != kind:
            continue
        value = parse_number(ix.label(o))
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
    query = f"Among {join_names([ix.label(s) for s in subjects])}, which one {pred}?"
    values = {s: ix.unique_object(s, r) for s in subjects}
    evidence = [ix.ev(s, r, o) for s, o in values.items() if o is not None]
    facts = " ".join(ix.stmt(s, r, o) for s, o in values.items() if o is not None)
    domain = ix.domain_of.get((s0, r, values[s0] or 0), ix.specs[r].domain)
    entities = {*subjects}
    truth = {
        "relation": comp.relation,
        "values": {ix.key(s): picked[s] for s in subjects},
        "answer": ix.key(winner),
        "direction": "most" if most else "least",
    }
    if factual:
        response = f"{ix.label(winner)} {pred}. {facts}"
        reason = f"FACTUAL.\nThe answer that {ix.label(winner)} {pred} is correct. {facts} {NO_FALLACY}"
        return _record(
            ix,
            "comparison",
            True,
            query,
            response,
            evidence,
            reason,
            domain,
            None,
            entities,
            truth,
            comparison_size=len(subjects),
        )
    loser = rng.choice([s for s in subjects if s != winner])
    if rng.random() < 0.5:
        corruption = "wrong_comparison"
        response = f"{ix.label(loser)} {pred}. {facts}"
    else:
        corruption = "wrong_number"
        best = picked[winner]
        fake = best * (1.1 + rng.random()) if most else best * (0.5 + 0.4 * rng.random())
        if ix.specs[r].object_kind == ValueKind.YEAR:
            fake = best + rng.randint(1, 30) if most else best - rng.randint(1, 30)
        fake = float(round(fake))
        stated = " ".join(
            ix.stmt(s, r, format_number(fake) if s == loser else ix.label(o))
            for s, o in values.items()
            if o is not None
        )
        response = f"{ix.label(loser)} {pred}. {stated}"
        truth["stated_value"] = {ix.key(loser): fake}
    reason = (
        f"NON-FACTUAL.\nThe answer that {ix.label(loser)} {pred} is incorrect. {facts} "
        f"Therefore, the answer contains faulty reasoning and an incorrect conclusion: "
        f"{ix.label(winner)} {pred}."
    )
    return _record(
        ix,
        "comparison",
        False,
        query,
        response,
        evidence,
        reason,
        domain,
        corruption,
        entities,
        truth,
        comparison_size=len(subjects),
    )


# ---------------------------------------------------------------------- set operation
def set_operation(ix: KBIndex, rng: random.Random, factual: bool) -> dict[str, Any] | None:
    """Intersection, union or difference of two sets {x | r(x, o)}, computed by Prolog."""
    if not ix.set_relations:
        return None
    r1 = rng.choice(ix.set_relations)
    m, o1 = rng.choice(ix.by_rel[r1])
    r2 = rng.choice(sorted(x for x in ix.rels_of[m] if x in ix.settable))
    o2 = rng.choice(ix.objs[(m, r2)])
    if (r1, o1) == (r2, o2):
        return None
    s1, s2 = (set(x) for x in ix.reasoner.engine.subject_sets([(r1, o1), (r2, o2)]))
    op = rng.choice(("intersection", "union", "difference"))
    answer = s1 & s2 if op == "intersection" else s1 | s2 if op == "union" else s1 - s2
    if not 1 <= len(answer) <= MAX_SET or (op == "difference" and not s1 & s2):
        return None
    c1 = clause(ix.specs[r1].positive.format(s="X", o=ix.label(o1)))
    c2 = clause(ix.specs[r2].positive.format(s="X", o=ix.label(o2)))
    n2 = clause(ix.specs[r2].negative.format(s="X", o=ix.label(o2)))
    cond = {"intersection": f"{c1} and {c2}", "union": f"{c1} or {c2}", "difference": f"{c1} and {n2}"}[op]
    query = f"What are all X such that {cond}?"
    members = sorted(answer, key=ix.label)
    facts: list[Fact] = []  # what puts each member in the answer (absence from s2 has no fact)
    for x in members:
        facts += [(x, r1, o1)] if x in s1 else []
        facts += [(x, r2, o2)] if x in s2 and op != "difference" else []
    evidence = [ix.ev(*f) for f in facts]
    truth = {
        "operation": op,
        "sets": [{"relation": ix.names[r1], "object": ix.key(o1)}, {"relation": ix.names[r2], "object": ix.key(o2)}],
        "answer": sorted(ix.key(x) for x in members),
    }
    domain = ix.domain_of.get((m, r1, o1), ix.specs[r1].domain)
    entities = {o1, o2, *members}
    listed = join_names([ix.label(x) for x in members])
    if factual:
        response = _members_sentence(listed, len(members))
        reason = (
            f"FACTUAL.\nThe answer that {clause(response)} is correct. "
            + " ".join(ix.stmt(*f) for f in facts)
            + f" {NO_FALLACY}"
        )
        return _record(
            ix,
            "set_operation",
            True,
            query,
            response,
            evidence,
            reason,
            domain,
            None,
            entities,
            truth,
            set_size=2,
            answer_size=len(members),
        )
    if op == "intersection":
        pool = (s1 | s2) - answer
    elif op == "union":
        pool = {s for s, _ in ix.by_rel[r1] if s not in s1 | s2}
    else:
        pool = s1 & s2
    if not pool:
        return None
    distractor = rng.choice(sorted(pool))
    shown = list(members)
    shown[rng.randrange(len(shown))] = distractor
    shown.sort(key=ix.label)
    response = _members_sentence(join_names([ix.label(x) for x in shown]), len(shown))
    truth["stated"] = sorted(ix.key(x) for x in shown)
    reason = (
        f"NON-FACTUAL.\nThe answer that {clause(response)} is incorrect. According to the evidence, "
        f"the X such that {cond} are {listed}; {ix.label(distractor)} is not one of them. "
        "Therefore, the answer contains a false assumption and an incorrect conclusion."
    )
    return _record(
        ix,
        "set_operation",
        False,
        query,
        response,
        evidence,
        reason,
        domain,
        "wrong_set_member",
        entities | {distractor},
        truth,
        set_size=2,
        answer_size=len(shown),
    )


def _members_sentence(listed: str, n: int) -> str:
    return (
        f"The only X that meets the given criteria is {listed}."
        if n == 1
        else f"The X that meet the given criteria are {listed}."
    )


def _perturb(rng: random.Random, value: float, kind: ValueKind) -> str:
    """A wrong value near `value`: a few years off, or 10-60% off for quantities."""
    if kind == ValueKind.YEAR:
        return format_number(value + rng.choice((-1, 1)) * rng.randint(1, 40))
    factor = 1 + rng.choice((-1, 1)) * rng.uniform(0.1, 0.6)
    wrong = round(value * factor)
    return format_number(wrong if wrong != value else value + 1)
