"""Predicate-argument roles over a spaCy parse (pure): who did what, and which noun a number measures.

Evidence often states a claim's words with other roles: "A beat B to win the title" does not say
that B won it; "atomic number 26 ... mass number 56" does not give 56 as the atomic number. A claim's
name or number is read with its *frame*: the predicate it is an argument of (a verb, or the noun a
number counts), that predicate's modifiers ("atomic" number, cups "of flour"), and its role there
(subject, object, a preposition, a modifier). Passive voice is undone (the "by" agent is the subject,
the passive subject the object), and an infinitive or participle takes its subject from the verb it
hangs from ("A beat B to win": A wins).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

SUBJECT = "subject"
OBJECT = "object"
MODIFIER = "modifier"
_SUBJECT_DEPS = frozenset({"nsubj", "csubj", "agent"})
_OBJECT_DEPS = frozenset({"dobj", "nsubjpass", "attr", "oprd", "dative"})
_MODIFIER_DEPS = frozenset({"nummod", "appos", "compound", "amod", "quantmod", "npadvmod", "poss", "nmod"})
_CONTROL = frozenset({"xcomp", "advcl", "acl", "conj", "relcl"})
MAX_STEPS = 8
TIME = "prep:time"
"""The role of a date under "in", "on", "at" or "during": one role however the date is written."""
_TIME_PREPS = frozenset({"in", "on", "at", "during"})


@dataclass(frozen=True, slots=True)
class Frame:
    """A claim value's predicate, the predicate's modifiers and the value's role there."""

    lemma: str
    modifiers: frozenset[str]
    role: str
    verbal: bool = False
    """The predicate is a verb: a noun derived from it ("director" for "direct") has other roles and is
    no head of the frame."""


def modifiers(tok: Any) -> frozenset[str]:
    """A predicate's distinguishing words: compound and adjective modifiers, and a noun's "of" object."""
    out = {c.lemma_.lower() for c in tok.children if c.dep_ in ("compound", "amod") and c.is_alpha}
    for c in tok.children:  # "cups of flour", not the measure of "a span of 410 metres"
        if c.dep_ == "prep" and c.lower_ == "of":
            out |= {
                g.lemma_.lower()
                for g in c.children
                if g.dep_ == "pobj" and g.is_alpha and not any(n.dep_ == "nummod" for n in g.children)
            }
    return frozenset(out)


def _role(top: Any) -> str | None:
    """The role of the phrase whose root `top` hangs directly from the predicate (passive undone)."""
    dep = top.dep_
    if dep == "prep" and any(g.dep_ == "pobj" and g.ent_type_ in ("DATE", "TIME") for g in top.children):
        return TIME if top.lower_ in _TIME_PREPS else f"prep:{top.lower_}"  # "by 1889" is a deadline, no agent
    if dep == "agent" or (dep == "prep" and top.lower_ == "by"):
        return SUBJECT
    if dep in _SUBJECT_DEPS:
        return SUBJECT
    if dep in _OBJECT_DEPS:
        return OBJECT
    if dep == "prep":  # a noun's "of" phrase modifies it like a compound ("a span of 410 metres")
        return MODIFIER if top.lower_ == "of" and top.head.pos_ in ("NOUN", "PROPN") else f"prep:{top.lower_}"
    if dep in _MODIFIER_DEPS:
        return MODIFIER
    return None


def role_under(root: Any, pred: Any) -> str | None:
    """The role the phrase rooted at `root` fills for `pred`, or None when it is not `pred`'s argument."""
    tok, top, steps = root, None, 0
    while tok.i != pred.i:
        if tok.head.i == tok.i or steps >= MAX_STEPS:
            return None
        top, tok = tok, tok.head
        steps += 1
        if tok.i != pred.i and tok.pos_ in ("VERB", "AUX") and tok.dep_ not in ("aux", "auxpass"):
            return None
    return None if top is None else _role(top)


def frame(root: Any, pred: Any) -> Frame | None:
    """A claim value's frame under its predicate (None when it is no argument of it)."""
    role = role_under(root, pred)
    return None if role is None else Frame(pred.lemma_.lower(), modifiers(pred), role, pred.pos_ == "VERB")


def copular_subject(tok: Any) -> Any | None:
    """The subject a copula equates with `tok` ("its atomic number is 26" -> number), or None."""
    head = tok.head
    if tok.dep_ not in ("attr", "acomp") or head.i == tok.i or head.lemma_ != "be":
        return None
    return next((c for c in head.children if c.dep_ in ("nsubj", "nsubjpass")), None)


def fillers(head: Any) -> Iterator[tuple[str, Any]]:
    """(role, root token) of each argument of a predicate token, with inherited subjects of controlled verbs.

    A noun that is a copula's subject also has the copula's attribute as a modifier ("the number is 26").
    """
    if head.dep_ in ("nsubj", "nsubjpass") and head.head.lemma_ == "be":
        yield from ((MODIFIER, c) for c in head.head.children if c.dep_ in ("attr", "acomp"))
    has_subject = False
    for c in head.children:
        role = _role(c)
        if role is None:
            continue
        has_subject |= role == SUBJECT
        if c.dep_ in ("prep", "agent"):  # the preposition's object fills the role
            yield from ((role, g) for g in c.children if g.dep_ == "pobj")
            continue
        yield role, c
    if not has_subject and head.dep_ in _CONTROL and head.head.i != head.i:
        for c in head.head.children:
            if c.dep_ in ("nsubj", "csubj"):
                yield SUBJECT, c


def heads_like(doc: Any, f: Frame, related: Callable[[str], frozenset[str]]) -> list[Any]:
    """Tokens of `doc` that can be the frame's predicate: its lemma or a synonym, with compatible modifiers."""
    lemmas = {f.lemma} | related(f.lemma)
    out = []
    for t in doc:
        lemma = t.lemma_.lower()
        if lemma not in lemmas and (t.pos_ not in ("VERB", "NOUN") or f.lemma not in related(lemma)):
            continue  # WordNet's lists are not symmetric: "complete" lists "finish", "finish" not "complete"
        if f.verbal and t.pos_ == "NOUN":
            continue
        mods = modifiers(t)
        if f.modifiers and mods and not (f.modifiers & mods):
            continue  # "mass number" is not the claim's "atomic number"
        out.append(t)
    return out


__all__ = [
    "MODIFIER",
    "OBJECT",
    "SUBJECT",
    "Frame",
    "copular_subject",
    "fillers",
    "frame",
    "heads_like",
    "modifiers",
    "role_under",
]
