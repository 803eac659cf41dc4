"""The FactCHD patterns over facts: vanilla and multi-hop pairs.

Each maker returns one FACTUAL or NON-FACTUAL `QRPair`, or None when its draw gives no case (see
`factchd`). Every claim's status is Prolog's answer through the index's `Prover`, and every pair says
how its label is grounded (`factchd_record.grounding_of`). Comparison and set-operation makers live
in `factchd_compute`; what every pattern shares is in `factchd_record`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import partial

from drowzee_core.generate.factchd_record import NO_FALLACY, Knobs, grounding_of, record
from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.generate.prover import Fact
from drowzee_core.generate.templates_kb import clause, format_number, parse_number
from drowzee_core.kb.model import ValueKind
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.pair import PairTruth, QRPair


# ---------------------------------------------------------------------- vanilla
def vanilla(ix: KBIndex, rng: random.Random, factual: bool, knobs: Knobs) -> QRPair | None:
    """One fact, asked with the relation's noun phrase."""
    s, r, o, domain = ix.draw_fact(rng, knobs.refutable_share)
    spec = ix.specs[r]
    assert spec.phrase is not None
    query = f"What is {spec.phrase.format(s=ix.label(s))}?"
    truth = ix.stmt(s, r, o)
    evidence = [ix.ev(s, r, o)]
    if factual:
        st = ix.status(s, r, o)
        if st != ProofStatus.SUPPORTED:
            return None
        reason = (
            f"FACTUAL.\nThe answer that {clause(truth)} is correct. According to the evidence, "
            f"{clause(truth)}. {NO_FALLACY}"
        )
        claims = PairTruth(claims=[ix.claim(s, r, o, st)])
        return record(
            ix,
            "vanilla",
            True,
            (query, truth, reason),
            evidence,
            domain,
            None,
            {s, o},
            claims,
            grounding_of(True, [st]),
        )
    if spec.object_kind != ValueKind.ENTITY and (value := parse_number(ix.label(o))) is not None:
        wrong = _perturb(rng, value, spec.object_kind)
        st = ix.status(s, r, ix.value_id(spec.object_kind, wrong))
        claim, response, corruption = ix.claim(s, r, wrong, st), ix.stmt(s, r, wrong), "wrong_number"
    else:
        picked = ix.pick_wrong(rng, s, r, o)
        if picked is None:
            return None
        w, st = picked
        wrong = ix.label(w)
        claim, response, corruption = ix.claim(s, r, w, st), ix.stmt(s, r, w), "wrong_entity"
    if st == ProofStatus.SUPPORTED:  # a non-functional relation can hold for the perturbed value too
        return None
    reason = (
        f"NON-FACTUAL.\nThe answer that {clause(response)} is incorrect. According to the evidence, "
        f"{clause(truth)}, not {wrong}. Therefore, the answer contains an incorrect conclusion."
    )
    gt = PairTruth(claims=[claim], correct=truth)
    return record(
        ix,
        "vanilla",
        False,
        (query, response, reason),
        evidence,
        domain,
        corruption,
        {s, o},
        gt,
        grounding_of(False, [st]),
    )


# ---------------------------------------------------------------------- multi-hop
def _walk(
    ix: KBIndex, rng: random.Random, start: int, relations: Sequence[int] | None, hops: int, share: float = 0.0
) -> list[Fact] | None:
    """A walk from `start`; with `relations`, it must follow exactly those relations.

    A free walk avoids dead ends before its last hop and tries, with probability `share` at each hop,
    the relations whose wrong answers Prolog can refute first.
    """
    path: list[Fact] = []
    cur, seen = start, {start}
    n = len(relations) if relations is not None else hops
    for k in range(n):
        if relations is not None:
            choices = [relations[k]]
        else:
            choices = sorted(r for r in ix.rels_of.get(cur, ()) if r in ix.phrased)
            rng.shuffle(choices)
            prefer = rng.random() < share
            choices.sort(key=partial(_hop_rank, ix, cur, last=k == n - 1, prefer=prefer))  # stable sort
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


def _hop_rank(ix: KBIndex, cur: int, r: int, last: bool, prefer: bool) -> tuple[bool, bool]:
    """Sort key of a walk's next relation: onward paths first (before the last hop), then refutable ones."""
    nxt = ix.unique_object(cur, r)
    dead_end = not last and (nxt is None or not ix.rels_of.get(nxt))
    return dead_end, prefer and not ix.refutable(cur, r)


