"""A yes / no question (or a statement put up for judgement) read as logic over linked names and relations.

The shape comes from the parse (`agents.reading.questions.frames`), the relation from the catalog's patterns
(`agents.reading.candidates.reader.read`) or, for the pair's supplied relation labels, from the predicate
words (`agents.reading.candidates.labels`):

- `common`: "Do X and Y have the same coach?" asserts that X and Y stand in `coach` to one thing
  (subject = X, object = Y, `negated` for "different");
- `count`: "Is Z busy because more than one festival was held at this place?" asserts that at
  least two things stand in the linked relation to Z (subject = Z, object = the count);
- `triple`: any other two names; the direction follows the grammar (`agents.reading.questions.direction`).

With a KB type check, only relations both names can fill are linked to; a place adjective reads as
its place ("an African country") and a copula's place preposition says the relation when nothing
else does ("Peru is in South America").

Nothing is forced: a predicate no label reaches, two labels too close, or a name no triple or KB
knows leaves the question unread (returns no readings).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

from agents.reading.candidates import (
    LabelLink,
    LabelLinker,
    Lexicon,
    Reading,
    RelationLabel,
    embedded,
    negated_doc,
    read,
    supposed_tokens,
    time_of,
    time_qualifier,
    time_word,
    with_pronoun,
)
from agents.reading.mentions import Mention, head_word, mentions
from agents.reading.questions.common_values import (
    belonging_link,
    common_value,
    says_no_relation,
    valued_by,
    valued_like,
)
from agents.reading.questions.direction import by_roles, direction, verbal
from agents.reading.questions.frames import (
    DIFFERENT,
    SAME,
    Span,
    head_words,
    predicate_words,
    quantity,
    sameness,
    without_type,
)
from agents.reading.questions.named import (
    Typed,
    definite_nouns,
    described,
    pertaining,
    question_names,
    subject_fits,
    typed_labels,
)
from agents.reading.questions.properties import MODIFIERS, property_words, said_property
from drowzee_core.kb.model import ValueKind

SHAPE_SKIP = SAME | DIFFERENT | frozenset({"both", "either", "neither", "two", "overlap", "between", "each", "other"})


QUANTIFYING = frozenset({"any", "other", "another", "some", "every", "each", "all"})
"""Words that make a relational noun range over things ("some rival coaches"), not name one."""


def quantified(tok: Any) -> bool:
    """Whether a noun is quantified ("every other coach", "some members"): it says nothing of one pair."""
    return tok.pos_ == "NOUN" and any(c.dep_ in ("det", "amod") and c.lower_ in QUANTIFYING for c in tok.children)


def _phrase(words: list[Any]) -> tuple[str, list[str]]:
    return " ".join(t.text for t in words), [t.lemma_.lower() for t in words]


def _link(linker: LabelLinker, words: list[Any], labels: Sequence[RelationLabel]) -> LabelLink | None:
    phrase, lemmas = _phrase(words)
    return linker.link(phrase, lemmas, labels) if phrase else None


def _respective(words: list[Any]) -> list[Any] | None:
    """The first of two coordinated relational nouns ("X and Y are child and parent" -> [child]), or None."""
    for t in words:
        if t.pos_ == "NOUN" and any(c.dep_ == "conj" and c.pos_ == "NOUN" for c in t.children):
            return [t]
    return None


SPATIAL = frozenset({"in", "on", "at", "inside", "within", "near"})


def _copular_preposition(doc: Any, m: Mention) -> list[Any]:
    """The place preposition a name hangs on under a copula ("Peru is in South America": "in"), or none.

    With no other predicate word, it is what says the relation.
    """
    root = head_word(doc, m)
    prep = root.head
    host = prep.head  # "is in ...", or a question's "Is Canberra in ...", where the parse hangs it on the subject
    copular = host.lemma_ == "be" or (host.dep_ == "nsubj" and host.head.lemma_ == "be")
    if root.dep_ == "pobj" and prep.lower_ in SPATIAL and copular:
        return [prep]
    return []


def _shared_only(doc: Any, spans: Sequence[Span]) -> bool:
    """Whether "share" is the sentence's only sameness word ("X and Y share a border", not "the same border")."""
    inside = {i for n in spans for i in range(n.start, n.end)}
    said = {t.lemma_.lower() for t in doc if t.i not in inside} & (SAME | DIFFERENT)
    return said == {"share"}


def _qualifies(doc: Any, names: Sequence[Mention]) -> bool:
    """Whether the question says a property of its one name, or its second name only qualifies a copula's noun.

    "Is X a woman?"; "Is X a female sailor?" ("female", a supplied value, modifies "sailor").
    """
    if len(names) == 1:
        return True
    if len(names) != 2:
        return False
    root = next((t for t in doc[names[1].start : names[1].end] if not names[1].start <= t.head.i < names[1].end), None)
    return root is not None and root.dep_ in MODIFIERS and root.i in {t.i for t in property_words(doc, names[0])}


