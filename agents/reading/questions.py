"""A yes / no question (or a statement put up for judgement) read as logic over linked names and relations.

The shape comes from the parse (`agents.reading.frames`), the relation from the catalog's patterns
(`agents.reading.reader.read`) or, for the pair's supplied relation labels, from the predicate
words (`agents.reading.labels`):

- `common`: "Do X and Y have the same coach?" asserts that X and Y stand in `coach` to one thing
  (subject = X, object = Y, `negated` for "different");
- `count`: "Is Z busy because more than one festival was held at this place?" asserts that at
  least two things stand in the linked relation to Z (subject = Z, object = the count);
- `triple`: any other two names; the direction follows the grammar: a relational noun's "of" / "for"
  name is the subject of a noun label ("X is the coach of Y" -> (Y, coach, X)), a label said with
  "by" takes its active sentence's object as subject ("X trained Y" -> (Y, trained by, X)), else
  the grammatical subject comes first; a converse link (WordNet: "parent" for "child") swaps them.

Nothing is forced: a predicate no label reaches, two labels too close, or a name no triple or KB
knows leaves the question unread (returns no readings).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agents.reading.frames import DIFFERENT, SAME, Span, predicate_words, quantity, sameness
from agents.reading.labels import LIGHT, Label, LabelLink, LabelLinker
from agents.reading.lexicon import Lexicon
from agents.reading.reader import Mention, Reading, mentions, negated_doc, read
from drowzee_core.kb.model import ValueKind

SHAPE_SKIP = SAME | DIFFERENT | frozenset({"both", "either", "neither", "two", "overlap", "between", "each", "other"})


def _phrase(words: list[Any]) -> tuple[str, list[str]]:
    return " ".join(t.text for t in words), [t.lemma_.lower() for t in words]


def _link(linker: LabelLinker, words: list[Any], labels: Sequence[Label]) -> LabelLink | None:
    phrase, lemmas = _phrase(words)
    return linker.link(phrase, lemmas, labels) if phrase else None


def _owner(words: list[Any], names: list[Mention]) -> Mention | bool | None:
    """The name whose relation a relational noun of the predicate says, or False when that is ambiguous.

    "the coach of Y", "the site for Y", "Y's coach": Y; "Y has a coach named X": Y (the subject of
    "have"). "X has the coach of Y" says both and is ambiguous (False). None: no relational noun.
    """

    def name_in(tok: Any) -> Mention | None:
        inside = {x.i for x in tok.subtree}
        hit = [m for m in names if m.end - 1 in inside]
        return hit[0] if len(hit) == 1 else None

    for t in words:
        if t.pos_ != "NOUN":
            continue
        of = next(
            (name_in(p) or _next_name(p, names) for p in t.children if p.dep_ == "prep" and p.lower_ in OWNER_PREPS),
            None,
        )
        poss = next((name_in(p) for p in t.children if p.dep_ == "poss"), None)
        holder = None
        if t.dep_ == "dobj" and t.head.lemma_ == "have":
            holder = next((name_in(c) for c in t.head.children if c.dep_ == "nsubj"), None)
        if of is not None and holder is not None:
            return False
        if (found := of or poss or holder) is not None:
            return found
    return None


OWNER_PREPS = ("of", "for")
DESCRIPTORS = frozenset({"DET", "ADJ", "NOUN"})


def _next_name(prep: Any, names: list[Mention]) -> Mention | None:
    """The name right after a preposition and a description of it ("for the old town Kobe": Kobe)."""
    doc = prep.doc
    later = [m for m in names if m.start > prep.i]
    if not later:
        return None
    first = min(later, key=lambda m: m.start)
    return first if all(doc[i].pos_ in DESCRIPTORS for i in range(prep.i + 1, first.start)) else None


TYPE_MARKS = (SAME | DIFFERENT) - {"both"}
"""Words that modify the shared thing ("the same club"), unlike "both", which modifies the two names."""


def _without_type(words: list[Any]) -> list[Any]:
    """Predicate words without the shared thing's type ("members of the same club": "club" is no relation).

    The noun a sameness or difference word modifies names the type of the shared object when a
    relational word comes before it ("both R of the same T"); alone ("the same coach") it is the relation.
    """
    typed = [t for t in words if t.pos_ == "NOUN" and any(c.lower_ in TYPE_MARKS for c in t.children)]
    if not typed:
        return words
    rest = [t for t in words if t not in typed and t.head not in typed]
    relational = [t for t in rest if t.pos_ in ("NOUN", "VERB") and t.lemma_.lower() not in LIGHT and t.i < typed[0].i]
    return rest if relational else words


def _respective(words: list[Any]) -> list[Any] | None:
    """The first of two coordinated relational nouns ("X and Y are child and parent" -> [child]), or None."""
    for t in words:
        if t.pos_ == "NOUN" and any(c.dep_ == "conj" and c.pos_ == "NOUN" for c in t.children):
            return [t]
    return None


def _agent(doc: Any, names: list[Mention]) -> Mention | None:
    for t in doc:
        if t.dep_ == "agent":
            inside = {x.i for x in t.subtree}
            hit = [m for m in names if m.end - 1 in inside]
            if len(hit) == 1:
                return hit[0]
    return None


def _verbal(label: str) -> bool:
    last = label.rsplit(" ", 1)[-1].lower()
    return last in ("by", "of", "in", "at", "to", "from", "with", "on") or label.lower().endswith("ed")


def _direction(doc: Any, words: list[Any], a: Mention, b: Mention, link: LabelLink) -> tuple[Mention, Mention] | None:
    """(subject, object) of the label for two names in sentence order (module docstring); None if ambiguous."""
    names = [a, b]
    label = link.text.lower()
    if label.endswith(" by"):
        agent = _agent(doc, names)
        s, o = ((b, a) if agent is a else (a, b)) if agent is not None else (b, a)
    elif not _verbal(label) and (owner := _owner(words, names)) is not None:
        if owner is False or owner is True:
            return None
        s, o = owner, (b if owner is a else a)
    elif not _verbal(label) and not _locative(doc, b):
        return None  # "X trained Y" for the noun label "coach": is X the coach of Y or Y's? Not said.
    else:
        s, o = a, b
    return (o, s) if link.converse else (s, o)


LOCATIVE = frozenset({"in", "at", "on", "during", "near", "inside", "within", "into", "from"})


def _locative(doc: Any, m: Mention) -> bool:
    """Whether a name hangs on a place or time preposition ("occurred in Y"): its clause's subject owns the relation."""
    root = max(doc[m.start : m.end], key=lambda t: t.dep_ != "compound")
    head = root.head
    return root.dep_ == "pobj" and head.lower_ in LOCATIVE


