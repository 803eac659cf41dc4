"""Recipes of the grounded judge's KB examples: (query, response) drafts whose label Prolog decides.

Each recipe makes a SUPPORTED or a NOT_SUPPORTED `Draft` from the same kind of draw, so the facts,
relations and response forms do not tell the labels apart; `judge.py` adds the evidence (the draft's
`keep` facts, witnesses and distractors about the same entities) and renders it. Every fact a
SUPPORTED response states is asked of the `Prover` and must be `supported`; every false claim of a
NOT_SUPPORTED one must not be (contradicted or unknown), or its support is left out of the evidence
(`drop`), under rules that keep the remaining evidence from re-deriving it (see `Pools.removable`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from drowzee_core.generate.judge_parts import (
    NO,
    SUP,
    YES,
    Draft,
    Pools,
    about,
    cap,
    nested,
    short,
    statement,
    value,
    wh_query,
)
from drowzee_core.generate.prover import Fact
from drowzee_core.generate.templates_kb import clause
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.template_regex import fill

RECIPES: tuple[str, ...] = (
    "wrong_entity",
    "wrong_number",
    "negation",
    "swap",
    "wrong_relation",
    "multi_claim",
    "contrast",
    "short_wh",
    "short_yesno",
    "two_fact",
)
Recipe = Callable[[Pools, random.Random, bool], list[Draft] | None]


def wrong_entity(p: Pools, rng: random.Random, sup: bool) -> list[Draft] | None:
    """A fact, or the same statement with another entity of the object's type (refuted or absent)."""
    ix, f = p.ix, p.draw(rng, "entity")
    if f is None:
        return None
    s, r, o = f
    picked = p.wrong(rng, s, r, o)
    if picked is None or ix.status(s, r, o) != SUP:
        return None
    w = picked[0]
    q = about(ix, rng, s, r)
    if sup:
        return [Draft(q, statement(ix, rng, f), True, "true", [f], mention=[w])]
    return [Draft(q, statement(ix, rng, (s, r, w)), False, "wrong_entity", [f], mention=[w], entities=[w])]


def wrong_number(p: Pools, rng: random.Random, sup: bool) -> list[Draft] | None:
    """A number or year, or the same statement with another subject's value (or a perturbed one)."""
    ix, f = p.ix, p.draw(rng, "number")
    if f is None or ix.status(*f) != SUP:
        return None
    s, r, _o = f
    got = value(ix, rng, p, f)
    if got is None:
        return None
    w, witness = got
    q, keep, ents = about(ix, rng, s, r), [f, *witness], [w] if isinstance(w, int) else []
    if sup:
        return [Draft(q, statement(ix, rng, f), True, "true", keep, entities=ents)]
    return [Draft(q, statement(ix, rng, (s, r, w)), False, "wrong_number", keep, entities=ents)]


def negation(p: Pools, rng: random.Random, sup: bool) -> list[Draft] | None:
    """A functional fact's negation (refuted), or the negation of another object (entailed by it)."""
    ix, got = p.ix, p.refuted_pair(rng)
    if got is None:
        return None
    f, w = got
    s, r, _o = f
    q = about(ix, rng, s, r)
    if sup:  # "The capital of France is not Lyon." with "The capital of France is Paris." in the evidence
        return [Draft(q, statement(ix, rng, (s, r, w), negated=True), True, "true", [f], mention=[w], entities=[w])]
    return [Draft(q, statement(ix, rng, f, negated=True), False, "negation", [f], mention=[w])]


def swap(p: Pools, rng: random.Random, sup: bool) -> list[Draft] | None:
    """A fact, or the same statement with subject and object swapped (Prolog does not support it)."""
    ix, f = p.ix, p.draw(rng, "entity")
    if f is None:
        return None
    s, r, o = f
    sts = ix.statuses([f, (o, r, s)])
    if sts[0] != SUP or sts[1] == SUP:
        return None
    q = about(ix, rng, s, r)
    if sup:
        return [Draft(q, statement(ix, rng, f), True, "true", [f])]
    return [Draft(q, statement(ix, rng, (o, r, s)), False, "swapped", [f])]


