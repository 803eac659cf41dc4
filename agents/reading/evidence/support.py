"""Decide a claim from evidence sentences (pure, over spaCy parses): supported, refuted, or not enough info.

- *refuted*: a rival value in the frame of one of the claim's values, or the opposite polarity
  (`agents.reading.evidence.conflicts`);
- *supported*: every name and number of the claim is stated (`conflicts.stated`: in its frame where
  the sentence has its predicate, with something else the claim is about), and `SupportRule`'s
  score over the shares of words and units found (`agents.reading.evidence.matching`) reaches 0.5;
- otherwise *not enough info*, naming what the evidence lacks. Its `absent` units are the names,
  numbers and the attribute noun of a copular claim ("X is a sailor") that no sentence mentions at
  all: a claim that names what the evidence never mentions is unsupported by it. A claim whose units
  are all mentioned, but not stated together as the claim has them, may paraphrase the evidence: the
  reader cannot tell, and leaves it open (`absent` empty). So does a claim whose predicate verb the
  evidence never says, nor a word related to it: the share of its other units found does not support
  it ("X painted Y in 1898" against "X discovered Y in 1898"), and nor does it make it unsupported.

Units the query states are given (`agents.reading.evidence.units`). Sentences are cited by the evidence
item's id and the sentence's number in it ("S2.3"). Matching is over all the evidence, so two
sentences may chain through a shared entity; the cited sentences are a greedy cover of the matched
units, best-aligned first. A bare Yes / No is read as the statement its question asks
(`yes_no_reading`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from agents.reading.evidence.absence import absent_units, mentioned, predicate
from agents.reading.evidence.conflicts import Conflict, anchors_of, conflicts, denial, frame_of, stated
from agents.reading.evidence.matching import Related, found_in
from agents.reading.evidence.polarity import polarity_conflict
from agents.reading.evidence.sentences import Sentence, neighbours
from agents.reading.evidence.units import Unit, UnitKind

WORD_COVERAGE = 0.75
"""Least share of a claim's content words with no fitted rule (`SupportRule`)."""
ALIGNED = 3
"""Sentences, best-aligned first, searched for a conflicting value."""
NEAR = 1
"""Sentences on either side of one, in the same evidence item, that may share its topic: a name or
number stated there counts as stated about the claim when the claim's other names or nouns are in it,
or in a neighbour it continues or that continues it (`conflicts.about`)."""


class EvidenceDecision(StrEnum):
    """What the evidence says of a claim."""

    SUPPORTED = "supported"
    REFUTED = "refuted"
    NOT_ENOUGH_INFO = "not enough info"


@dataclass(frozen=True, slots=True)
class EvidenceReading:
    """A claim read against the evidence: the decision, what matched, what is missing, what conflicts."""

    decision: EvidenceDecision
    cited: tuple[str, ...] = ()
    matched: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    conflict: Conflict | None = None
    coverage: float = 0.0
    """Share of the claim's content words found (names and numbers must all be found)."""
    units: int = 0
    reason: str = ""
    scores: dict[str, float] = field(default_factory=dict)
    """The support features and `p_supported` (`SupportRule`)."""
    read_as: str = ""
    """The statement a short answer was read as with its question; "" when read as written."""
    absent: tuple[str, ...] = ()
    """Content units of a not-enough-info claim that no sentence mentions (names, numbers, its predicate verb)."""


def _cover(units: Sequence[Unit], sentences: Sequence[Sentence], hits: dict[int, set[str]]) -> list[str]:
    """Sentence ids that cover the matched units greedily (sentences come best-aligned first)."""
    todo = {id(u) for u in units if hits.get(id(u))}
    chosen: list[str] = []
    by_sentence = {s.id: {k for k in todo if s.id in hits[k]} for s in sentences}
    while todo:
        best = max(sentences, key=lambda s: len(by_sentence[s.id] & todo), default=None)
        if best is None or not by_sentence[best.id] & todo:
            break
        chosen.append(best.id)
        todo -= by_sentence[best.id]
    return chosen


@dataclass(frozen=True, slots=True)
class SupportRule:
    """When matched units count as support: every name and number found, and a logistic score at or above 0.5.

    The score weighs `FEATURES`; its weights are fitted on training pairs (`bench/evidence_fit.py`
    writes `support_weights.json`). With no weights, the strict rule: `WORD_COVERAGE` of the words.
    """

    weights: tuple[float, ...] = ()
    bias: float = 0.0

    def p_supported(self, features: dict[str, float]) -> float:
        """The probability that the matched units support the claim (0 while a name or number is missing)."""
        if features["hard_missing"] > 0:
            return 0.0
        if not self.weights:
            strict = features["hard_missing"] == 0 and features["word_coverage"] >= WORD_COVERAGE
            return 1.0 if strict else 0.0
        z = self.bias + sum(w * features[f] for w, f in zip(self.weights, FEATURES, strict=True))
        return 1.0 / (1.0 + math.exp(-z))