def nested_phrase(ix: KBIndex, start: int, relations: Sequence[int]) -> str:
    """The relations' phrases nested around `start` ("the currency of the country whose capital is Y")."""
    text = ix.label(start)
    for r in relations:
        phrase = ix.specs[r].phrase
        assert phrase is not None
        text = phrase.format(s=text)
    return text


def multi_hop(ix: KBIndex, rng: random.Random, factual: bool, knobs: Knobs) -> QRPair | None:
    """A 2-4 hop walk through unique-object facts, asked as a nested phrase."""
    s0, _r, _o, domain = ix.draw_fact(rng, knobs.refutable_share)
    path = _walk(ix, rng, s0, None, rng.randint(2, 4), knobs.refutable_share)
    if path is None or len(path) < 2:
        return None
    rels = [r for _s, r, _o in path]
    nested = nested_phrase(ix, s0, rels)
    query = f"What is {nested}?"
    final = path[-1][2]
    evidence = [ix.ev(*f) for f in path]
    chain = " ".join(ix.stmt(*f) for f in path)
    entities = {s0, *(f[2] for f in path)}
    if factual:
        sts = ix.statuses(path)
        if any(st != ProofStatus.SUPPORTED for st in sts):
            return None
        response = f"{chain} So {nested} is {ix.label(final)}."
        reason = f"FACTUAL.\nThe answer that {nested} is {ix.label(final)} is correct. {chain} {NO_FALLACY}"
        gt = PairTruth(claims=[ix.claim(*f, st) for f, st in zip(path, sts, strict=True)])
        text = (query, response, reason)
        return record(
            ix,
            "multi_hop",
            True,
            text,
            evidence,
            domain,
            None,
            entities,
            gt,
            grounding_of(True, sts),
            {"hops": len(path)},
        )
    hops = list(range(len(path)))
    rng.shuffle(hops)
    hops.sort(key=lambda j: not ix.refutable(path[j][0], path[j][1]))  # refutable hops first
    for j in hops[:6]:
        s_j, r_j, o_j = path[j]
        picked = ix.pick_wrong(rng, s_j, r_j, o_j)
        if picked is None:
            continue
        w, st = picked
        rest = _walk(ix, rng, w, rels[j + 1 :], 0) if j + 1 < len(rels) else []
        if rest is None:
            continue
        bad = [*path[:j], (s_j, r_j, w), *rest]
        if bad[-1][2] == final:
            continue
        sts = ix.statuses(bad)
        if sts[j] != st or any(x != ProofStatus.SUPPORTED for i, x in enumerate(sts) if i != j):
            continue
        wrong_chain = " ".join(ix.stmt(*f) for f in bad)
        response = f"{wrong_chain} So {nested} is {ix.label(bad[-1][2])}."
        corruption = "wrong_entity" if j == len(path) - 1 else "broken_hop"
        reason = (
            f"NON-FACTUAL.\nThe answer that {nested} is {ix.label(bad[-1][2])} is incorrect. {chain} "
            f"The answer wrongly states that {clause(ix.stmt(s_j, r_j, w))}. Therefore, the answer "
            f"contains faulty reasoning and an incorrect conclusion: {nested} is {ix.label(final)}."
        )
        claims = [ix.claim(*f, x) for f, x in zip(bad, sts, strict=True)]
        gt = PairTruth(claims=claims, broken_hop=j, correct=ix.label(final))
        return record(
            ix,
            "multi_hop",
            False,
            (query, response, reason),
            evidence,
            domain,
            corruption,
            entities | {w},
            gt,
            grounding_of(False, [st]),
            {"hops": len(path)},
        )
    return None


def _perturb(rng: random.Random, value: float, kind: ValueKind) -> str:
    """A wrong value near `value`: a few years off, or 10-60% off for quantities."""
    if kind == ValueKind.YEAR:
        return format_number(value + rng.choice((-1, 1)) * rng.randint(1, 40))
    factor = 1 + rng.choice((-1, 1)) * rng.uniform(0.1, 0.6)
    wrong = round(value * factor)
    return format_number(wrong if wrong != value else value + 1)