def _word_link(
    linker: LabelLinker, words: list[Any], typed_labels: Sequence[RelationLabel], every: Sequence[RelationLabel]
) -> LabelLink | None:
    """The label the predicate's own words say (a lemma of the label), else the best of the typed labels.

    Types break ties and weigh WordNet neighbours and embeddings, but never hide a label the sentence
    names: a false claim puts a name where the KB has never seen one ("The Peruvian capital is Cusco":
    Cusco is no capital). A WordNet neighbour is no such word ("country" is a kind of "group").
    """
    said = _link(linker, words, every)
    return said if said is not None and said.how == "lemma" else _link(linker, words, typed_labels)


def _saying(linker: LabelLinker, words: list[Any], label: RelationLabel | None) -> frozenset[str]:
    """The label's lemmas and the predicate lemmas that say it by themselves (a lemma or WordNet link).

    A name under one of these nouns is the relation's ("the murder of X" for "killed by"); under any
    other noun it is only part of what the sentence says ("the north of X").
    """
    if label is None:
        return frozenset()
    own = {t.lemma_.lower() for t in words if linker.scores(t.text, [t.lemma_.lower()], [label])[0].how != "embedding"}
    return label.lemmas | own


def _valued_claim(
    doc: Any,
    name: Mention,
    found: list[Mention],
    labels: Sequence[RelationLabel],
    linker: LabelLinker,
    typed: Typed | None,
    neg: bool,
) -> list[Reading]:
    """One name and one year or number ("Mozart's birth year is 1770"): the value label the other words say.

    Only labels of the value's kind that the name can be the subject of (by the KB's types) compete. A number
    that may be a year and follows a time word ("in 1736", "until 1802") is read only as a year.
    """
    said = [m for m in found if m.kind != ValueKind.ENTITY]
    timed = {(m.start, m.end) for m in said if m.kind == ValueKind.YEAR and time_word(doc, m) is not None}
    said = [m for m in said if m.kind == ValueKind.YEAR or (m.start, m.end) not in timed]  # "charted in 1736": a year
    inside = {
        (m.start, m.end)
        for m in said
        for n in said
        if n.start <= m.start and m.end <= n.end and n.end - n.start > m.end - m.start
    }
    spans = {(m.start, m.end) for m in said} - inside  # "2 million", not "million" in it
    if len(spans) != 1:
        return []  # no value, or two ("born in 1564 and died in 1642")
    links = []
    for value in (m for m in said if (m.start, m.end) in spans):  # a year is a number too: each kind's labels
        fitting = [
            x for x in labels if x.kind == value.kind and (typed is None or typed.can(name.text, x.relation, "s"))
        ]
        words = predicate_words(doc, [Span(name.start, name.end), Span(value.start, value.end)])
        if (link := _link(linker, words, fitting)) is not None and not verbal(link):
            links.append((link, value))  # a verb label ("discovered in") is the catalog patterns' to read
    if len(links) != 1:
        return []
    link, value = links[0]
    past = any(t.tag_ == "VBD" and t.lemma_ != "do" for t in doc)
    return [Reading(name.text, link.label, value.text, neg, past, 0, tolerance=value.tolerance)]


