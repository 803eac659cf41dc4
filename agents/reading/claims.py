"""The sentence reader applied to a response: free sentences and yes / no questions become KB claims.

Sentences the catalog templates left unread are read with `agents.reading.reader.read`; a subject
pronoun takes the previous claim's subject. A yes / no question (the query) read the same way,
with the response's Yes or No, is the claim the answer makes ("Do Germany and France share a
border?" "No." claims that they do not). Names are linked to the user's KB (on its thread) and to
the names of the pair's supplied triples.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING, Any

from agents.reading.asking import MAX_QUERY_CHARS, last_question, question_text, wh_question
from agents.reading.coordination import all_or_nothing, distributed, pair_of, they_as
from agents.reading.discourse import STANCE
from agents.reading.known import knower
from agents.reading.labels import WORDNET_SCORE, Label, LabelLinker, catalog_labels, entity_labels
from agents.reading.lexicon import Lexicon
from agents.reading.question_names import question_names
from agents.reading.questions import Typed, read_question
from agents.reading.reader import Mention, Reading, mentions, nlp, read
from agents.reading.units import fold
from agents.reading.verbalize import reading_claim, verbalize
from agents.schemas import Claim, ClaimKind, ClaimOrigin
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.naming import TypeCheck
from drowzee_core.kb.wording import first_named

if TYPE_CHECKING:
    from agents.services import Services


class SentenceReader:
    """Reads sentences into `Reading`s with the catalog's lexicon (built on first use)."""

    def __init__(self, catalog: Catalog, linker: Callable[[], LabelLinker] | None = None) -> None:
        self.catalog = catalog
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
        supplied = entity_labels(triples, nlp())
        labels = supplied or self.catalog_labels
        linker = self.linker
        if supplied and least > linker.min_score:
            linker = copy.copy(linker)  # shares the embedding cache
            linker.min_score = least
        return read_question(nlp()(question), lexicon, known, labels, linker, None if supplied else typed, previous)

    @cached_property
    def catalog_labels(self) -> list[Label]:
        """The catalog's entity relations as linkable labels."""
        found: list[Label] = catalog_labels(self.catalog, nlp())
        return found

    @cached_property
    def lexicon(self) -> Lexicon:
        """The catalog's relation patterns."""
        return Lexicon.from_catalog(self.catalog, nlp())

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
        return read(nlp()(sentence), lexicon or self.lexicon, known, previous, answer)

    def each_named(self, sentence: str, known: Callable[[str], bool]) -> list[str]:
        """The sentence once per name of its one list of names (`agents.reading.coordination`); else []."""
        doc = nlp()(sentence)
        return distributed(doc, [m for m in mentions(doc, known) if m.kind == ValueKind.ENTITY])

    def topic(self, query: str, known: Callable[[str], bool]) -> str | None:
        """The name the query's last question is about: what a response's opening pronoun stands for.

        That is a name that is a direct argument of the question's verb ("When was X born?", "Which
        continent is X on?", "Did X use ...?"), not one inside a phrase ("What is the capital of X?":
        "It" is the capital). A question that asks for its subject has none ("Who married X?",
        "Which country borders X?"): a pronoun there is the answer.
        """
        asked = last_question(query)
        if asked is None:
            return None
        doc = nlp()((question_text(query) or asked)[:MAX_QUERY_CHARS])
        if doc[0].lower_ in ("who", "whom", "whose") or _asks_subject(doc):
            return None
        for m in question_names(doc, mentions(doc, known), known):  # names, not descriptions ("continent")
            root = max(doc[m.start : m.end], key=lambda t: t.dep_ != "compound")
            if root.dep_ in TOPIC_DEPS and root.head.dep_ == "ROOT":
                return m.text
        return None

    def pair(self, query: str, known: Callable[[str], bool]) -> str | None:
        """The two names the query's question joins ("Do X and Y share a border?"): what "they" stands for."""
        asked = question_text(query) or last_question(query)
        if asked is None:
            return None
        doc = nlp()(asked[:MAX_QUERY_CHARS])
        return pair_of(doc, [m for m in mentions(doc, known) if m.kind == ValueKind.ENTITY])

    def answer_of(self, response: str, known: Callable[[str], bool], question: str = "") -> Mention | None:
        """The name or value a short answer gives ("Lima.", "In 1789.", "The answer is Lima."), or None.

        The answer is the response's first sentence, without a first-person hedge ("..., as far as I
        know", "I believe ..."). A sentence with another verb is a statement, not a short answer
        (unless it is "The answer is X"); a name the question itself uses is not its answer.
        """
        first = next(iter(nlp()(response).sents), None)
        if first is None or len(first) > MAX_SHORT_ANSWER_WORDS + 3:
            return None
        hedge = _hedge_tokens(first)
        doc = first.as_doc()
        root = next((t for t in doc if t.dep_ == "ROOT"), None)
        scope: Any = doc[:]
        if root is not None and root.lemma_ == "be" and any(c.lemma_ == "answer" for c in root.children):
            scope = next((c for c in root.children if c.dep_ in ("attr", "acomp")), None)
            scope = doc[scope.left_edge.i : scope.right_edge.i + 1] if scope is not None else None
        elif any(t.pos_ in ("VERB", "AUX") and t.i + first.start not in hedge for t in doc):
            return None
        if scope is None:
            return None
        asked = question.lower()
        found = [
            m
            for m in mentions(doc, known, self.lexicon.cue_lemmas)
            if m.text.lower() not in asked and scope.start <= m.start < scope.end and m.start + first.start not in hedge
        ]
        return found[0] if found else None


