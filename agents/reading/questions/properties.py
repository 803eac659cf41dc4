"""A property a word says of one name ("X is male", "X is a woman", "X is a female sailor"), as a supplied value.

A copula's complement and its modifiers are property words. Such a word says a value a supplied
label gives when it is that value, a synonym, or a hyponym of it (`LabelLinker.means`: "woman" says
"female"); it denies the value when it is an antonym or a hyponym of one ("male", "man" deny
"female", as nobody is both). A value only one label takes says which relation; a word that says one
value denies the others ("female" of "male"); two labels, or two values said, leave the sentence
unread. The noun a modifier qualifies ("a female sailor") is said too: the reading is partial (it
can refute the sentence, never prove all of it) unless a supplied value holds that noun.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.reading.candidates import LabelLinker, Reading, RelationLabel
from agents.reading.mentions import Mention

COPULA_SLOTS = frozenset({"acomp", "attr"})
MODIFIERS = frozenset({"amod", "compound"})


def property_words(doc: Any, subject: Mention) -> list[Any]:
    """The copula's complements and their modifiers outside the subject ("male"; "female", "sailor")."""

    def complement(t: Any) -> bool:  # "Is X a lady?" may parse "a lady" as the name's apposition
        copular = t.dep_ in COPULA_SLOTS and t.head.lemma_ == "be"
        appositive = t.dep_ == "appos" and subject.start <= t.head.i < subject.end and t.head.head.lemma_ == "be"
        return bool(copular or appositive)

    out = []
    for t in doc:
        if subject.start <= t.i < subject.end or not (t.is_alpha and t.pos_ in ("ADJ", "NOUN", "PROPN")):
            continue
        if complement(t) or (t.dep_ in MODIFIERS and complement(t.head)):
            out.append(t)
    return out


def said_property(
    doc: Any, subject: Mention, labels: Sequence[RelationLabel], linker: LabelLinker, neg: bool
) -> list[Reading]:
    """The one supplied value the subject's property words say or deny (module docstring), else []."""
    words = property_words(doc, subject)
    hits: set[tuple[str, str, bool]] = set()
    saying: set[int] = set()
    for t in words:
        for label in labels:
            for value in label.objects:
                said = linker.means(t.lemma_.lower(), value) if " " not in value else None
                if said is None and t.lower_ == value:
                    said = True
                if said is not None:
                    hits.add((label.relation, value, said))
                    saying.add(t.i)
    says = [h for h in hits if h[2]] or list(hits)  # "female" says "female" and denies "male": it says "female"
    if len(says) != 1 or any(r != says[0][0] for r, _, _ in hits):
        return []
    [(relation, value, said)] = says
    spelled = {v.lower(): v for x in labels if x.relation == relation for v in x.spelled}
    value = spelled.get(value, value)  # as the triples write it
    objects = {w for x in labels for v in x.objects for w in v.split()}
    rest = [t for t in words if t.i not in saying and t.lower_ not in objects and t.lemma_.lower() not in objects]
    return [Reading(subject.text, relation, value, neg == said, False, 0, partial=bool(rest))]


__all__ = ["property_words", "said_property"]