def _names(doc: Any, found: list[Mention], known: Callable[[str], bool]) -> list[Mention]:
    """The entity mentions that name individuals.

    A lowercase common noun ("the parent") is a description, unless a supplied triple names it so.
    """
    supplied = {n.lower() for n in getattr(known, "names", ())}
    out = []
    for m in found:
        if m.kind != ValueKind.ENTITY:
            continue
        common = all(t.pos_ == "NOUN" and t.text.islower() for t in doc[m.start : m.end])
        if common and m.text.lower() not in supplied:
            continue
        out.append(m)
    return out


def read_question(
    doc: Any,
    lexicon: Lexicon,
    known: Callable[[str], bool],
    labels: Sequence[Label],
    linker: LabelLinker | None,
) -> list[Reading]:
    """The claim a yes / no question or a judged statement asserts (at most one reading), or none."""
    found = mentions(doc, known, lexicon.cue_lemmas, unlinked=True)
    names = _names(doc, found, known)
    spans = [Span(m.start, m.end) for m in names]
    neg = negated_doc(doc)
    same = sameness(doc, spans)
    if same is not None and linker is not None and labels:
        words = _without_type(predicate_words(doc, spans, SHAPE_SKIP))
        link = _link(linker, words, labels)
        if link is None:
            return []
        a, b = names
        return [Reading(a.text, link.label, b.text, (not same) != neg, False, 0, kind="common")]
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
    if by_pattern or len(names) != 2 or linker is None or not labels:
        return by_pattern
    words = predicate_words(doc, spans)
    a, b = names
    if len(doc[a.end : b.start]) == 1 and (first := _respective(words)) is not None:
        link = _link(linker, first, labels)  # "a and b are N1 and N2": a is the N1 of b
        if link is None or _verbal(link.text):
            return []
        s, o = (a, b) if link.converse else (b, a)
    else:
        link = _link(linker, words, labels)
        where = _direction(doc, words, a, b, link) if link is not None else None
        if link is None or where is None:
            return []
        s, o = where
    leftover = len(names) > 2
    return [Reading(s.text, link.label, o.text, neg, False, 0, leftover)]


__all__ = ["read_question"]
