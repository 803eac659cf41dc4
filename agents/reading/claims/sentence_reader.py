"""The sentence reader: one sentence or question read into `Reading`s, linked to the catalog and the supplied labels.

`SentenceReader` holds the catalog's lexicon and the label linker (built on first use); it reads a
statement (`read_one`), a yes / no question or judged statement (`ask`), a short answer (`answer_of`),
and what a response's opening pronoun stands for (`topic`, `pair`). `agents.reading.claims.free` applies it
to a response.
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import Any, Literal

from agents.reading.candidates import (
    Comparative,
    LabelLinker,
    Lexicon,
    Reading,
    RelationLabel,
    bare_nouns,
    catalog_labels,
    counted,
    default_linker,
    entity_labels,
    leftover,
    measured,
    negated_doc,
    nlp,
    read,
    read_comparative,
    saved_lexicon,
    time_of,
    time_qualifier,
    unit_table,
    value_labels,
    with_pronoun,
)
from agents.reading.claims.carried import declared_forms
from agents.reading.mentions import (
    Hop,
    Mention,
    distributed,
    listed,
    mentions,
    resolve_descriptions,
)
from agents.reading.questions import (
    MAX_SHORT_ANSWER_WORDS,
    Typed,
    hedge_tokens,
    read_question,
)
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import RelationCategory, ValueKind
from drowzee_core.kb.template_regex import fill

SUPERLATIVE_TAGS = frozenset({"JJS", "RBS"})
"""A superlative before a noun ("largest", "most"): the sentence ranks a thing among others."""


def _strictly(typed: Typed, text: str, relation: str, end: Literal["s", "o"]) -> bool:
    return typed.can(text, relation, end, strict=True)


@functools.lru_cache(maxsize=256)
def parsed(sentence: str) -> Any:
    """A sentence's parse, shared by the readers that try it one after another (none of them changes it)."""
    return nlp()(sentence)


