"""The learned relation reader: where no catalog pattern reads a sentence, a classifier picks the relation.

A sentence the rules leave unread may still name exactly one name the KB knows and one value: "Velox
is found in Orvin", "Orvin lies within Norland". Its two mentions are masked ("X is
found in Y"), and a logistic regression over the bundled encoder's vector of the masked text
(`finetune.reader.train`; trained on the catalog's declared forms of KB facts and on FEVER claims as
`NONE`, never on evaluation data) gives a probability per relation. The reading is kept only when:

- one mention is the sentence's subject (or its possessor), a name or a pronoun, and the other stands
  outside the subject's phrase (`subject_of`);
- the relation's ends fit the two mentions by the KB's stored facts (`TypeCheck`, strict): the
  subject is a name the KB holds facts of that relation for, and the object is a name of the
  relation's object type or a value of its kind;
- the classifier says the masked sentence states some catalog relation (1 - P(NONE) at or above the
  threshold fitted with the weights: out-of-fold precision 0.95 on the training rows, `NONE` rows
  weighed as many as relation rows), and of the relations the types allow this one is the most
  probable, by a margin (`MARGIN`).

A number inside a name ("the Group of 15") is no value, and a number that may be a year is read
only as one. A sentence with more mentions, or none that fits, stays unread, and so does one with a word of the
relation's antonym templates ("outside" of "lies outside"), or whose main verb other relations are
declared with, which fit the two mentions, and this one is not ("born in" a country is no nationality).
The reading says it was read by the model
(`Reading.cues` is 0), so an explanation can tell it from a pattern's reading.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from agents.reading.candidates.scope import negated_doc
from agents.reading.mentions import Mention, in_a_name
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind

MODEL_PATH = Path(__file__).with_name("relation_model.npz")
NONE = "NONE"
MARGIN = 2.0
"""How many times as probable as the next relation the types allow the read one must be."""


@dataclass(frozen=True)
class RelationModel:
    """The classifier's weights, its classes and its threshold."""

    weights: NDArray[np.float32]
    bias: NDArray[np.float32]
    classes: tuple[str, ...]
    threshold: float
    recipe: dict[str, Any]

    @classmethod
    def load(cls, path: Path = MODEL_PATH) -> RelationModel:
        """The shipped weights (`finetune.reader.train` writes them)."""
        with np.load(path, allow_pickle=False) as z:
            return cls(
                weights=z["weights"],
                bias=z["bias"],
                classes=tuple(str(c) for c in z["classes"]),
                threshold=float(z["threshold"]),
                recipe=json.loads(str(z["recipe"])),
            )

    def probabilities(self, vectors: NDArray[np.float32]) -> NDArray[np.float64]:
        """Class probabilities per row (softmax of the linear scores)."""
        z = vectors.astype(np.float64) @ self.weights.T.astype(np.float64) + self.bias
        z -= z.max(axis=1, keepdims=True)
        e = np.exp(z)
        out: NDArray[np.float64] = e / e.sum(axis=1, keepdims=True)
        return out


@functools.cache
def shipped_model() -> RelationModel:
    """The shipped relation model, loaded once."""
    return RelationModel.load()


@dataclass(frozen=True, slots=True)
class Choice:
    """A relation the model chose for two mentions."""

    subject: Mention
    object: Mention
    relation: str
    probability: float
    negated: bool
    stated: float = 1.0
    """The model's probability that the sentence states some catalog relation (1 - P(NONE))."""


def masked(doc: Any, subject: Mention, obj: Mention) -> str:
    """The sentence with the subject's tokens as "X" and the object's as "Y", without an opening "Yes," / "No,".

    The answer word says how the sentence stands to a question (the free reader's business), not which
    relation it states.
    """
    opening = 0
    while opening < len(doc) and (doc[opening].dep_ == "intj" or (opening and doc[opening].is_punct)):
        opening += 1
    if opening > min(subject.start, obj.start) or not any(doc[i].dep_ == "intj" for i in range(opening)):
        opening = 0
    text = doc.text
    out, at = [], doc[opening].idx if opening else 0
    for m, mark in sorted(((subject, "X"), (obj, "Y")), key=lambda p: p[0].start):
        if m.gap or m.end <= m.start:
            continue
        start, end = doc[m.start].idx, doc[m.end - 1].idx + len(doc[m.end - 1].text)
        out += [text[at:start], mark]
        at = end
    said = "".join([*out, text[at:]]).strip()
    return said[:1].upper() + said[1:]


Can = Callable[[str, str, Literal["s", "o"]], bool]
"""Whether a name can stand at one end of a relation, by stored facts (`TypeCheck.can`, strict)."""


