"""The FactCHD patterns whose answers are computed: comparison and set-operation pairs.

The facts they rest on are proved by Prolog (values, subject sets); the answer (the largest value, a
set's members) is arithmetic in Python, so such a label is `computed` unless a false statement in the
response is refuted by Prolog outright (a wrong value of a functional relation; a distractor whose
membership Prolog refutes), which makes it `proved`.
"""

from __future__ import annotations

import random
from typing import Literal

from drowzee_core.generate.factchd_record import NO_FALLACY, Knobs, Sizes, grounding_of, record
from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.generate.prover import Fact
from drowzee_core.generate.templates_kb import clause, format_number, join_names, parse_number
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.template_regex import fill
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.pair import ComparisonTruth, PairTruth, QRPair, SetOperand, SetTruth
from drowzee_core.records.proof import KBClaim

MAX_SET = 6
Operation = Literal["intersection", "union", "difference"]
OPERATIONS: tuple[Operation, ...] = ("intersection", "union", "difference")
"""`OPERATIONS[::2]`: the operations whose distractor one refutable relation can refute."""
DISTRACTORS = 24
"""Distractor candidates whose membership Prolog is asked about per set-operation pair."""


# ---------------------------------------------------------------------- comparison
def _kind(key: str) -> str:
    """An entity's kind from its key's prefix ("country:fr"); a user's keys are labels, of no one kind."""
    return key.split(":", 1)[0] if ":" in key else ""


def comparison(ix: KBIndex, rng: random.Random, factual: bool, knobs: Knobs) -> QRPair | None:
    """2-4 entities of one kind (same key prefix) compared on a numeric relation."""
    if not ix.comparisons:
        return None
    refutable = [c for c in ix.comparisons if c[1] in ix.refuting]
    comp, r, pool = rng.choice(refutable if refutable and rng.random() < knobs.refutable_share else ix.comparisons)
    s0 = rng.choice(pool)
    kind = _kind(ix.key(s0))
    k = rng.randint(2, 4)
    picked: dict[int, float] = {}
    objects: dict[int, int] = {}
    for _ in range(40):
        s = rng.choice(pool) if picked else s0
        o = ix.unique_object(s, r)
        if o is None or s in picked or _kind(ix.key(s)) != kind:
            continue
        value = parse_number(ix.label(o))
        if value is None or value in picked.values():
            continue
        picked[s], objects[s] = value, o
        if len(picked) == k:
            break
    if len(picked) < 2:
        return None
    subjects = list(picked)
    facts = [(s, r, objects[s]) for s in subjects]
    sts = ix.statuses(facts)
    if any(st != ProofStatus.SUPPORTED for st in sts):
        return None
    most = rng.random() < 0.5
    winner = (max if most else min)(subjects, key=lambda s: picked[s])
    pred = comp.most if most else comp.least
    query = f"Among {join_names([ix.label(s) for s in subjects])}, which one {pred}?"
    evidence = [ix.ev(*f) for f in facts]
    stated_facts = " ".join(ix.stmt(*f) for f in facts)
    domain = ix.domain_of.get(facts[0], ix.specs[r].domain)
    truth = ComparisonTruth(
        relation=comp.relation,
        values={ix.key(s): picked[s] for s in subjects},
        answer=ix.key(winner),
        direction="most" if most else "least",
    )
    claims = [ix.claim(*f, st) for f, st in zip(facts, sts, strict=True)]
    size: Sizes = {"comparison_size": len(subjects)}
    if factual:
        response = f"{ix.label(winner)} {pred}. {stated_facts}"
        reason = f"FACTUAL.\nThe answer that {ix.label(winner)} {pred} is correct. {stated_facts} {NO_FALLACY}"
        gt = PairTruth(claims=claims, comparison=truth)
        text = (query, response, reason)
        return record(
            ix,
            "comparison",
            True,
            text,
            evidence,
            domain,
            None,
            set(subjects),
            gt,
            grounding_of(True, sts, True),
            size,
        )
    loser = rng.choice([s for s in subjects if s != winner])
    truth.stated = ix.key(loser)
    deciding: list[ProofStatus] = []
    if rng.random() < knobs.wrong_number_share:
        corruption = "wrong_number"
        best = picked[winner]
        spec = ix.specs[r]
        fake = best * (1.1 + rng.random()) if most else best * (0.5 + 0.4 * rng.random())
        if spec.object_kind == ValueKind.YEAR:
            fake = best + rng.randint(1, 30) if most else best - rng.randint(1, 30)
        fake_text = format_number(float(round(fake)))
        st = ix.status(loser, r, ix.value_id(spec.object_kind, fake_text))
        if st == ProofStatus.SUPPORTED:
            return None
        deciding = [st]
        i = subjects.index(loser)
        claims[i] = ix.claim(loser, r, fake_text, st)
        stated = " ".join(ix.stmt(s, r, fake_text if s == loser else objects[s]) for s in subjects)
        response = f"{ix.label(loser)} {pred}. {stated}"
        truth.stated_value = {ix.key(loser): float(fake_text)}
    else:
        corruption = "wrong_comparison"
        response = f"{ix.label(loser)} {pred}. {stated_facts}"
    reason = (
        f"NON-FACTUAL.\nThe answer that {ix.label(loser)} {pred} is incorrect. {stated_facts} "
        f"Therefore, the answer contains faulty reasoning and an incorrect conclusion: "
        f"{ix.label(winner)} {pred}."
    )
    gt = PairTruth(claims=claims, correct=ix.label(winner), comparison=truth)
    grounding = grounding_of(False, deciding, computed=True)
    text = (query, response, reason)
    return record(ix, "comparison", False, text, evidence, domain, corruption, set(subjects), gt, grounding, size)


