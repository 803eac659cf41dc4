"""Decide a claim from evidence sentences (pure, over spaCy parses): supported, refuted, or not enough info.

- *refuted*: an aligned sentence states the claim's predicate about one of its anchors with another
  value of the same type where the claim's value is missing (another year, number, person, place or
  organisation: `conflicts`), or states everything the claim does with the opposite polarity;
- *supported*: every name and number of the claim is found in the evidence, and at least
  `WORD_COVERAGE` of its content words (lemma, or a WordNet synonym or derivational form);
- otherwise *not enough info*, naming what the evidence lacks.

Units the query states are given (`agents.reading.units`). Sentences are cited by the evidence
item's id and the sentence's number in it ("S2.3"). Matching is over all the evidence, so two
sentences may chain through a shared entity; the cited sentences are a greedy cover of the matched
units, best-aligned first.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from agents.reading.roles import MODIFIER, Frame, copular_subject, fillers, frame, heads_like, modifiers
from agents.reading.units import WEAK, Unit, UnitKind, content_units, fold

WORD_COVERAGE = 0.75
"""Least share of a claim's content words the evidence must hold (fitted on FEVER: `bench/evidence_fit.py`)."""
ALIGNED = 3
"""Sentences, best-aligned first, searched for a conflicting value."""
PLACE = frozenset({"GPE", "LOC", "FAC"})
_PARTICLES = frozenset({"of", "the", "de", "la", "le", "von", "van", "der", "and", "&", "s"})


class EvidenceDecision(StrEnum):
    """What the evidence says of a claim."""

    SUPPORTED = "supported"
    REFUTED = "refuted"
    NOT_ENOUGH_INFO = "not enough info"


@dataclass(frozen=True, slots=True)
class Sentence:
    """One evidence sentence, parsed, with its citation id and what it holds."""

    id: str
    doc: Any
    units: tuple[Unit, ...]
    words: frozenset[str]
    """Lemmas and lower-cased words."""
    folded: str
    """The folded text, padded with spaces (names are matched on word edges)."""

    @classmethod
    def of(cls, sid: str, doc: Any, context: Sequence[str] = ()) -> Sentence:
        """Index a parsed sentence; `context` are names it speaks of without naming them (`resolved_context`)."""
        words = frozenset({t.lemma_.lower() for t in doc} | {t.lower_ for t in doc})
        folded = " ".join([fold(doc.text), *(fold(c) for c in context)])
        return cls(sid, doc, tuple(content_units(doc)), words, f" {folded} ")

    def names(self) -> list[str]:
        """The names the sentence states."""
        return [u.text for u in self.units if u.kind == UnitKind.NAME]

    @property
    def text(self) -> str:
        """The sentence as written."""
        return str(self.doc.text)


@dataclass(frozen=True, slots=True)
class Conflict:
    """A value of the evidence that contradicts the claim's."""

    claimed: str
    found: str
    sentence_id: str
    kind: str
    """"value" (another name or number in the predicate's place) or "polarity"."""


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


Related = Callable[[str], frozenset[str]]
"""A lemma's synonyms and derivational forms (WordNet); empty when none."""


PRONOUNS = frozenset({"he", "she", "it", "they", "his", "her", "its", "their", "him", "them", "this", "these"})
"""Words that speak of a name said before: a sentence with one also holds the previous sentence's names."""


def resolved_context(doc: Any, previous: Sentence | None, topic: str | None) -> list[str]:
    """Names a sentence speaks of without naming them (a coarse coreference).

    The item's topic entity, and the previous sentence's names when the sentence has a pronoun ("Ada
    Lovelace met Babbage. She wrote the first program.").
    """
    out = [topic] if topic else []
    if previous is not None and any(t.lower_ in PRONOUNS for t in doc):
        out += previous.names()
    return out


def _acronym(text: str) -> str:
    return "".join(w[0] for w in text.split() if w and w[0].isupper() and w.lower() not in _PARTICLES)