def wrong_relation(p: Pools, rng: random.Random, sup: bool) -> list[Draft] | None:
    """A fact, or the same subject and object joined by another relation whose objects have that type."""
    ix, f = p.ix, p.draw(rng, "entity")
    if f is None:
        return None
    s, r, o = f
    prefix = ix.key(o).split(":")[0]
    others = [
        r2
        for r2 in sorted(p.by_rel)
        if r2 != r
        and ix.specs[r2].object_kind == ValueKind.ENTITY
        and any(ix.key(g[2]).split(":")[0] == prefix for g in p.by_rel[r2][:50])
    ]
    if not others:
        return None
    r2 = rng.choice(others)
    sts = ix.statuses([f, (s, r2, o)])
    if sts[0] != SUP or sts[1] == SUP:
        return None
    same_object = [g for g in p.by_obj.get(o, []) if g[1] == r2]
    witness = rng.choice(same_object or p.by_rel[r2])  # r2's wording appears in both labels' evidence
    q = about(ix, rng, s, rng.choice([r, r2]) if ix.specs[r2].phrase else r)  # the query names either relation
    if sup:
        return [Draft(q, statement(ix, rng, f), True, "true", [f, witness])]
    return [Draft(q, statement(ix, rng, (s, r2, o)), False, "wrong_relation", [f, witness])]


def multi_claim(p: Pools, rng: random.Random, sup: bool) -> list[Draft] | None:
    """Two claims about one subject: both supported, or one wrong or without support (partial support)."""
    ix, f = p.ix, p.draw(rng, "removable")
    if f is None:
        return None
    s, r, _o = f
    seconds = [(s, r2, o2) for r2 in sorted(ix.rels_of.get(s, ())) if r2 != r for o2 in ix.objs[(s, r2)]]
    seconds = [g for g in seconds if p.admits(g[2])]
    if not seconds or ix.status(*f) != SUP:
        return None
    g = rng.choice(seconds)
    if ix.status(*g) != SUP:
        return None
    pair = [f, g] if rng.random() < 0.5 else [g, f]
    q = rng.choice([f"What do you know about {ix.label(s)}?", ""])

    def joined(a: tuple[int, int, int], b: tuple[int, int, int]) -> str:
        one, two = ix.stmt(*a), ix.stmt(*b)
        return f"{one} {two}" if rng.random() < 0.5 else f"{one.rstrip('.')}, and {clause(two)}."

    if sup:
        return [Draft(q, joined(pair[0], pair[1]), True, "true", pair)]
    if rng.random() < 0.5:  # partial support: the removable claim's fact is left out
        return [Draft(q, joined(pair[0], pair[1]), False, "partial_absent", pair, drop=[f])]
    picked = p.wrong(rng, *g)
    if picked is None:
        return None
    bad = (g[0], g[1], picked[0])
    text = joined(f, bad) if pair[0] == f else joined(bad, f)
    return [Draft(q, text, False, "partial_wrong", pair, mention=[picked[0]], entities=[picked[0]])]


def contrast(p: Pools, rng: random.Random, sup: bool) -> list[Draft] | None:
    """A supported response and, with its one supporting fact left out, the same response unsupported."""
    ix, f = p.ix, p.draw(rng, "removable")
    if f is None or ix.status(*f) != SUP:
        return None
    s, r, o = f
    form = rng.choice(("statement", "short", "yes"))
    if form == "statement":
        q, text = about(ix, rng, s, r), statement(ix, rng, f)
    elif form == "short":
        q, text = wh_query(ix, rng, s, [r]), short(ix.label(o))
    else:
        q, text = fill(ix.specs[r].question, ix.label(s), ix.label(o)), rng.choice(YES)
    base = Draft(q, text, True, f"true_{form}", [f])
    return [base, Draft(q, text, False, f"absent_{form}", [f], drop=[f])]