# ---------------------------------------------------------------------- set operation
def set_operation(ix: KBIndex, rng: random.Random, factual: bool, knobs: Knobs) -> QRPair | None:
    """Intersection, union or difference of two sets {x | r(x, o)}, computed from Prolog's subject sets."""
    if not ix.set_relations:
        return None
    r1 = rng.choice(ix.set_relations)
    m, o1 = rng.choice(ix.by_rel[r1])
    # one refutable relation lets a distractor be refuted (intersection, difference); preferring it for
    # both relations would leave only the small sets of the periodic table
    share = 0.0 if r1 in ix.refuting else knobs.refutable_share
    r2 = ix.prefer(rng, sorted(x for x in ix.rels_of[m] if x in ix.settable), ix.refuting, share)
    o2 = rng.choice(ix.objs[(m, r2)])
    if (r1, o1) == (r2, o2):
        return None
    s1, s2 = (set(x) for x in ix.prover.subject_sets([(r1, o1), (r2, o2)]))
    # a union's distractor is refuted only when both relations are refutable: otherwise prefer the others
    both = r1 in ix.refuting and r2 in ix.refuting
    op = rng.choice(OPERATIONS if both or rng.random() >= knobs.refutable_share else OPERATIONS[::2])
    answer = s1 & s2 if op == "intersection" else s1 | s2 if op == "union" else s1 - s2
    if not 1 <= len(answer) <= MAX_SET or (op == "difference" and not s1 & s2):
        return None
    c1 = clause(fill(ix.specs[r1].positive, "X", ix.label(o1)))
    c2 = clause(fill(ix.specs[r2].positive, "X", ix.label(o2)))
    n2 = clause(fill(ix.specs[r2].negative, "X", ix.label(o2)))
    cond = {"intersection": f"{c1} and {c2}", "union": f"{c1} or {c2}", "difference": f"{c1} and {n2}"}[op]
    query = f"What are all X such that {cond}?"
    members = sorted(answer, key=ix.label)
    facts: list[Fact] = []  # what puts each member in the answer (absence from s2 has no fact)
    for x in members:
        facts += [(x, r1, o1)] if x in s1 else []
        facts += [(x, r2, o2)] if x in s2 and op != "difference" else []
    sts = ix.statuses(facts)
    if any(st != ProofStatus.SUPPORTED for st in sts):
        return None
    claims = [ix.claim(*f, st) for f, st in zip(facts, sts, strict=True)]
    evidence = [ix.ev(*f) for f in facts]
    truth = SetTruth(
        operation=op,
        sets=[
            SetOperand(relation=ix.names[r1], object=ix.key(o1)),
            SetOperand(relation=ix.names[r2], object=ix.key(o2)),
        ],
        answer=sorted(ix.key(x) for x in members),
    )
    domain = ix.domain_of.get((m, r1, o1), ix.specs[r1].domain)
    entities = {o1, o2, *members}
    listed = join_names([ix.label(x) for x in members])
    sizes: Sizes = {"set_size": 2, "answer_size": len(members)}
    if factual:
        response = _members_sentence(listed, len(members))
        reason = f"FACTUAL.\nThe answer that {clause(response)} is correct. " + " ".join(ix.stmt(*f) for f in facts)
        gt = PairTruth(claims=claims, set_operation=truth)
        text = (query, response, reason + f" {NO_FALLACY}")
        return record(
            ix,
            "set_operation",
            True,
            text,
            evidence,
            domain,
            None,
            entities,
            gt,
            grounding_of(True, sts, True),
            sizes,
        )
    picked = _distractor(ix, rng, op, (r1, o1, s1), (r2, o2, s2), answer)
    if picked is None:
        return None
    distractor, wrong_claims = picked
    shown = list(members)
    shown[rng.randrange(len(shown))] = distractor
    shown.sort(key=ix.label)
    response = _members_sentence(join_names([ix.label(x) for x in shown]), len(shown))
    truth.stated = sorted(ix.key(x) for x in shown)
    kept = {ix.key(x) for x in shown} - {ix.key(distractor)}
    claims = [c for c in claims if c.subject in kept] + wrong_claims
    reason = (
        f"NON-FACTUAL.\nThe answer that {clause(response)} is incorrect. According to the evidence, "
        f"the X such that {cond} are {listed}; {ix.label(distractor)} is not one of them. "
        "Therefore, the answer contains a false assumption and an incorrect conclusion."
    )
    gt = PairTruth(claims=claims, set_operation=truth)
    grounding = grounding_of(False, [c.status for c in wrong_claims])
    text = (query, response, reason)
    sizes["answer_size"] = len(shown)
    return record(
        ix,
        "set_operation",
        False,
        text,
        evidence,
        domain,
        "wrong_set_member",
        entities | {distractor},
        gt,
        grounding,
        sizes,
    )