def name_in(unit: Unit, s: Sentence) -> bool:
    """Whether a name is in a sentence: whole, by its acronym (or expanded), or its significant words all there."""
    key = unit.key
    if not key:
        return False
    if f" {key} " in s.folded:
        return True
    acro = _acronym(unit.text)
    if len(acro) >= 2 and f" {acro.lower()} " in s.folded:
        return True
    if (
        unit.text.isupper()
        and len(unit.text) >= 2
        and any(v.kind == UnitKind.NAME and _acronym(v.text).lower() == key for v in s.units)
    ):
        return True
    parts = [p for p in key.split() if p not in _PARTICLES and len(p) > 1]
    if parts and all(f" {p} " in s.folded for p in parts):
        return True
    # a person named again by the family name alone ("Ravi Singh" ... "Singh")
    return unit.label == "PERSON" and len(parts) >= 2 and f" {parts[-1]} " in s.folded


def number_in(unit: Unit, s: Sentence) -> bool:
    """Whether a number is in a sentence, within the claim's tolerance."""
    try:
        want = float(unit.key)
    except ValueError:
        return False
    tol = abs(want) * (unit.tolerance or 0.0)
    for v in s.units:
        if v.kind != UnitKind.NUMBER:
            continue
        try:
            got = float(v.key)
        except ValueError:
            continue
        if abs(got - want) <= tol or got == want:
            return True
    return False


def word_in(unit: Unit, s: Sentence, related: Related) -> bool:
    """Whether a content word, or one of its WordNet synonyms or derivational forms, is in a sentence."""
    if unit.key in s.words or unit.text.lower() in s.words:
        return True
    return bool(related(unit.key) & s.words)


def found_in(unit: Unit, s: Sentence, related: Related) -> bool:
    """Whether one unit of the claim is in one sentence."""
    if unit.kind == UnitKind.NAME:
        return name_in(unit, s)
    if unit.kind == UnitKind.NUMBER:
        return number_in(unit, s)
    return word_in(unit, s, related)


def _type_class(unit: Unit) -> str:
    if unit.kind == UnitKind.NUMBER:
        return "YEAR" if unit.label == "DATE" and len(unit.key) == 4 else unit.label
    return "PLACE" if unit.label in PLACE else unit.label


def _predicate(doc: Any, unit: Unit) -> Any | None:
    """The verb or noun a unit of the claim is an argument of (the first content word up its head chain)."""
    tok = value_root(doc, unit)
    seen = 0
    while tok.head.i != tok.i and seen < 6:
        tok = tok.head
        seen += 1
        if tok.pos_ in ("VERB", "NOUN", "ADJ") and not tok.is_stop:
            return tok
    return None


def _overlaps(rival: Unit, claimed: Unit) -> bool:
    """Whether two names may be one: a shared significant word, or one the other's acronym ("PGA")."""
    if rival.kind != UnitKind.NAME or claimed.kind != UnitKind.NAME:
        return False
    a = {p for p in rival.key.split() if p not in _PARTICLES and len(p) > 1}
    b = {p for p in claimed.key.split() if p not in _PARTICLES and len(p) > 1}
    acro_a, acro_b = _acronym(rival.text).lower(), _acronym(claimed.text).lower()
    return bool(a & b) or rival.key in (acro_b, acro_b[:-1]) or claimed.key in (acro_a, acro_a[:-1])


def anchors_of(units: Sequence[Unit], but: Unit | None = None) -> list[Unit]:
    """What a claim is about: its names, numbers and nouns (given or not), other than `but`."""
    return [v for v in units if v is not but and (v.kind != UnitKind.WORD or v.label in ("NOUN", "PROPN"))]


def frame_of(claim: Any, u: Unit) -> Frame | None:
    """A claim unit's frame (`agents.reading.roles`): a name's verb, or the noun a number counts or measures.

    A name's frame under a noun ("Iron's atomic number") is not checked: evidence names the owner of a
    relational noun in too many ways.
    """
    root = value_root(claim, u)
    subject = copular_subject(root)
    if u.kind == UnitKind.NUMBER and subject is not None and subject.pos_ == "NOUN":  # "its atomic number is 26"
        return Frame(subject.lemma_.lower(), modifiers(subject), MODIFIER)
    pred = _predicate(claim, u)
    if pred is None or (u.kind == UnitKind.NAME and pred.pos_ != "VERB"):
        return None
    return frame(root, pred)


