"""What a sentence says around the claim a reader takes from it (pure, over a spaCy parse).

- *suppositions*: names inside an "if" / "unless" / "whether" clause are asserted by nothing;
- *negation*: "not", "never", "n't";
- *time*: the one year, besides the claim's own slots, that a time word dates it by ("In 1995 France
  used ...", "until 2001", "since 1999", "before", "by", "after");
- *what is left*: a name, number or year outside the claim's slots and time, or a name said only as
  part of something else ("in the north of France"), makes the reading partial: it can refute the
  sentence, never prove all of it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from agents.reading.candidates.lexicon import OF
from agents.reading.mentions import Mention, as_decade, head_word
from drowzee_core.kb.model import ValueKind
from drowzee_core.records.enums import TimeWord

SUPPOSING = frozenset({"if", "unless", "whether", "suppose", "supposing"})

DENYING = frozenset(
    {
        *("false", "incorrect", "wrong", "untrue", "inaccurate", "mistaken", "erroneous"),
        *("disagree", "doubt", "deny", "opposite", "contrary", "reverse"),
    }
)
"""Judging words that deny what they judge ("It is false that X is Y": X is not Y)."""


FACTIVE = frozenset({"fact", "truth", "knowledge", "proof", "evidence", "realization"})
"""Nouns whose content clause is asserted ("the fact that X")."""


def supposed_tokens(doc: Any) -> set[int]:
    """The token positions inside a clause that supposes or reports rather than asserts.

    "if X was Y's father, ..." supposes; "the claim that X is Y (is false)" reports a content clause of
    a noun, which the sentence may deny. "The fact that X ..." asserts X (a factive noun).
    """
    supposing = {
        t
        for t in doc
        if t.dep_ in ("advcl", "ccomp", "csubj") and any(c.dep_ == "mark" and c.lower_ in SUPPOSING for c in t.children)
    }
    reported = {
        t
        for t in doc
        if t.dep_ in ("acl", "relcl")
        and t.head.pos_ == "NOUN"
        and t.head.lemma_.lower() not in FACTIVE
        and any(c.dep_ == "mark" and c.lower_ == "that" for c in t.children)
    }
    return {x.i for t in supposing | reported for x in t.subtree}


def asserts_nothing(doc: Any) -> bool:
    """Whether a sentence only asks or supposes: names stand only inside its "if / whether" clauses.

    "The question asks if X is Y.", "To decide this, we need to check whether X is Y." say nothing of X.
    """
    inside = supposed_tokens(doc)
    return bool(inside) and not any(t.pos_ in ("PROPN", "NUM") for t in doc if t.i not in inside)


def negated_doc(doc: Any) -> bool:
    """Whether a sentence is negated: by a negation ("not", "never", "n't") or by a frame that denies, not both.

    "It is false that X is Y" denies that X is Y; "It is not false that ..." asserts it. A negation
    contracted onto a question's fronted auxiliary asks rather than denies: "Isn't X in Y?" asks
    whether X is in Y, as "Is X in Y?" does.
    """
    asks = _fronted(doc)
    negation = any((t.dep_ == "neg" or t.lower_ in ("never", "n't")) and t.i != asks for t in doc)
    return negation != _denying_frame(doc)


def _fronted(doc: Any) -> int:
    """The index of a negation contracted onto a question's first auxiliary ("Isn't X ...?"), else -1."""
    words = [t for t in doc if not t.is_space]
    if len(words) > 2 and words[-1].text == "?" and words[0].pos_ == "AUX" and words[1].lower_ == "n't":
        return int(words[1].i)
    return -1


def _denying_frame(doc: Any) -> bool:
    """Whether an expletive frame denies its clause ("It is false that ...", "Is it wrong to say that ...?")."""
    for root in (t for t in doc if t.lemma_ == "be"):
        kids = list(root.children)
        if not any(c.dep_ in ("expl", "nsubj") and c.lower_ == "it" for c in kids):
            continue
        if not any(c.dep_ in ("ccomp", "advcl", "xcomp", "csubj") for c in kids):
            continue
        if any(c.dep_ in ("acomp", "attr") and c.lemma_.lower() in DENYING for c in kids):
            return True
    return False


TIME_WORDS: dict[str, TimeWord] = {
    "in": TimeWord.AT,
    "during": TimeWord.AT,
    "of": TimeWord.AT,  # "as of 2010"
    "until": TimeWord.UNTIL,
    "till": TimeWord.UNTIL,
    "since": TimeWord.SINCE,
    "before": TimeWord.BEFORE,
    "by": TimeWord.BY,
    "after": TimeWord.AFTER,
}
"""The words that put a claim in time relative to a year, and how (`TimeWord`): "In 1995 France used
the franc" (at), "until 2001", "since 1999", "before 1990", "by 2005" (at or before), "after 1990"."""


def time_word(doc: Any, m: Mention) -> TimeWord | None:
    """How the word before a year puts a claim in time ("until 2001": `until`), or None for no time word."""
    if m.start <= 0:
        return None
    if as_decade(doc[m.start].text) is not None:
        return TimeWord.DECADE  # "in the 1730s" (the finder makes a decade a mention only after "in the")
    word = doc[m.start - 1].lower_
    if word == "of" and not (m.start > 1 and doc[m.start - 2].lower_ == "as"):
        return None
    return TIME_WORDS.get(word)


def time_of(doc: Any, when: Mention | None) -> TimeWord:
    """How a claim stands to the year that dates it (`time_qualifier`); `at` when undated."""
    return (time_word(doc, when) or TimeWord.AT) if when is not None else TimeWord.AT


def time_qualifier(doc: Any, found: Sequence[Mention], s: Mention, o: Mention) -> Mention | None:
    """The one year, besides the subject and object, that a time word dates the claim by ("in 1995"), or None."""
    years = [m for m in found if m.kind == ValueKind.YEAR and m not in (s, o) and time_word(doc, m) is not None]
    return years[0] if len(years) == 1 else None


def leftover(doc: Any, found: Sequence[Mention], s: Mention, o: Mention, when: Mention | None = None) -> bool:
    """Whether the sentence holds a name, number or year outside the reading's subject, object and time."""
    used = set(range(s.start, s.end)) | set(range(o.start, o.end))
    if when is not None:
        used |= set(range(when.start, when.end))
        found = [m for m in found if not (m.start < when.end and when.start < m.end)] + [when]
    for m in found:
        if not set(range(m.start, m.end)) & used:
            return True
    covered = {i for m in found for i in range(m.start, m.end)}
    return any((t.pos_ in ("PROPN", "NUM")) and t.i not in covered for t in doc)


def embedded(doc: Any, m: Mention, cues: Collection[str]) -> bool:
    """Whether a name stands inside a noun phrase the pattern does not say ("in the north of X": "north").

    Its head is "of" under a noun that is none of the pattern's cues: the sentence says something of
    a part or aspect of the name, which a reading of the name itself can refute but never prove.
    """
    if m.gap or m.start >= len(doc):
        return False
    root = head_word(doc, m)
    prep = root.head
    owner = prep.head
    said = {owner.lemma_.lower()} | {c.lemma_.lower() for c in owner.children if c.dep_ == "compound"}
    return (
        root.dep_ == "pobj"
        and prep.lower_ == OF
        and owner.pos_ == "NOUN"
        and not said & set(cues)  # "the capital city of X": the pattern's "capital" says it
        and not m.start <= owner.i < m.end
    )


__all__ = [
    "TIME_WORDS",
    "asserts_nothing",
    "embedded",
    "leftover",
    "negated_doc",
    "supposed_tokens",
    "time_of",
    "time_qualifier",
    "time_word",
]
