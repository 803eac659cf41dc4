"""Generated FactCHD pairs re-worded: the same claims, label and ground truth in other words.

`Restyler` rebuilds each response from the pair's ground truth (its claims, the comparison or set
answer it states), never from the template text: each fact in one of its catalog forms (`clauses`),
numbers in exact surface forms, a short answer to a wh-question, a hedge, a pronoun or a relative
clause, and up to two distractors: facts of the KB about the pair's entities that Prolog proves,
so the label cannot change. The distractors are recorded in `meta["distractors"]`; `ground_truth`,
`label`, `grounding`, `evidence` and `reason` are left as they are.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from drowzee_core.generate.factchd_patterns import nested_phrase
from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.generate.natural import words
from drowzee_core.generate.natural.clauses import CLASS_TEMPLATE, Ref, Said, compose, fact_forms, led
from drowzee_core.generate.prover import Fact
from drowzee_core.kb.model import RelationSpec, ValueKind
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.pair import QRPair
from drowzee_core.records.proof import KBClaim

log = logging.getLogger(__name__)

Claimed = tuple[int, int, int | str]
"""A claim as (subject id, relation id, object id or a literal value the KB does not hold)."""
DISTRACTORS: dict[str, tuple[int, ...]] = {
    "vanilla": (0, 1, 1, 2),
    "multi_hop": (0, 0, 1),
    "comparison": (0, 0, 1),
    "set_operation": (0, 1),
}
"""How many distractors a pair of each pattern gets: drawn from these counts."""
CANDIDATES = 8
"""Distractor facts asked of Prolog per pair (in one call with the anaphors' class facts)."""
HEDGE_SHARE = 0.3
SHORT_SHARE = 0.35
TRIES = 4
"""Draws of a response before one that differs from the template's is given up on."""


@dataclass
class _Words:
    """What one response is said with: the rng, references, and the surface form chosen for each value."""

    rng: random.Random
    refs: dict[str, Ref]
    values: dict[str, str] = field(default_factory=dict)
    names: set[str] = field(default_factory=set)
    """The labels of the entities said (a hedge keeps the case of a sentence that opens with one)."""


def _agentive(spec: RelationSpec) -> bool:
    """Whether the relation's object is an agent: its template says "... by {o}"."""
    return " by {o}" in spec.positive


class Restyler:
    """Re-words the pairs generated over one `KBIndex`."""

    def __init__(self, ix: KBIndex) -> None:
        self.ix = ix
        self.ids = ix.store.entity_ids()
        self.comparisons = {c.relation: c for c in ix.catalog.comparisons}
        self.makers: dict[str, Callable[[QRPair, list[Claimed], list[Fact], _Words], str]] = {
            "vanilla": self._vanilla,
            "multi_hop": self._multi_hop,
            "comparison": self._comparison,
            "set_operation": self._set_operation,
        }

    def restyle(self, pairs: Sequence[QRPair], rng: random.Random) -> list[QRPair]:
        """The pairs with natural responses, in order; `meta` gets `style` and `distractors`."""
        out = [self.pair(p, rng) for p in pairs]
        same = sum(a.response == b.response for a, b in zip(pairs, out, strict=True))
        log.info("natural style: %d of %d responses re-worded", len(out) - same, len(out))
        return out

    def pair(self, pair: QRPair, rng: random.Random) -> QRPair:
        """One pair re-worded (a pair without claims keeps its response)."""
        gt = pair.ground_truth
        meta: dict[str, Any] = {**(pair.meta or {}), "style": "natural"}
        if gt is None or not gt.claims or pair.pattern not in self.makers:
            return pair.model_copy(update={"meta": meta})
        claimed = [self._claimed(c) for c in gt.claims if not c.negated]
        extra, refs = self._proved_extras(pair.pattern, claimed, rng)
        response = pair.response
        for _ in range(TRIES):
            response = self.makers[pair.pattern](pair, claimed, extra, _Words(rng, refs))
            if response != pair.response:
                break
        meta["distractors"] = [
            self.ix.claim(*f, ProofStatus.SUPPORTED).model_dump(mode="json", exclude_defaults=True) for f in extra
        ]
        return pair.model_copy(update={"response": response, "meta": meta})

    # ------------------------------------------------------------------ facts and words
    def _claimed(self, claim: KBClaim) -> Claimed:
        obj: int | str = self.ids.get(claim.object, claim.object)
        return self.ids[claim.subject], self.ix.rids[claim.relation], obj

    def _object(self, spec: RelationSpec, o: int | str, w: _Words) -> str:
        """The object's words: a label, or a value in one surface form for the whole response."""
        text = self.ix.label(o) if isinstance(o, int) else o
        if spec.object_kind == ValueKind.ENTITY:
            return text
        if text not in w.values:
            w.values[text] = w.rng.choice(words.number_forms(text, spec.object_kind))
        return w.values[text]

    def say(self, fact: Claimed, w: _Words, unique: bool) -> Said:
        """One form of a fact, drawn from `clauses.fact_forms`."""
        s, r, o = fact
        spec = self.ix.specs[r]
        inverse = self._inverse(spec)
        entity = spec.object_kind == ValueKind.ENTITY and isinstance(o, int)
        forms = fact_forms(spec, self.ix.label(s), self._object(spec, o, w), inverse, unique, entity)
        said = w.rng.choice(forms)
        w.names |= {self.ix.label(s), *([self.ix.label(o)] if isinstance(o, int) else [])}
        return said

    def _inverse(self, spec: RelationSpec) -> RelationSpec | None:
        """The catalog entry of the relation's inverse, when it has one."""
        name = spec.inverse_of
        return self.ix.catalog.get(name) if name is not None and name in self.ix.catalog else None

    def _extras(self, extra: list[Fact], w: _Words) -> list[Said]:
        """The distractors' words; a phrase form ("the capital of X") only for a functional relation."""
        return [self.say(f, w, self.ix.specs[f[1]].functional) for f in extra]

    @staticmethod
    def _hedge(sentences: list[str], w: _Words) -> list[str]:
        if sentences and w.rng.random() < HEDGE_SHARE:
            proper = any(sentences[0].startswith(name) for name in w.names)
            sentences[0] = words.hedged(sentences[0], w.rng.randrange(len(words.HEDGES)), proper)
        return sentences

    # ------------------------------------------------------------------ patterns
    def _vanilla(self, pair: QRPair, claimed: list[Claimed], extra: list[Fact], w: _Words) -> str:
        _s, r, o = claimed[0]
        spec = self.ix.specs[r]
        if w.rng.random() < SHORT_SHARE:  # the query is a wh-question: the answer alone says the fact
            answer = self._object(spec, o, w)
            if spec.object_kind == ValueKind.YEAR and " in {o}" in spec.positive and w.rng.random() < 0.5:
                first = words.sentence(w.rng.choice(words.YEAR_PHRASES).format(o=answer))
            else:
                hedge = w.rng.randrange(len(words.TRAILING_HEDGES)) if w.rng.random() < HEDGE_SHARE else None
                first = words.short_answer(answer, w.rng.randrange(len(words.SHORT_ANSWERS)), hedge)
            return " ".join([first, *compose(self._extras(extra, w), w.refs, w.rng)])
        parts = [self.say(claimed[0], w, True), *self._extras(extra, w)]
        if len(parts) > 1 and w.rng.random() < 0.3:
            parts = [*parts[1:], parts[0]]
        return " ".join(self._hedge(compose(parts, w.refs, w.rng), w))

    def _multi_hop(self, pair: QRPair, claimed: list[Claimed], extra: list[Fact], w: _Words) -> str:
        after: dict[int, list[Said]] = {}
        for f, said in zip(extra, self._extras(extra, w), strict=True):  # after the first hop naming its subject
            at = next((i for i, (s, _r, o) in enumerate(claimed) if f[0] in (s, o)), len(claimed) - 1)
            after.setdefault(at, []).append(said)
        parts = [x for i, f in enumerate(claimed) for x in (self.say(f, w, True), *after.get(i, []))]
        nested = nested_phrase(self.ix, claimed[0][0], [r for _s, r, _o in claimed])
        _s, r_last, final = claimed[-1]
        answer = self._object(self.ix.specs[r_last], final, w)
        end = words.ending(words.CHAIN_ENDS, w.rng.randrange(len(words.CHAIN_ENDS)), x=nested, a=answer)
        return " ".join([*self._hedge(compose(parts, w.refs, w.rng), w), end])

    def _comparison(self, pair: QRPair, claimed: list[Claimed], extra: list[Fact], w: _Words) -> str:
        truth = pair.ground_truth.comparison if pair.ground_truth else None
        assert truth is not None
        comp = self.comparisons[truth.relation]
        pred = comp.most if truth.direction == "most" else comp.least
        named = self.ix.label(self.ids[truth.stated or truth.answer])
        w.names.add(named)
        facts = [self.say(f, w, True) for f in claimed] + self._extras(extra, w)
        w.rng.shuffle(facts)
        if w.rng.random() < 0.5:
            first = led(named, pred if w.rng.random() < 0.6 else f"is the one that {pred}", None)
            return " ".join(self._hedge(compose([first, *facts], w.refs, w.rng), w))
        end = words.ending(words.COMPARISON_ENDS, w.rng.randrange(len(words.COMPARISON_ENDS)), a=named, p=pred)
        return " ".join([*compose(facts, w.refs, w.rng), end])

    def _set_operation(self, pair: QRPair, claimed: list[Claimed], extra: list[Fact], w: _Words) -> str:
        truth = pair.ground_truth.set_operation if pair.ground_truth else None
        assert truth is not None
        names = [self.ix.label(self.ids[k]) for k in (truth.stated if truth.stated is not None else truth.answer)]
        w.rng.shuffle(names)
        hedge = w.rng.randrange(len(words.TRAILING_HEDGES)) if w.rng.random() < HEDGE_SHARE / 2 else None
        first = words.members_answer(names, w.rng.randrange(len(words.MEMBERS)), hedge)
        return " ".join([first, *compose(self._extras(extra, w), w.refs, w.rng)])

    # ------------------------------------------------------------------ distractors and references
    def _proved_extras(
        self, pattern: str, claimed: list[Claimed], rng: random.Random
    ) -> tuple[list[Fact], dict[str, Ref]]:
        """Distractor facts Prolog proves about the pair's entities, and how to refer to each entity.

        A distractor never uses a relation the claims use, nor its inverse, so it cannot restate or
        correct a claim. A person (`_person`) is "who" in a relative clause, and "the mathematician"
        as an anaphor when Prolog proves a class fact ("{s} was a {o}.") and no other person of the
        pair has that class; anything else is "it" and "which".
        """
        ix = self.ix
        entities = sorted({e for s, _r, o in claimed for e in (s, o) if isinstance(e, int)})
        used = {r for _s, r, _o in claimed}
        used |= {ix.rids[n] for r in used if (n := ix.specs[r].inverse_of) in ix.rids}
        pool = [
            (e, r, o)
            for e in entities
            for r in sorted(ix.rels_of.get(e, set()) - used)
            for o in ix.objs.get((e, r), [])[:3]
        ]
        cands = rng.sample(pool, min(CANDIDATES, len(pool)))
        persons = [e for e in entities if self._person(e, claimed)]
        classes = [
            (e, r, ix.objs[(e, r)][0])
            for e in persons
            for r in sorted(ix.rels_of.get(e, set()))
            if CLASS_TEMPLATE.match(ix.specs[r].positive)
        ]
        asked = [*cands, *classes]
        sts = dict(zip(asked, ix.statuses(asked), strict=True))
        extra = [f for f in cands if sts[f] == ProofStatus.SUPPORTED][: rng.choice(DISTRACTORS[pattern])]
        refs = {ix.label(e): Ref("it") for e in entities}
        nouns: dict[int, str] = {}
        for f in classes:
            if sts[f] == ProofStatus.SUPPORTED:
                nouns.setdefault(f[0], ix.label(f[2]))
        stated = {(s, r) for s, r, _o in extra}  # no "the composer was a composer": the name says a class fact
        for e in persons:
            noun = nouns.get(e)
            alone = noun is not None and list(nouns.values()).count(noun) == 1
            alone = alone and not any(f[0] == e and (e, f[1]) in stated for f in classes)
            refs[ix.label(e)] = Ref(f"the {noun}" if alone else None, "who")
        return extra, refs

    def _person(self, e: int, claimed: list[Claimed]) -> bool:
        """Whether `e` is a person: the subject of a `people` relation, or the agent of an "X by Y" claim."""
        ix = self.ix
        if any(ix.specs[r].domain == "people" for r in ix.rels_of.get(e, set())):
            return True
        for s, r, o in claimed:
            spec = ix.specs[r]
            inverse = self._inverse(spec)
            if (o == e and _agentive(spec)) or (s == e and inverse is not None and _agentive(inverse)):
                return True
        return False


def restyle(ix: KBIndex, pairs: Sequence[QRPair], rng: random.Random) -> list[QRPair]:
    """`pairs` with natural responses (see `Restyler`); the same `rng` state gives the same words."""
    return Restyler(ix).restyle(pairs, rng)


__all__ = ["Restyler", "restyle"]