def _same(u: Unit, v: Unit) -> bool:
    """Whether an evidence unit is the claim's unit (the same name, or the number within tolerance)."""
    if u.kind != v.kind:
        return False
    if u.kind == UnitKind.NAME:
        return u.key == v.key or _overlaps(v, u)
    try:
        want, got = float(u.key), float(v.key)
    except ValueError:
        return u.key == v.key
    return abs(got - want) <= abs(want) * (u.tolerance or 0.0) or got == want


def value_root(doc: Any, u: Unit) -> Any:
    """The root of the phrase a unit stands in: a number with its unit of measure ("410 metres" -> metres)."""
    t = doc[u.start : u.end].root
    while t.head.i != t.i and t.ent_type_ and t.head.ent_type_ == t.ent_type_ and t.head.ent_iob_ == "I":
        t = t.head
    return t


NAMING_DEPS = frozenset({"pobj", "prep", "compound", "flat", "appos"})
"""Links from a name up to the noun it names ("the city of Paris", "the river Thames")."""


def _holds(root: Any, doc: Any, v: Unit) -> bool:
    """Whether an argument's root token is the unit, or the noun the unit names ("the city of Paris")."""
    if v.start <= root.i < v.end:
        return True
    t = value_root(doc, v)
    if t.i == root.i:
        return True
    for _ in range(3):
        if t.head.i == t.i or t.dep_ not in NAMING_DEPS:  # "2 eggs": a number counting a noun does not name it
            return False
        t = t.head
        if t.i == root.i:
            return True
    return False


def in_frame(u: Unit, f: Frame, s: Sentence, related: Related) -> bool | None:
    """Whether the sentence states the unit in its frame (None: it lacks the frame's predicate).

    False when the sentence has the predicate with the unit elsewhere or not at all; with no predicate,
    only co-location can tell.
    """
    heads = heads_like(s.doc, f, related)
    if not heads:
        return None
    occurrences = [v for v in s.units if _same(u, v)]
    named_before = u.kind == UnitKind.NAME and name_in(u, s)  # the sentence may speak of it by a pronoun

    def fills(r: Any) -> bool:
        return any(_holds(r, s.doc, v) for v in occurrences) or (named_before and r.lower_ in PRONOUNS)

    return any(role == f.role and fills(r) for h in heads for role, r in fillers(h))


def stated(u: Unit, s: Sentence, anchors: Sequence[Unit], related: Related, f: Frame | None = None) -> bool:
    """Whether a sentence states a unit, with something else the claim is about (if the claim has more).

    When the sentence has the frame's predicate, the unit must fill the frame's role there.
    """
    if not found_in(u, s, related):
        return False
    if f is not None and in_frame(u, f, s, related) is False:
        return False
    return not anchors or any(found_in(v, s, related) for v in anchors)


def conflicts(
    claim: Any,
    units: Sequence[Unit],
    aligned: Sequence[Sentence],
    sentences: Sequence[Sentence],
    context: Sequence[Unit],
    related: Related,
) -> Conflict | None:
    """Another value in the claim's value's frame: same predicate, same role, same type, about the same anchor.

    `context` are the query's names (anchors of a short answer). A value the evidence states in its
    frame elsewhere, with one of the claim's anchors, is not contradicted.
    """
    claimed = {v.key for v in units} | {v.key for v in context}
    for u in units:
        if u.kind == UnitKind.WORD or u.given:
            continue
        f = frame_of(claim, u)
        if f is None:
            continue
        anchors = [v for v in (*anchors_of(units, u), *context) if v.kind != UnitKind.WORD or v.key != f.lemma]
        if not anchors or any(stated(u, t, anchors, related, f) for t in sentences):
            continue
        cls = _type_class(u)
        for s in aligned:
            if not any(found_in(v, s, related) for v in anchors):
                continue
            for h in heads_like(s.doc, f, related):
                for role, r in fillers(h):
                    if role != f.role:
                        continue
                    for rival in s.units:
                        if rival.kind == UnitKind.WORD or _type_class(rival) != cls or rival.key in claimed:
                            continue
                        if _overlaps(rival, u) or any(_overlaps(rival, v) for v in context) or _same(u, rival):
                            continue
                        if _holds(r, s.doc, rival):
                            return Conflict(u.text, rival.text, s.id, "value")
    return None