FEATURES = ("word_coverage", "words_missing", "all_coverage")
"""What `SupportRule` weighs once every name and number is found: shares of words and of all units found,
and the words missing."""


def features_of(asserted: Sequence[Unit], matched: Sequence[Unit]) -> dict[str, float]:
    """The support features of a claim's asserted units, given those found."""
    found = {id(u) for u in matched}
    words = [u for u in asserted if u.kind == UnitKind.WORD]
    hard = [u for u in asserted if u.kind != UnitKind.WORD]

    def share(us: Sequence[Unit]) -> float:
        return sum(id(u) in found for u in us) / len(us) if us else 1.0

    return {
        "word_coverage": share(words),
        "hard_coverage": share(hard),
        "hard_missing": float(sum(id(u) not in found for u in hard)),
        "words_missing": float(sum(id(u) not in found for u in words)),
        "all_coverage": share(asserted),
    }


def decide(
    claim: Any,
    units: Sequence[Unit],
    sentences: Sequence[Sentence],
    context: Sequence[Unit],
    related: Related,
    rule: SupportRule | None = None,
    framed: bool = True,
    heads: Related | None = None,
) -> EvidenceReading:
    """Read one claim against evidence sentences ordered best-aligned first (see the module doc).

    `context` are the query's names. A name or number of the claim counts as found only in a sentence
    that also holds something else the claim is about (`stated`): "X discovered Y" is not supported
    by one sentence naming X and another naming Y. With `framed` False a name or number need not be
    stated in its frame to support (a statement joined from a question and a short answer, whose
    parse is too rough for its roles); conflicts are still read in frames. `heads` relates the
    predicates a conflict needs to be the same (`conflicts.conflicts`; default `related`).
    """
    rule = rule or SupportRule()
    asserted = [u for u in units if not u.given]
    if not asserted or not sentences:
        return EvidenceReading(
            EvidenceDecision.NOT_ENOUGH_INFO, reason="nothing to match" if sentences else "no evidence"
        )
    frames = {id(u): frame_of(claim, u) if framed else None for u in asserted if u.kind != UnitKind.WORD}
    near = neighbours(sentences, NEAR)
    hits = {
        id(u): {
            s.id
            for s in sentences
            if (
                stated(
                    u,
                    s,
                    [a for a in (*anchors_of(units, u), *context) if a.key != u.key],
                    related,
                    frames[id(u)],
                    near[s.id],
                )
                if u.kind != UnitKind.WORD
                else found_in(u, s, related)
            )
        }
        for u in asserted
    }
    matched = [u for u in asserted if hits[id(u)]]
    missing = [u for u in asserted if not hits[id(u)]]
    feats = features_of(asserted, matched)
    feats["p_supported"] = rule.p_supported(feats)
    cited = tuple(_cover(asserted, sentences, hits))
    base = EvidenceReading(
        EvidenceDecision.NOT_ENOUGH_INFO,
        cited,
        tuple(u.text for u in matched),
        tuple(u.text for u in missing),
        None,
        feats["word_coverage"],
        len(asserted),
        "",
        feats,
    )
    neg = denial(claim)  # a denied claim has no value to rival ("X does not flow through Y" against "Z does")
    conflict = (
        None
        if neg is not None
        else conflicts(claim, units, sentences[:ALIGNED], sentences, context, related, near, heads)
    )
    if conflict is not None:
        why = f"the evidence gives {conflict.found} [{conflict.sentence_id}], not {conflict.claimed}"
        return replace(
            base, decision=EvidenceDecision.REFUTED, cited=(conflict.sentence_id,), conflict=conflict, reason=why
        )
    opposite = polarity_conflict(claim, units, sentences[:ALIGNED], related, heads)
    if opposite is not None:
        why = f'the evidence says "{opposite.found}" [{opposite.sentence_id}] where the claim says "{opposite.claimed}"'
        return replace(
            base, decision=EvidenceDecision.REFUTED, cited=(opposite.sentence_id,), conflict=opposite, reason=why
        )
    denied_too = any(denial(s.doc) is not None for s in sentences if s.id in cited)
    if neg is not None and feats["p_supported"] >= 0.5 and not denied_too:
        spoken = [s for s in sentences if s.id in cited]
        scope = [u for u in units if neg.i < u.start <= max(t.i for t in neg.head.subtree)]
        unspoken = [u for u in scope if not any(found_in(u, s, related) for s in spoken)]
        return _denied(base, neg, [*missing, *unspoken])
    verb = predicate(claim, missing)
    unsaid = verb is not None and not any(mentioned(verb, s, related) for s in sentences)
    if feats["p_supported"] >= 0.5 and not unsaid:
        found = f"{len(matched)} of {len(asserted)} units"
        return replace(
            base, decision=EvidenceDecision.SUPPORTED, reason=f"{found} of the claim are in {', '.join(cited)}"
        )
    absent = absent_units(claim, missing, sentences, related)
    if absent:
        named = ", ".join(u.text for u in absent[:4])
        if neg is not None:  # a denial of what the evidence never mentions may well hold: open
            return replace(base, reason=f"the evidence does not mention {named}: it neither states nor denies it")
        return replace(base, reason=f"the evidence does not mention {named}", absent=tuple(u.text for u in absent))
    if unsaid and verb is not None:
        why = f'the evidence never says "{verb.text}" (nor a word related to it): it may say the same in other words'
        return replace(base, reason=why)
    hard_missing = [u for u in missing if u.kind != UnitKind.WORD]
    if hard_missing:  # named there (none is absent), but not as the claim has it
        lacking = ", ".join(u.text for u in hard_missing[:4])
        why = f"the evidence mentions {lacking}, but no sentence states what the claim says of it"
        return replace(base, reason=why)
    unsaid_words = [u.text for u in missing if not any(mentioned(u, s, related) for s in sentences)]
    if unsaid_words:
        quoted = ", ".join(f'"{w}"' for w in unsaid_words[:4])
        return replace(base, reason=f"the evidence never says {quoted}: it may say the same in other words")
    lacking = ", ".join(u.text for u in missing[:4])
    return replace(base, reason=f"the evidence mentions {lacking}, but no sentence states what the claim says of it")


