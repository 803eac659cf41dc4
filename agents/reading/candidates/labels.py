"""Link a sentence's predicate words to one of the relation labels a pair's triples use ("location", "killed by").

A label is scored against the predicate words three ways, and its best score counts:

- *lemma*: a content lemma of the label is one of the predicate's lemmas ("killed by" ~ "kill"); the
  more of the label's lemmas the predicate says, the higher ("currency" links "currency" over "uses
  the currency");
- *WordNet*: a label lemma is a synonym, a derivational form or a hypernym (two levels up) of a
  predicate lemma ("locate" ~ "location"), or its *converse* ("parent" for "child": WordNet
  antonyms that are not co-hyponyms, unlike "father" / "mother", which share the hypernym
  "parent"; a label whose hypernym is a converse is one too): a converse link swaps subject and
  object. Only a lemma's three most frequent senses count, and light verbs ("take", "have") none;
- *embedding*: the cosine of the predicate phrase and the label (all-MiniLM-L6-v2).

The best label is taken when its score reaches `MIN_SCORE` and beats the next label by `MARGIN`;
otherwise the predicate stays unlinked and the sentence unread. `MIN_SCORE` is fitted on the
catalog's own templates (`bench/label_linking.py`), never on evaluation data; `MARGIN` is set, not fitted.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import NDArray

from drowzee_core.kb.model import ValueKind

LEMMA_SCORE = 1.0
LEMMA_SPREAD = 0.15
"""How much a lemma link loses for label lemmas the predicate does not say ("uses the currency" for
"currency": 0.925, below the label "currency" at 1.0); never below a WordNet link."""
WORDNET_SCORE = 0.8
PRIMARY_BONUS = 0.06
"""What a WordNet link by a lemma's most frequent sense gains over one by another sense: more than `MARGIN`, so
it wins their tie ("brother of": "sibling", not "member of"); still below a lemma link."""
MIN_SCORE = 0.35
"""Least score of a linked label (fitted on the catalog's templates: `bench/label_linking.py`)."""
MARGIN = 0.05
"""Least lead of the linked label over the next one."""
LABEL_STOP = frozenset({"of", "by", "in", "at", "for", "from", "to", "with", "on", "the", "a", "an", "is", "be", "has"})
PLURAL_MARK = re.compile(r"\((?:e?s)\)")  # "has part(s)": the label's noun is "part"

SENSES = 3
"""WordNet senses of a lemma that count (its most frequent ones)."""
LIGHT = frozenset({"take", "make", "have", "give", "get", "do", "go", "come", "put", "set", "hold", "keep", "let"})
"""Light verbs: their WordNet neighbours span every sense of English ("take" ~ "occupy" ~ "occupation")."""

AGENT_SUFFIXES = ("er", "or", "ist", "ant", "ent")
"""Endings of English agent nouns ("publisher", "director", "novelist", "servant"); not "-ee" (a patient)."""

How = Literal["lemma", "wordnet", "converse", "embedding"]


@dataclass(frozen=True, slots=True)
class Related:
    """A lemma's WordNet neighbours: synonyms and derivational forms (`same`), converses (`converse`)."""

    same: frozenset[str] = frozenset()
    converse: frozenset[str] = frozenset()
    broader: frozenset[str] = frozenset()
    """Hypernyms, two levels up ("father" -> "parent"): a label whose broader term is a converse is one too."""
    agents: frozenset[str] = frozenset()
    """A verb's agent nouns, the one who does it ("direct" -> "director"): the verb's subject is their value."""
    primary: frozenset[str] = frozenset()
    """The most frequent sense's names and hypernyms and their head nouns ("brother": "sibling"): they win a tie."""


@dataclass(frozen=True, slots=True)
class RelationLabel:
    """A relation a predicate may link to: what a claim calls it, how it reads, its content lemmas."""

    relation: str
    """The claim's relation: a supplied label as written, or a catalog relation's name."""
    text: str
    """How it reads ("killed by", "located in")."""
    lemmas: frozenset[str]
    verbal: bool = False
    """It reads as a verb phrase ("uses the currency", "located in"), not a relational noun ("coach")."""
    objects: frozenset[str] = frozenset()
    """The values the supplied triples give it, lowercased (empty for a catalog relation)."""
    spelled: tuple[str, ...] = ()
    """The same values as the triples write them ("Canada" for "canada")."""
    inverse: str | None = None
    """The catalog relation that says the same facts the other way round (`capital of` for `capital`)."""
    kind: ValueKind = ValueKind.ENTITY
    """What its values are: names, numbers or years."""


@dataclass(frozen=True, slots=True)
class LabelLink:
    """The label a predicate links to, how, and whether subject and object swap (a converse)."""

    label: str
    """The claim's relation (`RelationLabel.relation`)."""
    score: float
    how: How
    converse: bool = False
    text: str = ""
    """How the relation reads (`RelationLabel.text`)."""
    verbal: bool = False
    """`RelationLabel.verbal`."""
    agentive: bool = False
    """The label is the agent noun of the predicate's verb ("director" for "directed"): the doer is its value."""


def label_lemmas(label: str, parse: Callable[[str], Any]) -> frozenset[str]:
    """The content lemmas of a label ("killed by" -> {"kill"}; "place of birth" -> {"place", "birth"}).

    A one-word label in "-ing" is a noun, whatever the parser makes of it alone ("sibling", not "sible").
    """
    tokens = [t for t in parse(PLURAL_MARK.sub("", label)) if t.lower_ not in LABEL_STOP and t.is_alpha]
    if len(tokens) == 1 and tokens[0].tag_ == "VBG":
        return frozenset({tokens[0].lower_})
    return frozenset(t.lemma_.lower() for t in tokens)


def verbal_label(label: str, parse: Callable[[str], Any]) -> bool:
    """Whether a label starts as a verb phrase ("uses the currency", "shares a border with")."""
    doc = parse(label)
    first = next(iter(doc), None)
    if first is None or (len(doc) == 1 and first.tag_ == "VBG"):
        return False  # a one-word "-ing" label is a noun ("sibling")
    return bool(first.pos_ in ("VERB", "AUX") and first.lemma_.lower() not in LIGHT)


_VALUE = re.compile(r"^[+-]?\d[\d,]*(?:\.\d+)?(?:-\d{2}-\d{2}(?:T[\d:]+Z?)?)?(?:\s*(?:BC|BCE|AD|CE))?$", re.IGNORECASE)


def entity_labels(triples: Sequence[Sequence[str]], parse: Callable[[str], Any]) -> list[RelationLabel]:
    """The relation labels of supplied triples that join two names, each with its content lemmas.

    A label whose every object is a number, a year or a date ("point in time", "population") never
    links a predicate between two names.
    """
    objects: dict[str, list[str]] = {}
    for t in triples:
        if len(t) >= 3 and str(t[1]).strip():
            objects.setdefault(" ".join(str(t[1]).split()), []).append(str(t[-1]).strip())
    return [
        RelationLabel(
            label,
            label,
            label_lemmas(label, parse),
            verbal_label(label, parse),
            frozenset(o.lower() for o in objs),
            spelled=tuple(dict.fromkeys(objs)),
        )
        for label, objs in objects.items()
        if any(not _VALUE.match(o) for o in objs)
    ]


_YEARISH = re.compile(r"^[+-]?\d{1,4}(?:-\d{2}-\d{2}(?:T[\d:]+Z?)?)?(?:\s*(?:BC|BCE|AD|CE))?$", re.IGNORECASE)


def value_labels(triples: Sequence[Sequence[str]], parse: Callable[[str], Any]) -> list[RelationLabel]:
    """The relation labels of supplied triples whose every value is a year or date, or a number, with that kind.

    "publication date" -> a year label; "population" -> a number label: a question with one name and
    one value ("Was X published in 1987?") links its predicate to them.
    """
    objects: dict[str, list[str]] = {}
    for t in triples:
        if len(t) >= 3 and str(t[1]).strip():
            objects.setdefault(" ".join(str(t[1]).split()), []).append(str(t[-1]).strip())
    out = []
    for label, objs in objects.items():
        if not objs or not all(_VALUE.match(o) for o in objs):
            continue
        kind = ValueKind.YEAR if all(_YEARISH.match(o.replace(",", "")) for o in objs) else ValueKind.QUANTITY
        values = frozenset(o.lower() for o in objs)
        out.append(
            RelationLabel(label, label, label_lemmas(label, parse), verbal_label(label, parse), values, kind=kind)
        )
    return out


def catalog_labels(catalog: Iterable[Any], parse: Callable[[str], Any]) -> list[RelationLabel]:
    """The catalog's relations, read by their labels (for a pair with no supplied triples), each with its kind."""
    return [
        RelationLabel(
            r.name,
            r.label,
            label_lemmas(r.label, parse),
            verbal_label(r.label, parse),
            inverse=r.inverse_of,
            kind=r.object_kind,
        )
        for r in catalog
    ]


def reads_verbally(link: LabelLink) -> bool:
    """Whether a label reads as a verb: it starts with one, ends in a preposition or a participle."""
    label = link.text.lower()
    last = label.rsplit(" ", 1)[-1]
    return link.verbal or last in ("by", "of", "in", "at", "to", "from", "with", "on") or label.endswith("ed")


class LabelLinker:
    """Scores relation labels against predicate words (module docstring)."""

    def __init__(
        self,
        embed: Callable[[Sequence[str]], NDArray[np.float32]],
        related: Callable[[str], Related] | None = None,
        min_score: float = MIN_SCORE,
        margin: float = MARGIN,
        pertains: Callable[[str], tuple[str, ...]] | None = None,
        means: Callable[[str, str], bool | None] | None = None,
        describes: Callable[[str, str], bool] | None = None,
    ) -> None:
        self.embed = embed
        self.related = related or (lambda _lemma: Related())
        self.pertains = pertains or (lambda _adjective: ())
        """An adjective's pertainyms ("Asian" -> ("Asia",); `WordNetRelated.pertainyms`)."""
        self.means = means or (lambda word, value: True if word == value else None)
        """Whether a word says a value, its opposite or neither (`WordNetRelated.means`)."""
        self.describes = describes or (lambda _name, _noun: False)
        """Whether a name is one of what a noun says (`WordNetRelated.describes`; "the country" of Canada)."""
        self.min_score = min_score
        self.margin = margin
        self._vectors: dict[str, NDArray[np.float32]] = {}

    def vectors(self, texts: Sequence[str]) -> NDArray[np.float32]:
        """The embeddings of `texts`, one row each (cached)."""
        if missing := [t for t in dict.fromkeys(texts) if t not in self._vectors]:
            self._vectors.update(zip(missing, self.embed(missing), strict=True))
        return np.stack([self._vectors[t] for t in texts])

    def scores(self, phrase: str, lemmas: Sequence[str], labels: Sequence[RelationLabel]) -> list[LabelLink]:
        """Every label's best link to the predicate, best first."""
        if not labels or not phrase.strip():
            return []
        near = {lemma: self.related(lemma) for lemma in lemmas}
        same = {x for r in near.values() for x in r.same | r.broader}  # "site" says "location" too
        primary = {x for r in near.values() for x in r.primary}
        converse = {x for r in near.values() for x in r.converse}
        agents = {x for r in near.values() for x in r.agents}
        agents |= {x for a, b in itertools.pairwise(lemmas) for x in self.related(f"{a} {b}").agents}
        vecs = self.vectors([phrase, *(x.text for x in labels)])
        cos = vecs[1:] @ vecs[0]
        out = []
        for label, c in zip(labels, cos, strict=True):
            words = label.lemmas
            link = LabelLink(label.relation, float(c), "embedding", text=label.text, verbal=label.verbal)
            if said := words & set(lemmas):
                score = LEMMA_SCORE - LEMMA_SPREAD * (1 - len(said) / len(words))  # "currency" says "currency" best
                link = LabelLink(label.relation, score, "lemma", text=label.text, verbal=label.verbal)
            elif words & agents and not label.verbal:  # the doer's noun, however close the embedding is
                link = LabelLink(
                    label.relation, max(WORDNET_SCORE, link.score), "wordnet", text=label.text, agentive=True
                )
            elif words & (same | primary) and link.score < WORDNET_SCORE + PRIMARY_BONUS:
                score = WORDNET_SCORE + (PRIMARY_BONUS if words & primary else 0.0)  # the usual sense wins a tie
                link = LabelLink(label.relation, score, "wordnet", text=label.text, verbal=label.verbal)
            elif link.score < WORDNET_SCORE and (words | self._broader(words)) & converse:
                link = LabelLink(
                    label.relation, WORDNET_SCORE, "converse", converse=True, text=label.text, verbal=label.verbal
                )
            out.append(link)
        return sorted(out, key=lambda x: -x.score)

    def _broader(self, words: frozenset[str]) -> set[str]:
        return {x for w in words for x in self.related(w).broader}

    def link(self, phrase: str, lemmas: Sequence[str], labels: Sequence[RelationLabel]) -> LabelLink | None:
        """The label the predicate links to, or None (too weak, or too close to another label).

        A relation and its inverse ("capital" / "capital of") say the same facts, so a tie between
        them is no ambiguity: the relational noun is taken, whose direction the grammar gives by its
        owner ("Peru's capital", "the capital of Peru"), where a verb label would go by word order.
        """
        ranked = self.scores(phrase, lemmas, labels)
        if not ranked or ranked[0].score < self.min_score:
            return None
        inverse = {x.relation: x.inverse for x in labels}
        top = ranked[0]
        twin = next((x for x in ranked[1:] if x.label == inverse.get(top.label)), None)
        if twin is not None and top.score - twin.score < self.margin:
            ranked = [x for x in ranked if x is not twin]
            top = twin if reads_verbally(top) and not reads_verbally(twin) else top
        if len(ranked) > 1 and ranked[0].score - ranked[1].score < self.margin:
            return None
        return top


__all__ = [
    "LabelLink",
    "LabelLinker",
    "Related",
    "RelationLabel",
    "catalog_labels",
    "entity_labels",
    "label_lemmas",
    "reads_verbally",
    "value_labels",
]
