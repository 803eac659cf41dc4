"""A value another name is said to share, said of that name too (pure, over a spaCy parse).

"Velox was born in 1871, the same year as Tova Brenn" and "Velox belongs to Orvin, as does Vell" each say two
facts, the second of a name the sentence only compares with the first. `shared_values` gives the second as a
`Split` (`reading.clauses.splits`) that `reading.clauses.discourse.plain` appends as a sentence of its own.
"""

from __future__ import annotations

from typing import Any

from agents.reading.clauses.splits import SUBJECTS, Split

TIME_NOUNS = frozenset({"year", "decade", "century", "month", "day", "date", "time"})
"""Nouns of "the same N as X" that share a time: what is shared is a number (a year), not a name."""
ECHO_VERBS = frozenset({"do", "be", "have"})
"""The verbs of "..., as does X" / "as was X" / "as has X": X does what the clause says."""


def _name(t: Any) -> bool:
    return bool(t.pos_ == "PROPN" or t.ent_type_)


def _clause_of(t: Any) -> Any | None:
    """The verb heading the clause a token stands in (walking up through its phrases)."""
    while t.dep_ != "ROOT" and t.pos_ not in ("VERB", "AUX"):
        t = t.head
    return t if t.pos_ in ("VERB", "AUX") else None


def _argument_of(verb: Any, value: Any) -> list[int]:
    """The words of the verb's argument that holds `value` (its preposition with it, or the object itself)."""
    top = value
    while top.head.i != verb.i and top.head.i != top.i:
        top = top.head
    return [t.i for t in top.subtree]


def shared_values(sent: Any, first: int, last: int) -> list[Split]:
    """A value the clause says another name shares, said of that name too.

    "Velox was born in 1871, the same year as Tova Brenn" says two facts, one of Tova Brenn: "Tova Brenn
    was born in 1871."; so does "Velox lies in Orvin, the same province as Vell" ("Vell lies in Orvin.")
    and "Velox belongs to Orvin, as does Vell" ("Vell belongs to Orvin."). The shared phrase, set off by a
    comma, is cut from the sentence. "The same N as X" shares the argument it follows (a year, for a time
    noun: "year", "decade"), "as does X" the clause's whole predicate. X must be a name, and the clause
    must have a subject before its verb. Nothing here names a relation.
    """
    doc = sent.doc
    out: list[Split] = []
    for t in sent:
        if t.lower_ != "same" or t.dep_ != "amod":
            continue
        noun = t.head
        other = next((g for c in noun.children if c.dep_ == "prep" and c.lower_ == "as" for g in c.children), None)
        comma = noun.left_edge.i - 1
        if other is None or other.dep_ != "pobj" or not _name(other) or comma < max(first, sent.start):
            continue
        if doc[comma].text != "," or noun.right_edge.i >= last:
            continue
        verb = _clause_of(doc[comma - 1])
        subject = next((c for c in verb.children if c.dep_ in SUBJECTS and c.i < verb.i), None) if verb else None
        if verb is None or subject is None or subject.i >= comma:
            continue
        # a value's apposition, or ("born in 1871, the same year as X") a phrase the parse hangs on the verb
        value = noun.head if noun.dep_ == "appos" else doc[comma - 1]
        if value.i >= comma or (noun.lemma_ in TIME_NOUNS) != bool(value.like_num or value.pos_ == "NUM"):
            continue
        said = [i for i in _argument_of(verb, value) if i < comma]
        head = list(range(subject.right_edge.i + 1, verb.i + 1))  # its auxiliaries and the verb
        head += [  # and its object, when the shared value is another argument ("joined Norland in 1990")
            g.i for c in verb.children if c.dep_ in ("dobj", "prt") and c.i < comma for g in c.subtree if g.i < comma
        ]
        if not said or not head:
            continue
        words = (*[g.i for g in other.subtree], *sorted(set(head) | set(said)))
        out.append(Split(frozenset(range(comma, noun.right_edge.i + 1)), words))
    for echo in sent:
        if echo.dep_ != "advcl" or echo.lemma_ not in ECHO_VERBS or not any(c.lower_ == "as" for c in echo.lefts):
            continue
        other = next((c for c in echo.children if c.dep_ in SUBJECTS), None)
        verb = echo.head
        subject = next((c for c in verb.children if c.dep_ in SUBJECTS and c.i < verb.i), None)
        comma = echo.left_edge.i - 1
        if other is None or not _name(other) or subject is None or comma <= verb.i or comma < max(first, sent.start):
            continue
        if doc[comma].text != "," or echo.right_edge.i >= last:
            continue
        if any(c.dep_ not in ("mark", "punct") and c.i != other.i for c in echo.children):
            continue  # "as did X in 1990": X does more than the clause says
        head = list(range(subject.right_edge.i + 1, comma))  # the clause's whole predicate
        out.append(Split(frozenset(range(comma, echo.right_edge.i + 1)), (*[g.i for g in other.subtree], *head)))
    return out


__all__ = ["shared_values"]