def fits(catalog: Catalog, can: Can, relation: str, subject: Mention, obj: Mention, classed: bool = False) -> bool:
    """Whether the two mentions fit the relation's ends by the KB's stored facts (and the object's kind).

    `classed`: the object follows "a" / "an" ("is a mountain"), so it names a class, not a thing.
    """
    spec = catalog.get(relation)
    if subject.kind != ValueKind.ENTITY or obj.kind != spec.object_kind or not subject.linked:
        return False
    if obj.kind == ValueKind.ENTITY and classed and not CLASS_SLOT.search(spec.positive):
        return False  # "Corsica is a mountain": "a N" names a class, which only "{s} was a {o}" takes
    if not can(subject.text, relation, "s"):
        return False
    return obj.kind != ValueKind.ENTITY or (obj.linked and can(obj.text, relation, "o"))


def _classed(doc: Any, m: Mention) -> bool:
    """Whether "a" / "an" before the mention is its own article ("is a mountain"), not a later noun's.

    In "is an x-block element" the article is the noun's ("element"), and the mention only modifies it.
    """
    if m.start == 0 or doc[m.start - 1].lower_ not in ("a", "an"):
        return False
    head = doc[m.start - 1].head
    return bool(m.start <= head.i < m.end or head.i < m.start - 1)


def _spans(found: Sequence[Mention]) -> list[list[Mention]]:
    """The mentions grouped by span (a year is also a number), spans inside a longer one left out."""
    spans: dict[tuple[int, int], list[Mention]] = {}
    for m in found:
        if not m.gap:
            spans.setdefault((m.start, m.end), []).append(m)
    keep = [k for k in spans if not any(o != k and o[0] <= k[0] and k[1] <= o[1] for o in spans)]
    out = []
    for k in sorted(keep):
        group = spans[k]
        if any(m.kind == ValueKind.YEAR for m in group):  # "existed in 1035": a year, not a count
            group = [m for m in group if m.kind != ValueKind.QUANTITY]
        out.append(group)
    return out


SUBJECT_DEPS = frozenset({"nsubj", "nsubjpass"})
CLASS_SLOT = re.compile(r"\b(?:a|an)\s+\{o\}")
"""A statement template whose object is a class noun ("{s} was a {o}."): the only kind "a N" fills."""


def subject_of(doc: Any, s: Mention, o: Mention) -> bool:
    """Whether `s` is the sentence's subject (or its possessor) and `o` stands outside the subject's phrase.

    "Camden, New Jersey is a town" names both inside the subject: no relation between them is said;
    "Port of Spain is a town": "Spain" is no subject. A subject is a name (capitalised, or a common noun
    with no article: "zinc is in period 4") or a pronoun.
    """
    head = next((t for t in doc[s.start : s.end] if t.dep_ in SUBJECT_DEPS), None)
    if head is None:
        owner = next((t for t in doc[s.start : s.end] if t.dep_ == "poss" and t.head.dep_ in SUBJECT_DEPS), None)
        head = owner.head if owner is not None else None
    first = doc[s.start]
    bare = first.pos_ == "NOUN" and not any(c.dep_ in ("det", "poss") for c in doc[s.start : s.end].root.children)
    if not (first.text[:1].isupper() or first.pos_ == "PRON" or bare):
        return False
    if head is None:  # a parse with no subject at all ("Bolivia" as the verb's compound): the opening name
        root = next((t for t in doc if t.dep_ == "ROOT"), None)
        opening = not any(t.dep_ in SUBJECT_DEPS for t in doc) and s.start == 0
        return root is not None and opening and s.end <= root.i < o.start
    return not any(head.left_edge.i <= i <= head.right_edge.i for i in range(o.start, o.end))


PRONOUN_ENDS = frozenset({"dobj", "pobj", "dative", "nsubj", "nsubjpass", "attr"})
"""Where a personal pronoun fills a place of the verb ("Ansel Krane created it in 1736")."""


def _third_end(doc: Any, spans: Sequence[Sequence[Mention]]) -> bool:
    """Whether a personal pronoun or a noun that is neither mention fills one of the sentence's places.

    "Ansel Krane created it in 1736" names a creator and a year, and the thing created is "it": what
    the sentence relates is no pair of its two mentions, so the model reads nothing there. So does a noun
    the main verb takes as its object that neither mention holds ("created the chart in 1736").
    """
    inside = {i for group in spans for m in group for i in range(m.start, m.end)}
    if any(t.tag_ == "PRP" and t.dep_ in PRONOUN_ENDS and t.i not in inside for t in doc):
        return True
    # "X discovered velium in 1901": the main verb's object is a noun neither mention holds
    return any(
        t.dep_ == "dobj" and t.head.dep_ == "ROOT" and t.pos_ in ("NOUN", "PROPN") and t.i not in inside for t in doc
    )