class SentenceReader:
    """Reads sentences into `Reading`s with the catalog's lexicon (built on first use)."""

    def __init__(self, catalog: Catalog, linker: Callable[[], LabelLinker] | None = None, learned: bool = True) -> None:
        self.catalog = catalog
        self.learned_on = learned
        self._forms: dict[str, dict[str, str]] = {}
        self._merged: dict[tuple[str, ...], Lexicon] = {}
        self._make_linker = linker or default_linker
        self._linker: LabelLinker | None = None

    @property
    def linker(self) -> LabelLinker:
        """The label linker (embeddings and WordNet load on first use)."""
        if self._linker is None:
            self._linker = self._make_linker()
        return self._linker

    def ask(
        self,
        question: str,
        known: Callable[[str], bool],
        lexicon: Lexicon,
        triples: Sequence[Sequence[str]],
        typed: Typed | None = None,
        previous: str | None = None,
        least: float = 0.0,
    ) -> list[Reading]:
        """What a yes / no question (or a judged statement) asserts, linked to the catalog and the supplied labels.

        A predicate no catalog pattern reads is linked to the supplied triples' labels, or to the
        catalog's relations when the pair supplies none; `typed` says which of the catalog's relations
        the names can fill (`drowzee_core.kb.naming.TypeCheck`); a subject pronoun is `previous`. A
        supplied label links with at least the score `least`.
        """
        doc = parsed(question)
        if any(t.tag_ in SUPERLATIVE_TAGS and t.head.pos_ == "NOUN" for t in doc):
            return []  # "the largest city in X is Y" ranks Y among X's cities, which no linked label says
        supplied = entity_labels(triples, nlp())
        labels = (supplied or self.catalog_labels) + value_labels(triples, nlp())  # "Was X published in 1987?"
        linker = self.linker
        if supplied and least > linker.min_score:
            linker = copy.copy(linker)  # shares the embedding cache
            linker.min_score = least
        return read_question(doc, lexicon, known, labels, linker, None if supplied else typed, previous)

    def describes(self, name: str, noun: str) -> bool:
        """Whether a name is one of what a noun says ("Kenya", "country"; the linker's WordNet)."""
        return self.linker.describes(name, noun)

    @cached_property
    def catalog_labels(self) -> list[RelationLabel]:
        """The catalog's entity relations as linkable labels."""
        found: list[RelationLabel] = catalog_labels(self.catalog, nlp())
        return found

    @cached_property
    def lexicon(self) -> Lexicon:
        """The catalog's relation patterns (parsed once per catalog and pipeline, then read from a saved state)."""
        return saved_lexicon(self.catalog, nlp())

    def with_labels(self, labels: Sequence[str]) -> Lexicon:
        """The catalog's lexicon plus patterns for relation labels the catalog does not know."""
        names = {r.name for r in self.catalog} | {r.label.lower() for r in self.catalog}
        new = tuple(dict.fromkeys(x for x in labels if x.strip() and x.strip().lower() not in names))
        if not new:
            return self.lexicon
        if new not in self._merged:
            self._merged[new] = self.lexicon.merged(Lexicon.from_labels(new, nlp()))
        return self._merged[new]

    def read_one(
        self,
        sentence: str,
        known: Callable[[str], bool],
        previous: str | None = None,
        answer: Mention | None = None,
        lexicon: Lexicon | None = None,
    ) -> list[Reading]:
        """The readings of one sentence; a pronoun subject is `previous`; `answer` fills a question word."""
        return read(parsed(sentence), lexicon or self.lexicon, known, previous, answer)

    def _mentioned(
        self, sentence: str, known: Callable[[str], bool], previous: str | None
    ) -> tuple[Any, list[Mention]]:
        """A sentence's parse and its mentions, a subject pronoun standing for `previous`."""
        doc = parsed(sentence)
        return doc, with_pronoun(doc, mentions(doc, known, self.lexicon.cue_lemmas), previous)

    @cached_property
    def denials(self) -> dict[str, frozenset[str]]:
        """Per relation, the words of its antonym templates that deny it ("outside" of "{s} lies outside {o}").

        Adverbs, adjectives and prepositions an antonym template has and the relation's statement lacks.
        """
        out: dict[str, frozenset[str]] = {}
        for spec in self.catalog:
            said = {t.lemma_.lower() for t in nlp()(fill(spec.positive, "Alice", "Bob"))}
            words = {
                t.lemma_.lower()
                for antonym in spec.antonyms
                for t in nlp()(fill(antonym, "Alice", "Bob"))
                if t.pos_ in ("ADV", "ADJ", "ADP") and t.lemma_.lower() not in said
            }
            if words:
                out[spec.name] = frozenset(words)
        return out

    @cached_property
    def wording(self) -> dict[str, frozenset[str]]:
        """Per relation, the lemmas it is declared with: its label, its statement and its units."""
        return {
            spec.name: frozenset(
                t.lemma_.lower()
                for text in (spec.label, fill(spec.positive, "Alice", "Bob"), *spec.units)
                for t in nlp()(text)
                if t.is_alpha
            )
            for spec in self.catalog
        }

    def declared_forms(self, relation: str) -> dict[str, str]:
        """The declared verb of a relation per tag (`agents.reading.claims.carried.declared_forms`), cached."""
        if relation not in self._forms:
            self._forms[relation] = declared_forms(self.catalog, relation, parsed)
        return self._forms[relation]

    def learned(
        self, sentence: str, known: Callable[[str], bool], typed: Typed, previous: str | None = None
    ) -> list[Reading]:
        """The relation model's reading of a sentence no pattern reads (`agents.reading.candidates.learned`), or []."""
        if not self.learned_on:
            return []
        from agents.reading.candidates import choose, shipped_model
        from drowzee_core.llm.embeddings import embedder

        doc, found = self._mentioned(sentence, known, previous)
        fits = functools.partial(_strictly, typed)
        choice = choose(
            doc,
            found,
            self.catalog,
            fits,
            embedder().encode,
            shipped_model(),
            denials=self.denials,
            wording=self.wording,
        )
        if choice is None:
            return []
        past = any(t.tag_ == "VBD" and t.lemma_ != "do" for t in doc)
        o = choice.object
        return [
            Reading(
                choice.subject.text,
                choice.relation,
                o.text,
                choice.negated,
                past,
                0,
                tolerance=o.tolerance,
                by_model=True,
            )
        ]

    @cached_property
    def units(self) -> dict[tuple[str, ...], str]:
        """The catalog's declared units (lemmas) -> their quantity relation (`agents.reading.candidates.measures`)."""
        declared = [(r.name, r.units) for r in self.catalog if r.units]
        return unit_table(declared, lambda text: tuple(t.lemma_.lower() for t in nlp()(text)))

    def measured(
        self, sentence: str, known: Callable[[str], bool], typed: Typed, previous: str | None = None
    ) -> list[Reading]:
        """A number said in a relation's declared unit, read as that relation (`reading.candidates.measures`), or []."""
        doc, found = self._mentioned(sentence, known, previous)
        m = measured(doc, found, self.units, functools.partial(_strictly, typed))
        if m is None:
            return []
        when = time_qualifier(doc, found, m.subject, m.value)
        past = when is not None or any(t.tag_ == "VBD" and t.lemma_ != "do" for t in doc)
        return [
            Reading(
                m.subject.text,
                m.relation,
                m.value.text,
                negated_doc(doc),
                past,
                1,
                leftover(doc, [x for x in found if x not in bare_nouns(doc, found)], m.subject, m.value, when),
                tolerance=m.value.tolerance,
                year=int(when.text) if when is not None else None,
                time=time_of(doc, when),
            )
        ]

    @cached_property
    def counted_nouns(self) -> dict[tuple[str, ...], str]:
        """The lemmas of each entity relation's noun label -> the relation ("official language")."""
        out: dict[tuple[str, ...], str] = {}
        for spec in self.catalog:
            if spec.object_kind == ValueKind.ENTITY and spec.category == RelationCategory.NOUN_PHRASE:
                out.setdefault(tuple(t.lemma_.lower() for t in nlp()(spec.label)), spec.name)
        return out

    def counted(
        self, sentence: str, known: Callable[[str], bool], typed: Typed, previous: str | None = None
    ) -> list[Reading]:
        """A count of a name's values of a relation ("X has two official tongues"; `reading.candidates.measures`)."""
        doc, found = self._mentioned(sentence, known, previous)
        read = counted(doc, found, self.counted_nouns, functools.partial(_strictly, typed))
        if read is None:
            return []
        name, n, relation = read
        return [Reading(name.text, relation, str(n), negated_doc(doc), False, 1, kind="values")]

    def compared(self, sentence: str, known: Callable[[str], bool], lexicon: Lexicon) -> Comparative | None:
        """The comparison of two names' years or numbers a sentence makes (`agents.reading.candidates.comparatives`)."""
        return read_comparative(parsed(sentence), known, self.catalog, lexicon)

    def described(
        self, sentence: str, known: Callable[[str], bool], objects: Callable[[str, str], list[str]]
    ) -> tuple[str, list[Hop]]:
        """The sentence with its descriptions of KB names resolved (`reading.mentions.descriptions`), and the hops."""
        return resolve_descriptions(sentence, nlp(), known, self.catalog, objects)

    def each_named(self, sentence: str, known: Callable[[str], bool]) -> list[str]:
        """The sentence once per name of its one list of names (`agents.reading.mentions.coordination`); else []."""
        doc = parsed(sentence)
        return distributed(doc, [m for m in mentions(doc, known) if m.kind == ValueKind.ENTITY])

    def answers_of(self, response: str, known: Callable[[str], bool], question: str = "") -> list[Mention]:
        """The names or values a short answer gives ("Lima.", "In 1789.", "The answer is Lima."), or [].

        A list answer ("Chile, Bolivia and X.") gives each of its names, a name nothing knows too (unlinked):
        the answer is all of them, never its first name alone.

        The answer is the response's first sentence, without a first-person hedge ("..., as far as I
        know", "I believe ..."). A sentence with another verb is a statement, not a short answer
        (unless it is "The answer is X"); a name the question itself uses is not its answer.
        """
        first = next(iter(nlp()(response).sents), None)
        if first is None or sum(not (t.is_punct or t.dep_ == "cc") for t in first) > MAX_SHORT_ANSWER_WORDS + 3:
            return []
        hedge = hedge_tokens(first)
        doc = first.as_doc()
        root = next((t for t in doc if t.dep_ == "ROOT"), None)
        scope: Any = doc[:]
        if root is not None and root.lemma_ == "be" and any(c.lemma_ == "answer" for c in root.children):
            scope = next((c for c in root.children if c.dep_ in ("attr", "acomp")), None)
            scope = doc[scope.left_edge.i : scope.right_edge.i + 1] if scope is not None else None
        elif any(t.pos_ in ("VERB", "AUX") and t.i + first.start not in hedge for t in doc):
            return []
        if scope is None:
            return []
        asked = question.lower()
        found = [
            m
            for m in mentions(doc, known, self.lexicon.cue_lemmas, unlinked=True)
            if m.text.lower() not in asked and scope.start <= m.start < scope.end and m.start + first.start not in hedge
        ]
        found = [m for m in found if m.linked or m.kind != ValueKind.ENTITY] + [m for m in found if not m.linked]
        return found[:1] + listed(doc, found) if found else []

    def answer_of(self, response: str, known: Callable[[str], bool], question: str = "") -> Mention | None:
        """The first name or value a short answer gives (`answers_of`), or None."""
        found = self.answers_of(response, known, question)
        return found[0] if found and found[0].linked else None


__all__ = ["SentenceReader"]