def _distractor(
    ix: KBIndex,
    rng: random.Random,
    op: str,
    first: tuple[int, int, set[int]],
    second: tuple[int, int, set[int]],
    answer: set[int],
) -> tuple[int, list[KBClaim]] | None:
    """A non-member to list, with the claims about it that fail; one Prolog refutes when there is one.

    intersection: a member of one set only (it fails the other set's claim); union: a subject of
    either relation in neither set (it fails both claims); difference: a member of both sets (it fails
    the negated claim "not r2(x, o2)", which Prolog's proof of r2(x, o2) refutes).
    """
    (r1, o1, s1), (r2, o2, s2) = first, second
    if op == "intersection":
        pool = (s1 | s2) - answer
    elif op == "union":
        pool = {s for r in (r1, r2) for s, _ in ix.by_rel[r]} - (s1 | s2)
    else:
        pool = s1 & s2
    if not pool:
        return None
    cands = sorted(pool)
    cands = rng.sample(cands, min(DISTRACTORS, len(cands)))
    failing: list[list[Fact]] = []
    for d in cands:
        if op == "intersection":
            failing.append([(d, r1, o1)] if d not in s1 else [(d, r2, o2)])
        elif op == "union":
            failing.append([(d, r1, o1), (d, r2, o2)])
        else:
            failing.append([(d, r2, o2)])
    flat = [f for fs in failing for f in fs]
    sts = dict(zip(flat, ix.statuses(flat), strict=True))
    negated = op == "difference"
    options = [(d, [ix.claim(*f, sts[f], negated) for f in fs]) for d, fs in zip(cands, failing, strict=True)]
    options = [(d, cs) for d, cs in options if all(c.status != ProofStatus.SUPPORTED for c in cs)]
    refuted = [(d, cs) for d, cs in options if all(c.status == ProofStatus.CONTRADICTED for c in cs)]
    chosen = refuted or options
    return chosen[0] if chosen else None


def _members_sentence(listed: str, n: int) -> str:
    return (
        f"The only X that meets the given criteria is {listed}."
        if n == 1
        else f"The X that meet the given criteria are {listed}."
    )