def _numbers_its_noun(doc: Any, o: Mention, relation: str, wording: Mapping[str, frozenset[str]] | None) -> bool:
    """Whether a number that numbers a noun ("group 26") may be the relation's value: the relation says that noun."""
    if wording is None or o.kind != ValueKind.QUANTITY:
        return True
    last = doc[o.end - 1]
    if last.dep_ != "nummod" or last.head.pos_ not in ("NOUN", "PROPN"):
        return True
    return last.head.lemma_.lower() in wording.get(relation, frozenset())


PLAIN_VERBS = frozenset({"be", "have", "do"})
"""Verbs that say no relation of their own (a copula, "have"): the model judges their sentences."""


def _verb_says_another(doc: Any, relation: str, wording: Mapping[str, frozenset[str]]) -> list[str]:
    """The other relations the sentence's main verb is declared with, where `relation` is not; else [].

    "X was born in Norland" names a person and a country, which fit a nationality; but "bear" is
    a declared verb of the birth relations, and a birthplace fits the pair too, so the sentence says that
    (`choose` leaves it unread). A verb no relation declares ("is found in") leaves the model to judge, and
    so does one whose relations cannot hold the pair ("X was created at Y" of a place: no creator).
    """
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ != "VERB" or (lemma := root.lemma_.lower()) in PLAIN_VERBS:
        return []
    if lemma in wording.get(relation, frozenset()):
        return []
    return [name for name, lemmas in wording.items() if name != relation and lemma in lemmas]


def choose(
    doc: Any,
    found: Sequence[Mention],
    catalog: Catalog,
    can: Can,
    encode: Callable[[list[str]], NDArray[np.float32]],
    model: RelationModel,
    threshold: float | None = None,
    denials: Mapping[str, frozenset[str]] | None = None,
    wording: Mapping[str, frozenset[str]] | None = None,
) -> Choice | None:
    """The one relation the model reads between a sentence's two mentions, or None (module docstring).

    `threshold` replaces the model's own (a benchmark's sweep). `denials` are the cue lemmas of each
    relation's antonym templates ("outside" for "located in"): a sentence with one says the relation's
    denial, which the model cannot tell, and stays unread. `wording` are the lemmas each relation is
    declared with (label, statement, units): a number that numbers a noun ("group 26", "26 protons")
    is a value only of a relation that says that noun ("atomic number 26").

    The model says whether the masked sentence states a catalog relation at all (1 - P(NONE) at least
    its threshold); of the relations the KB's types allow, the most probable is read, when it is at
    least `MARGIN` times as probable as the next one.
    """
    spans = _spans(found)
    if len(spans) != 2 or any(in_a_name(doc, m) for group in spans for m in group) or _third_end(doc, spans):
        return None
    options: list[tuple[Mention, Mention, str]] = []
    for first, second in ((spans[0], spans[1]), (spans[1], spans[0])):
        for s in first:
            for o in second:
                classed = _classed(doc, o)
                if subject_of(doc, s, o):
                    options += [
                        (s, o, r.name)
                        for r in catalog
                        if fits(catalog, can, r.name, s, o, classed) and _numbers_its_noun(doc, o, r.name, wording)
                    ]
    if not options:
        return None
    orientations = list(dict.fromkeys((s.start, o.start) for s, o, _ in options))
    texts = []
    for s_at, _ in orientations:
        s = next(m for m, _o, _r in options if m.start == s_at)
        o = next(x for m, x, _r in options if m.start == s_at)
        texts.append(masked(doc, s, o))
    probs = model.probabilities(encode(texts))
    none = model.classes.index(NONE)
    scored = sorted(
        (
            (float(probs[orientations.index((s.start, o.start))][model.classes.index(r)]), s, o, r)
            for s, o, r in options
            if r in model.classes
        ),
        key=lambda x: -x[0],
    )
    if not scored:
        return None
    p, s, o, relation = scored[0]
    row = probs[orientations.index((s.start, o.start))]
    rivals = [q for q, _s, _o, r in scored[1:] if r != relation]
    if denials and any(t.lemma_.lower() in denials.get(relation, frozenset()) for t in doc):
        return None
    said = _verb_says_another(doc, relation, wording) if wording is not None else []
    if any(fits(catalog, can, r, s, o) for r in said):
        return None  # the verb's own relations could hold this pair: the sentence says one of those
    relation_p = 1.0 - float(row[none])
    if relation_p < (model.threshold if threshold is None else threshold) or (rivals and p < MARGIN * rivals[0]):
        return None
    return Choice(s, o, relation, p, negated_doc(doc), relation_p)


__all__ = ["MODEL_PATH", "Choice", "RelationModel", "choose", "fits", "masked", "shipped_model"]
