"""Two predicates of one subject ("X was born in 1564 and died in 1642"): the second said of the subject again.

`agents.reading.clauses.discourse` makes the second predicate its own sentence with the subject before it
("X died in 1642."), so each reads as one claim. The subject must be a name (a proper noun or an
entity), and the second predicate a verb joined by "and" with no subject of its own. A participle
("... and raised in Pisa") takes the first verb's auxiliaries ("X was raised in Pisa"); a verb in the
past or present tense stands alone ("X died in 1642").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from agents.reading.clauses.splits import clause_heads

SUBJECTS = frozenset({"nsubj", "nsubjpass"})


@dataclass(frozen=True, slots=True)
class Conjoined:
    """A second predicate of a sentence's subject: the tokens to cut and the sentence they make."""

    subject: Any
    """The subject's span."""
    auxiliaries: tuple[Any, ...]
    """The first verb's auxiliaries the second one needs (a participle), else ()."""
    predicate: Any
    """The second predicate's span (from its first word to its last)."""
    cut: range
    """Token indexes to cut from the sentence: the joining comma and "and", and the predicate."""


def conjoined(sent: Any) -> list[Conjoined]:
    """The sentence's second predicates of its clauses' subjects (module docstring), in order."""
    out = []
    for head in clause_heads(sent):
        if head.pos_ in ("VERB", "AUX"):
            out += _second_predicates(sent, head)
    return sorted(out, key=lambda c: c.cut.start)


def _second_predicates(sent: Any, root: Any) -> list[Conjoined]:
    """The second predicates of one clause's subject."""
    subject = next((c for c in root.children if c.dep_ in SUBJECTS), None)
    if subject is None or not _named(subject):
        return []
    out = []
    for verb in (c for c in root.children if c.dep_ == "conj" and c.pos_ == "VERB" and c.i > root.i):
        if any(c.dep_ in SUBJECTS for c in verb.children):
            continue  # "..., and Y died in ...": a clause with a subject of its own
        cc = [c for c in root.children if c.dep_ == "cc" and c.i < verb.left_edge.i]
        if not cc or cc[-1].lower_ != "and":
            continue
        start = cc[-1].i
        if start > sent.start and sent.doc[start - 1].text == ",":
            start -= 1
        end = verb.right_edge.i + 1
        if end < sent.end and sent.doc[end - 1].is_punct:
            end -= 1
        if end <= verb.i:
            continue
        helpers = tuple(c for c in root.children if c.dep_ in ("aux", "auxpass") and c.i < root.i)
        auxiliaries = helpers if verb.tag_ == "VBN" and not _has_aux(verb) else ()
        predicate = sent.doc[verb.left_edge.i : end]
        out.append(Conjoined(_span(subject), auxiliaries, predicate, range(start, end)))
    return out


def _has_aux(verb: Any) -> bool:
    return any(c.dep_ in ("aux", "auxpass") for c in verb.children)


def _named(subject: Any) -> bool:
    """Whether the subject is a name: a proper noun, or part of a named entity."""
    return bool(subject.pos_ == "PROPN" or subject.ent_type_ != "")


def _span(subject: Any) -> Any:
    """The subject's words: its entity where it is in one, else its subtree."""
    for ent in subject.doc.ents:
        if ent.start <= subject.i < ent.end:
            return ent
    return subject.doc[subject.left_edge.i : subject.right_edge.i + 1]


__all__ = ["Conjoined", "conjoined"]