def short_wh(p: Pools, rng: random.Random, sup: bool) -> list[Draft] | None:
    """A bare answer to a wh-question ("Paris."), right or of the same type and wrong."""
    ix, f = p.ix, p.draw(rng, "entity" if rng.random() < 0.75 else "number")
    if f is None or ix.status(*f) != SUP:
        return None
    s, r, o = f
    if ix.specs[r].object_kind == ValueKind.ENTITY:
        picked = p.wrong(rng, s, r, o)
        got: tuple[int | str, list[Fact]] | None = None if picked is None else (picked[0], [])
    else:
        got = value(ix, rng, p, f, perturb=0.0)  # a bare number not in the evidence would give it away
    if got is None:
        return None
    w, witness = got
    q, keep, ents = wh_query(ix, rng, s, [r]), [f, *witness], [w] if isinstance(w, int) else []
    if sup:
        return [Draft(q, short(ix.label(o)), True, "true", keep, mention=ents, entities=ents)]
    wrong = w if isinstance(w, str) else ix.label(w)
    return [Draft(q, short(wrong), False, "wrong_answer", keep, mention=ents, entities=ents)]


def short_yesno(p: Pools, rng: random.Random, sup: bool) -> list[Draft] | None:
    """A bare "Yes." or "No." to a yes/no question about a functional fact; both occur in both labels."""
    ix, got = p.ix, p.refuted_pair(rng)
    if got is None:
        return None
    f, w = got
    s, r, o = f
    yes = rng.random() < 0.5
    asks_true = yes == sup  # Yes is right about the true object, No about the refuted one
    q = fill(ix.specs[r].question, ix.label(s), ix.label(o if asks_true else w))
    variant = f"{'yes' if yes else 'no'}_to_{'fact' if asks_true else 'refuted'}"
    return [Draft(q, rng.choice(YES if yes else NO), sup, variant, [f], mention=[w], entities=[w])]


def two_fact(p: Pools, rng: random.Random, sup: bool) -> list[Draft] | None:
    """A question through two facts ("the currency of the country whose capital is X"): both are needed."""
    ix, f = p.ix, p.draw(rng, "removable")
    if f is None:
        return None
    s, r1, m = f
    nexts = [r for r in sorted(ix.rels_of.get(m, ())) if r in p.removable_rels and r in ix.phrased]
    nexts = [r for r in nexts if (o := ix.unique_object(m, r)) is not None and o != s and p.admits(o)]
    if not nexts:
        return None
    r2 = rng.choice(nexts)
    o = ix.unique_object(m, r2)
    assert o is not None
    g = (m, r2, o)
    if any(st != SUP for st in ix.statuses([f, g])):
        return None
    q, path = wh_query(ix, rng, s, [r1, r2]), nested(ix, s, [r1, r2])

    def answer(x: int) -> str:
        return cap(f"{path} is {ix.label(x)}.") if rng.random() < 0.4 else short(ix.label(x))

    if sup:
        return [Draft(q, answer(o), True, "true", [f, g])]
    if rng.random() < 0.5:
        return [Draft(q, answer(o), False, "missing_hop", [f, g], drop=[rng.choice([f, g])])]
    picked = p.wrong(rng, m, r2, o)
    if picked is None:
        return None
    w = picked[0]
    return [Draft(q, answer(w), False, "wrong_answer", [f, g], mention=[w], entities=[w])]


MAKERS: dict[str, Recipe] = {
    "wrong_entity": wrong_entity,
    "wrong_number": wrong_number,
    "negation": negation,
    "swap": swap,
    "wrong_relation": wrong_relation,
    "multi_claim": multi_claim,
    "contrast": contrast,
    "short_wh": short_wh,
    "short_yesno": short_yesno,
    "two_fact": two_fact,
}