def default_linker() -> LabelLinker:
    """The label linker on the bundled embeddings and WordNet (`agents.reading.labels`)."""
    from agents.reading.wordnet_related import WordNetRelated
    from drowzee_core.config import home
    from drowzee_core.kb.sources.wordnet import load_wordnet
    from drowzee_core.llm.embeddings import SentenceEmbedder

    related = WordNetRelated(load_wordnet(home()))
    return LabelLinker(SentenceEmbedder().encode, related, pertains=related.pertainyms)


COGNITION = frozenset({"believe", "think", "know", "guess", "suppose", "recall", "say"})
FIRST_PERSON = frozenset({"i", "we"})


def _hedge_tokens(sentence: Any) -> set[int]:
    """Token indexes of first-person hedges in a sentence ("as far as I know", "I think"), not the claim they hedge."""
    out: set[int] = set()
    for t in sentence:
        stance = t.lemma_ in STANCE and t.dep_ == "acomp"  # "I'm sure <the claim>"
        owner = t.head if stance else t
        if (t.lemma_ in COGNITION or stance) and any(
            c.dep_ == "nsubj" and c.lower_ in FIRST_PERSON for c in owner.children
        ):
            clause = {x.i for x in owner.subtree}
            for c in t.children:  # "I believe <the claim>": the complement is the claim, not the hedge
                if c.dep_ in ("ccomp", "xcomp"):
                    clause -= {x.i for x in c.subtree}
            out |= clause
    return out


def flip(reading: Reading, yes: bool) -> Reading:
    """The claim an answer makes to a question read as `reading`: itself for Yes, its negation for No."""
    return reading if yes else dataclasses.replace(reading, negated=not reading.negated)


MAX_SHORT_ANSWER_WORDS = 6
TOPIC_DEPS = frozenset({"nsubj", "nsubjpass", "attr", "dobj"})
"""How a question's topic name stands to its verb: subject, copula's complement, object."""


def spoken_of(reading: Reading, triples: Sequence[Sequence[str]]) -> bool:
    """Whether a supplied triple gives the reading's subject a value of its relation (pure)."""
    subject = fold(reading.subject)
    return any(len(t) >= 3 and str(t[1]) == reading.relation and fold(str(t[0])) == subject for t in triples)


def _asks_subject(doc: Any) -> bool:
    """Whether a "what / which" phrase is the subject of a verb other than "be" ("Which country borders X?")."""
    wh = next((t for t in doc if t.lower_ in ("what", "which")), None)
    if wh is None:
        return False
    head = wh.head if wh.dep_ == "det" else wh
    return bool(head.dep_ in ("nsubj", "nsubjpass") and head.head.lemma_ != "be")