def _negated(tok: Any) -> bool:
    return any(c.dep_ == "neg" or c.lower_ in ("never", "no") for c in tok.children)


def polarity_conflict(
    claim: Any, units: Sequence[Unit], aligned: Sequence[Sentence], related: Related
) -> Conflict | None:
    """A verb the claim negates that an aligned sentence affirms, or the reverse.

    The sentence must also hold the verb's object or complement and another of the claim's anchors
    ("they don't share a border" against "X and Y share a border").
    """
    for p in claim:
        if p.pos_ != "VERB" or p.lemma_.lower() in WEAK:
            continue
        lemmas = {p.lemma_.lower()} | related(p.lemma_.lower())
        args = [c for c in p.children if c.dep_ in ("dobj", "attr", "acomp", "prep", "xcomp")]
        need = {t.lemma_.lower() for a in args for t in a.subtree if t.pos_ in ("NOUN", "PROPN", "NUM")}
        others = [u for u in anchors_of(units) if u.key not in need and u.key not in lemmas]
        for s in aligned:
            if need and not need <= s.words:
                continue
            if others and not any(found_in(u, s, related) for u in others):
                continue
            for h in (t for t in s.doc if t.lemma_.lower() in lemmas and t.pos_ == "VERB"):
                if _negated(h) != _negated(p):
                    claimed = f"{'not ' if _negated(p) else ''}{p.lemma_}"
                    return Conflict(claimed, f"{'not ' if _negated(h) else ''}{h.lemma_}", s.id, "polarity")
    return None


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
) -> EvidenceReading:
    """Read one claim against evidence sentences ordered best-aligned first (see the module doc).

    `context` are the query's names. A name or number of the claim counts as found only in a sentence
    that also holds something else the claim is about (`stated`): "X discovered Y" is not supported
    by one sentence naming X and another naming Y.
    """
    rule = rule or SupportRule()
    asserted = [u for u in units if not u.given]
    if not asserted or not sentences:
        return EvidenceReading(
            EvidenceDecision.NOT_ENOUGH_INFO, reason="nothing to match" if sentences else "no evidence"
        )
    frames = {id(u): frame_of(claim, u) for u in asserted if u.kind != UnitKind.WORD}
    hits = {
        id(u): {
            s.id
            for s in sentences
            if (
                stated(u, s, [*anchors_of(units, u), *context], related, frames[id(u)])
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
    conflict = conflicts(claim, units, sentences[:ALIGNED], sentences, context, related)
    if conflict is not None:
        why = f"the evidence gives {conflict.found} [{conflict.sentence_id}], not {conflict.claimed}"
        return replace(
            base, decision=EvidenceDecision.REFUTED, cited=(conflict.sentence_id,), conflict=conflict, reason=why
        )
    opposite = polarity_conflict(claim, units, sentences[:ALIGNED], related)
    if opposite is not None:
        why = f'the evidence says "{opposite.found}" [{opposite.sentence_id}] where the claim says "{opposite.claimed}"'
        return replace(
            base, decision=EvidenceDecision.REFUTED, cited=(opposite.sentence_id,), conflict=opposite, reason=why
        )
    if feats["p_supported"] >= 0.5:
        found = f"{len(matched)} of {len(asserted)} units"
        return replace(
            base, decision=EvidenceDecision.SUPPORTED, reason=f"{found} of the claim are in {', '.join(cited)}"
        )
    hard_missing = [u for u in missing if u.kind != UnitKind.WORD]
    lacking = ", ".join(u.text for u in (hard_missing or missing)[:4])
    return replace(base, reason=f"the evidence does not mention {lacking}")


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
    if asked.decision == EvidenceDecision.NOT_ENOUGH_INFO:
        return replace(asked, reason=f"for the statement the question asks, {asked.reason}")
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
    "WORD_COVERAGE",
    "Conflict",
    "EvidenceDecision",
    "EvidenceReading",
    "Related",
    "Sentence",
    "SupportRule",
    "conflicts",
    "decide",
    "features_of",
    "found_in",
    "frame_of",
    "in_frame",
    "name_in",
    "number_in",
    "stated",
    "word_in",
    "yes_no_reading",
    "yes_or_no",
]