def _denied(base: EvidenceReading, neg: Any, missing: Sequence[Unit]) -> EvidenceReading:
    """A claim that denies (`neg`, its negation word) what its matched sentences state with no negation.

    Every unit found there, the denied words among them even where the query gave them ("The port of
    X does not run a night ferry": "run", "night", "ferry"): the evidence states what the claim denies
    (refuted); else not enough info.
    """
    where = ", ".join(base.cited)
    end = min(max(t.i for t in neg.head.subtree) + 1, neg.i + 8)
    denied = neg.doc[neg.i : end].text.rstrip(" .")
    if missing:
        why = f'the claim says "{denied}", and the evidence [{where}] states no such denial'
        return replace(base, reason=why)
    conflict = Conflict(denied, neg.doc[neg.i + 1 : end].text.rstrip(" ."), base.cited[0], "polarity")
    why = f'the evidence states [{where}] what the claim denies ("{denied}")'
    return replace(base, decision=EvidenceDecision.REFUTED, cited=base.cited[:1], conflict=conflict, reason=why)


_YES = frozenset({"yes", "yeah", "yep", "true", "correct"})
_NO = frozenset({"no", "nope", "false", "incorrect"})


def yes_or_no(answer: str) -> bool | None:
    """True for a bare Yes answer, False for a bare No ("No.", "no, it is not" counts), else None."""
    words = [w.strip(".,!;:").lower() for w in answer.split()]
    if not words or len(words) > 4:
        return None
    return True if words[0] in _YES else False if words[0] in _NO else None


def yes_no_reading(asked: EvidenceReading, yes: bool) -> EvidenceReading:
    """A Yes / No answer's reading from the reading of the statement its question asks.

    The evidence holding the statement supports "Yes" and refutes "No"; contradicting it, the reverse;
    not enough info stays so.
    """
    if asked.decision == EvidenceDecision.NOT_ENOUGH_INFO:  # "No" to what the evidence never mentions may hold
        why = f"for the statement the question asks, {asked.reason}"
        return replace(asked, reason=why, absent=asked.absent if yes else ())
    holds = asked.decision == EvidenceDecision.SUPPORTED
    answer = "Yes" if yes else "No"
    cited = ", ".join(asked.cited) or "the evidence"
    said = "states" if holds else "contradicts"
    if holds == yes:
        why = f"the evidence {said} what the question asks [{cited}]; the answer is {answer}"
        return replace(asked, decision=EvidenceDecision.SUPPORTED, reason=why)
    why = f"the evidence {said} what the question asks [{cited}], not {answer}"
    conflict = asked.conflict or Conflict(
        answer, "the asked statement", asked.cited[0] if asked.cited else "", "polarity"
    )
    return replace(asked, decision=EvidenceDecision.REFUTED, conflict=conflict, reason=why)


__all__ = [
    "ALIGNED",
    "FEATURES",
    "NEAR",
    "WORD_COVERAGE",
    "EvidenceDecision",
    "EvidenceReading",
    "SupportRule",
    "decide",
    "features_of",
    "yes_no_reading",
    "yes_or_no",
]
