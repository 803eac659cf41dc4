"""Building blocks of the judge's recipes: the `Draft` a recipe returns, the fact `Pools`, and phrasing.

`Pools` holds the KB facts a recipe may draw, restricted to one split's entities, and finds wrong
objects of the same type that Prolog does not support. The phrasing helpers write claims in a few
sentence frames (the relation's template, its noun phrase, hedges) and questions in a few frames, with
the same choices for both labels.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.generate.prover import Fact
from drowzee_core.generate.templates_kb import clause, format_number, parse_number
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.template_regex import fill
from drowzee_core.records.enums import ProofStatus

SUP = ProofStatus.SUPPORTED
QUERY_FRAMES = ("What is {p}?", "Can you tell me {p}?", "Do you know {p}?")
YES = ("Yes.", "Yes, it is.", "Yes, that is right.")
NO = ("No.", "No, it is not.", "No, that is wrong.")


@dataclass(slots=True)
class Draft:
    """A (query, response) with its label and the facts its evidence must (and must not) hold."""

    query: str
    response: str
    supported: bool
    variant: str
    """How it was made: `true`, or the corruption (wrong_entity, absent, swapped, ...)."""
    keep: list[Fact]
    """Facts the evidence holds (the support, or the facts a wrong claim is read against)."""
    drop: list[Fact] = field(default_factory=list)
    """Facts of `keep` replaced by another distractor: their support is absent."""
    mention: list[int] = field(default_factory=list)
    """Entities the evidence also mentions (a wrong answer, so its mere presence decides nothing)."""
    entities: list[int] = field(default_factory=list)
    """Entities the response names that the facts do not (a wrong answer)."""


class Pools:
    """The facts the recipes draw from, limited to entities that `admits` accepts (one split's)."""

    def __init__(self, ix: KBIndex, admits: Callable[[int], bool]) -> None:
        self.ix = ix
        self.admits = admits
        cat = ix.catalog
        derived = {c.result for c in cat.composites} | {so.result for so in cat.same_object}
        self.removable_rels = {
            r for r, spec in ix.specs.items() if not spec.transitive and not spec.symmetric and spec.name not in derived
        }
        """Relations whose fact no other fact of the evidence re-derives once distractors avoid its entities."""
        self.by_obj: dict[int, list[Fact]] = defaultdict(list)
        self.by_rel: dict[int, list[Fact]] = defaultdict(list)
        for r, pairs in ix.by_rel.items():
            for s, o in pairs:
                if admits(s) and admits(o):
                    self.by_obj[o].append((s, r, o))
                    self.by_rel[r].append((s, r, o))
        self.pools: dict[str, dict[int, list[Fact]]] = defaultdict(lambda: defaultdict(list))
        for s, r, o, _d in ix.unique:
            if not (admits(s) and admits(o)):
                continue
            spec = ix.specs[r]
            kind = "entity" if spec.object_kind == ValueKind.ENTITY else "number"
            self.pools[kind][r].append((s, r, o))
            if spec.functional:
                self.pools["functional"][r].append((s, r, o))
            if r in self.removable_rels and kind == "entity":
                self.pools["removable"][r].append((s, r, o))

    def draw(self, rng: random.Random, pool: str) -> Fact | None:
        """A fact of `pool`: a relation weighted by the square root of its facts, then one of its facts."""
        rels = self.pools.get(pool)
        if not rels:
            return None
        keys = sorted(rels)
        r = rng.choices(keys, weights=[len(rels[k]) ** 0.5 for k in keys])[0]
        return rng.choice(rels[r])

    def touching(self, rng: random.Random, e: int, limit: int = 12) -> list[Fact]:
        """Up to `limit` facts that mention `e` (as subject or object), within the admitted entities."""
        ix = self.ix
        out = [(e, r, o) for r in sorted(ix.rels_of.get(e, ())) for o in ix.objs[(e, r)] if self.admits(o)]
        objs = self.by_obj.get(e, [])
        out += rng.sample(objs, min(limit, len(objs)))
        rng.shuffle(out)
        return out[:limit]

    def refuted_pair(self, rng: random.Random) -> tuple[Fact, int] | None:
        """A functional fact Prolog supports and another object of it that Prolog refutes, or None."""
        f = self.draw(rng, "functional")
        if f is None:
            return None
        picked = self.wrong(rng, *f)
        if picked is None or picked[1] != ProofStatus.CONTRADICTED or self.ix.status(*f) != ProofStatus.SUPPORTED:
            return None
        return f, picked[0]

    def wrong(self, rng: random.Random, s: int, r: int, o: int) -> tuple[int, ProofStatus] | None:
        """A wrong object of (s, r) of o's type that Prolog does not support: refuted ones first."""
        ix = self.ix
        prefix = ix.key(o).split(":")[0]
        cands = sorted(w for w in ix.negatives.get((s, r), set()) - {o, s} if self.admits(w))
        objs = set(ix.objs.get((s, r), ()))
        pool = self.by_rel.get(r, [])
        for _ in range(min(40, len(pool))):
            w = rng.choice(pool)[2]
            if w != s and w not in objs and w not in cands and ix.key(w).split(":")[0] == prefix:
                cands.append(w)
            if len(cands) >= 8:
                break
        if not cands:
            return None
        sts = ix.statuses([(s, r, w) for w in cands])
        for want in (ProofStatus.CONTRADICTED, ProofStatus.UNKNOWN):
            for w, st in zip(cands, sts, strict=True):
                if st == want:
                    return w, st
        return None


# ---------------------------------------------------------------------- phrasing
def cap(text: str) -> str:
    """The text with its first letter upper-cased."""
    return text[:1].upper() + text[1:]


def statement(ix: KBIndex, rng: random.Random, f: tuple[int, int, int | str], negated: bool = False) -> str:
    """A claim in one of a few sentence frames (the relation's template, its noun phrase, hedges)."""
    s, r, o = f
    spec = ix.specs[r]
    obj = o if isinstance(o, str) else ix.label(o)
    plain = fill(spec.negative if negated else spec.positive, ix.label(s), obj)
    frames = ["plain", "believe", "far"] + (["phrase"] if spec.phrase else [])
    frame = rng.choice(frames)
    if frame == "phrase" and spec.phrase:
        return cap(f"{spec.phrase.format(s=ix.label(s))} is {'not ' if negated else ''}{obj}.")
    if frame == "believe":
        return f"I believe {clause(plain)}."
    if frame == "far":
        return f"As far as I know, {clause(plain)}."
    return plain


def nested(ix: KBIndex, s: int, rels: Sequence[int]) -> str:
    """The noun phrase that names the end of the relations' path from `s` ("the capital of France")."""
    text = ix.label(s)
    for r in rels:
        phrase = ix.specs[r].phrase
        assert phrase is not None  # the pools hold phrased relations only
        text = phrase.format(s=text)
    return text


def wh_query(ix: KBIndex, rng: random.Random, s: int, rels: Sequence[int]) -> str:
    """A wh-question through the relations' noun phrases, in one of a few frames."""
    return rng.choice(QUERY_FRAMES).format(p=nested(ix, s, rels))


def about(ix: KBIndex, rng: random.Random, s: int, r: int) -> str:
    """A query for a statement: a wh-question, a request about the subject, or none (claim only)."""
    u = rng.random()
    if u < 0.6:
        return wh_query(ix, rng, s, [r])
    return f"What do you know about {ix.label(s)}?" if u < 0.85 else ""


def short(text: str) -> str:
    """A bare answer as a sentence: a final period unless it has one."""
    return text if text.endswith((".", "?", "!")) else f"{text}."


def value(
    ix: KBIndex, rng: random.Random, pools: Pools, f: Fact, perturb: float = 0.2
) -> tuple[int | str, list[Fact]] | None:
    """A wrong number for a numeric fact and the facts that show it in the evidence.

    Another subject's value of the same relation (its fact is the witness, in the evidence of both
    labels), or with probability `perturb` (or when there is none) a perturbed value that no fact
    states; None when Prolog supports the value.
    """
    s, r, o = f
    others = [g for g in rng.sample(pools.by_rel[r], min(20, len(pools.by_rel[r]))) if g[2] != o and g[0] != s]
    if others and rng.random() >= perturb:
        w = others[0][2]
        return (w, [others[0]]) if ix.status(s, r, w) != SUP else None
    number = parse_number(ix.label(o))
    if number is None:
        return None
    if ix.specs[r].object_kind == ValueKind.YEAR:
        text = format_number(number + rng.choice((-1, 1)) * rng.randint(1, 40))
    else:
        text = format_number(round(number * (1 + rng.choice((-1, 1)) * rng.uniform(0.1, 0.6))) or number + 1)
    return (text, []) if ix.status(s, r, ix.value_id(ix.specs[r].object_kind, text)) != SUP else None