def read_question(
    doc: Any,
    lexicon: Lexicon,
    known: Callable[[str], bool],
    labels: Sequence[RelationLabel],
    linker: LabelLinker | None,
    typed: Typed | None = None,
    previous: str | None = None,
) -> list[Reading]:
    """The claim a yes / no question or a judged statement asserts (at most one reading), or none.

    With `typed`, only labels whose subject and object ends the two names can fill (either way round)
    are linked to, where any is ("Japan uses the yen": the yen is a currency, not a country that
    shares one); when none is, every label stays.
    """
    value_labels = [x for x in labels if x.kind != ValueKind.ENTITY]  # "birth year", "population": name and value
    labels = [x for x in labels if x.kind == ValueKind.ENTITY]
    found = with_pronoun(doc, mentions(doc, known, lexicon.cue_lemmas, unlinked=True), previous)
    if typed is not None and linker is not None:
        found = pertaining(doc, found, known, linker)
    names = question_names(doc, found, known)
    if typed is not None and len(names) == 1:
        names, labels = described(found, names, labels, typed, definite_nouns(doc, found, lexicon.cue_lemmas))
    every = labels
    if typed is not None and len(names) == 2:
        labels = typed_labels(labels, names[0].text, names[1].text, typed)
    supposed = supposed_tokens(doc)
    if any(m.start in supposed for m in names):
        return []  # "if X directed Y, ...": a supposition asserts nothing
    spans = [Span(m.start, m.end) for m in names]
    neg = negated_doc(doc)
    same = sameness(doc, spans)
    shared = same and _shared_only(doc, spans) and all(m.linked for m in names)
    if shared and (mutual := read(doc, lexicon, known)):
        return mutual  # "Do X and Y share a border?": a symmetric relation, not a common value
    if same is not None and linker is not None and labels:
        said = predicate_words(doc, spans, SHAPE_SKIP)
        links = [x for x in (_link(linker, without_type(said), labels), _link(linker, said, labels)) if x is not None]
        link = max(links, key=lambda x: x.score) if links else None  # "written in different languages": a label
        a, b = names
        if link is None:  # "both part of the same group": the one label the triples give both names
            link = belonging_link(doc, linker, labels, (a, b), said, getattr(known, "said_of", None))
        if link is None:
            return []
        kind = "triple" if "same" in link.text.lower().split() else "common"  # "on the same continent as" says it
        return [Reading(a.text, link.label, b.text, (not same) != neg, False, 0, kind=kind)]
    counted = quantity(doc)
    if counted is not None and len(names) == 1 and linker is not None and labels:
        noun_i, n = counted
        noun = doc[noun_i]
        drop = {x.i for x in noun.subtree if x.i <= noun.i}  # "at least three old ferries"
        words = [t for t in predicate_words(doc, spans) if t.i not in drop]
        link = _link(linker, words, labels)
        if link is None:
            return []
        return [Reading(names[0].text, link.label, str(n), neg, False, 0, kind="count")]
    by_pattern = read(doc, lexicon, known) if all(m.linked for m in names) else []
    if not by_pattern and len(names) == 1 and linker is not None and value_labels:
        by_value = _valued_claim(doc, names[0], found, value_labels, linker, typed, neg)
        if by_value or not labels:
            return by_value
    qualifies = not by_pattern and linker is not None and labels and _qualifies(doc, names)
    if qualifies and linker is not None and (prop := said_property(doc, names[0], labels, linker, neg)):
        return prop  # "X is male", "X is a female sailor"
    if not by_pattern and typed is None and len(names) == 1 and linker is not None and labels:
        relational = lexicon.cue_lemmas.union(*(x.lemmas for x in labels))
        if (value := common_value(doc, found, names, relational)) is not None:  # "X is in the genre of death metal"
            names = sorted([*names, value], key=lambda m: m.start)
            spans = [Span(m.start, m.end) for m in names]
    if by_pattern or len(names) != 2 or linker is None or not labels:
        return by_pattern
    a, b = names
    modified = False
    words = predicate_words(doc, spans) or _copular_preposition(doc, b)
    if any(quantified(t) for t in words):
        return []  # "The list names no rival coaches": no claim about these two names
    if not words and (valued := valued_by(labels, b.text)) is not None:  # "X is a drama film": a value of "genre"
        return [Reading(a.text, valued.relation, b.text, neg, False, 0)]
    if len(doc[a.end : b.start]) == 1 and (first := _respective(words)) is not None:
        link = _link(linker, first, labels)  # "a and b are N1 and N2": a is the N1 of b
        if link is None or verbal(link):
            return []
        s, o = (a, b) if link.converse else (b, a)
    else:
        link = _word_link(linker, words, labels, every) if typed is not None else _link(linker, words, labels)
        if link is None and len(heads := head_words(words, names)) < len(words):  # a modified noun: its head's
            link = _word_link(linker, heads, labels, every) if typed is not None else _link(linker, heads, labels)
            modified = link is not None  # the modifier says more than the label: the reading is partial
        fits = functools.partial(subject_fits, typed, link.label) if typed is not None and link is not None else None
        where = direction(doc, words, a, b, link, fits) if link is not None else None
        where = by_roles(where, link, getattr(known, "said_of", None)) if where and link else where
        if link is None and typed is None and says_no_relation(words):  # "X is a poem", "X is set in Lisbon"
            link, where = valued_like(linker, labels, (a, b), getattr(known, "subjects", ()))
        if link is None or where is None:
            return []
        s, o = where
        if typed is not None and s.linked and not typed.can(s.text, link.label, "s"):
            # the KB's types say the subject cannot have the relation (a person "developed at" a language); the
            # object end is not checked: a wrong value ("the capital is <a city no capital>") is the claim itself
            return []
    when = time_qualifier(doc, found, s, o)  # "In 1990 Germany used ...": the claim holds at that year
    # a relation its templates say in the past ("was painted by") is no past statement for being said so
    said_past = any(p.past for p in lexicon.patterns if p.relation == link.label)
    past = when is not None or (not said_past and any(t.tag_ == "VBD" and t.lemma_ != "do" for t in doc))
    values = [  # "in 1769", a number; the year a time word dates the claim by is its time (as a number too)
        m
        for m in found
        if m.kind != ValueKind.ENTITY
        and m not in (s, o)
        and not (when is not None and m.start < when.end and when.start < m.end)
    ]
    said_by = _saying(linker, words, next((x for x in every if x.relation == link.label), None))
    # "in the north of X" says a part of X: a KB claim of X itself is partial. With supplied labels the
    # linker has judged the whole predicate, owner noun and all, to say the label ("brought about the fall
    # of X" for "overthrown by"), and a partial question would stand as a claim the evidence must support
    # (dev: Drowzee history pairs 0.853 -> 0.850, and an answer of dev seed 0, when it was partial there too)
    part = typed is not None and any(embedded(doc, m, said_by) for m in (s, o))
    leftover = len(names) > 2 or bool(values) or part or modified
    year = int(when.text) if when is not None else None
    return [Reading(s.text, link.label, o.text, neg, past, 0, leftover, year=year, time=time_of(doc, when))]


__all__ = ["Typed", "read_question"]