def read_free(
    services: Services,
    query: str,
    response: str,
    said: Sequence[bool],
    found: Sequence[Claim],
    triples: Sequence[Sequence[str]],
    topic: str | None = None,
    both: str | None = None,
) -> list[Claim]:
    """Text claims the reader reads become triple claims; the query with a Yes / No or a short answer too.

    `said` holds the response's Yes / No stance(s); the query is read only when no other reader made
    the answer's claim from it (templates, Drowzee's question shapes, MTL questions), which the caller
    says by passing `said` empty and `query` "". A reader claim keeps its sentence's span; its text is
    the claim as the catalog words it; an opening pronoun is `topic` (`SentenceReader.topic`), a subject
    "they" the two names `both` of the question (`SentenceReader.pair`). A
    *partial* reading (the sentence holds more than the claim) keeps the sentence as a text claim
    beside it, so it can refute the sentence but never prove all of it.
    """
    yes_no = question_text(query) if said else None
    wh = wh_question(query) if query and not said else None
    if not any(c.kind == ClaimKind.TEXT or c.origin == ClaimOrigin.TEMPLATE for c in found) and not yes_no and not wh:
        return list(found)
    reader, store, catalog = services.sentence_reader, services.store, services.catalog

    def run() -> list[Claim]:
        known = knower(store, triples)
        typed = TypeCheck(store, catalog)
        lexicon = reader.with_labels([str(t[1]) for t in triples if len(t) >= 3])
        out: list[Claim] = []
        previous = topic  # "When was X born?" "She was born in ..."

        def statement(text: str, previous: str | None) -> list[Reading]:
            readings = reader.read_one(text, known, previous, lexicon=lexicon)
            if not readings:
                # no catalog pattern: link the predicate to one of the catalog's relations, or to a supplied label
                # whose triples speak of the claim's subject, by a word or WordNet (a long answer's reasoning over
                # the triples read as claims no triple decides: Drowzee's history answers, dev seed 0: 0.777 ->
                # 0.743 with any label; with a lone label, any phrase is "nearest")
                least = WORDNET_SCORE if triples else 0.0  # a word or WordNet says the label, not nearness alone
                asked = reader.ask(text, known, lexicon, triples, typed, previous, least)
                readings = [r for r in asked if spoken_of(r, triples)] if triples else asked
            return readings

        for c in found:
            misnamed = c.origin == ClaimOrigin.TEMPLATE and c.subject is not None and not known(c.subject)
            plain = (they_as(nlp()(c.text), both) if both else None) or c.text  # "They do not ...": the two names
            readings = statement(plain, previous) if c.kind == ClaimKind.TEXT or misnamed else []
            if misnamed:  # "In 1980 Spain's currency ...": a template took "In 1980 Spain" for a name
                out += [reading_claim(c, r, ClaimOrigin.READER, verbalize(catalog, r)) for r in readings] or [c]
                continue
            if not readings and c.kind == ClaimKind.TEXT:  # "X borders A, B and C": one claim per name
                each = reader.each_named(c.text, known)
                readings = all_or_nothing(each, functools.partial(statement, previous=previous))
            out += [reading_claim(c, r, ClaimOrigin.READER, verbalize(catalog, r)) for r in readings]
            if not readings or any(r.partial for r in readings):
                out.append(c)
            last = next((x for x in reversed(out) if x.subject), None)
            previous = first_named(last.text, last.subject, last.object) if last and last.subject else previous
        asked: list[tuple[Reading, str]] = []
        if yes_no:
            read_q = reader.ask(yes_no, known, lexicon, triples, typed)[:1]
            asked = [(flip(r, yes), yes_no) for r in read_q for yes in said]
        elif wh and (answer := reader.answer_of(response, known, wh)) is not None:
            asked = [(r, wh) for r in reader.read_one(wh, known, answer=answer, lexicon=lexicon)[:1]]
        base = Claim(id="", text="", kind=ClaimKind.TRIPLE, origin=ClaimOrigin.QUERY)
        for r, question in asked:
            origin = ClaimOrigin.READER if r.partial else ClaimOrigin.QUERY
            out.append(reading_claim(base, r, origin, verbalize(catalog, r)))
            if r.partial:  # the question asks more than the claim: the rest stays for the other sources
                out.append(
                    base.model_copy(update={"kind": ClaimKind.TEXT, "origin": ClaimOrigin.SENTENCE, "text": question})
                )
        return out

    return services.gate.run(run)


__all__ = [
    "SentenceReader",
    "flip",
    "last_question",
    "question_text",
    "read_free",
    "verbalize",
    "wh_question",
]
