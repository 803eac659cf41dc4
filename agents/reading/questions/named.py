"""The names a question or statement is about, before a relation is linked between them (KB-aware, pure otherwise).

- *names*: entity mentions that name individuals; a lowercase common noun is a description, unless
  a supplied triple names it so;
- *places said as adjectives*: a capitalised adjective reads as the place WordNet says it pertains
  to ("an Asian city": Asia; "South American": South America), and a people in the plural as a
  clause's subject too ("Kenyans speak ..."): `pertaining`;
- *descriptions*: one name and one lowercase noun ("Japan uses the yen", "Chile uses the peso"):
  the noun is the other name where the KB's stored facts type it at a relation's other end
  (`described`, `definite_nouns`);
- *types*: only the labels both names can fill (`typed_labels`, a `Typed` check).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

from agents.reading.candidates import LabelLinker, RelationLabel
from agents.reading.mentions import Mention
from drowzee_core.kb.model import ValueKind


def question_names(doc: Any, found: list[Mention], known: Callable[[str], bool]) -> list[Mention]:
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


class Typed(Protocol):
    """Whether two names can stand at a relation's subject and object ends (`drowzee_core.kb.naming.TypeCheck`)."""

    def __call__(self, relation: str, subject: str, obj: str, strict: bool = False) -> bool:
        """True when they can (`strict`: only when stored facts say so)."""
        ...

    def can(self, text: str, relation: str, end: Literal["s", "o"], strict: bool = False) -> bool:
        """Whether one name can stand at one end of a relation (True where the KB cannot tell, unless `strict`)."""
        ...


def subject_fits(typed: Typed, relation: str, subject: str, _obj: str) -> bool:
    """Whether a name can be the relation's subject (the KB's types), whatever the object."""
    return typed.can(subject, relation, "s")


def typed_labels(labels: Sequence[RelationLabel], a: str, b: str, typed: Typed) -> Sequence[RelationLabel]:
    """The labels two names can fill, either way round; all of them where none is."""
    kept = [x for x in labels if typed(x.relation, a, b) or typed(x.relation, b, a)]
    return kept or labels


def pertaining_word(t: Any) -> str | None:
    """The capitalised adjective a token says, or None.

    That is an adjective before a noun ("an Asian city"), or a people the clause is about, in the
    plural ("Kenyans speak ...": "Kenyan").
    """
    if not t.text[:1].isupper():
        return None
    if t.pos_ in ("ADJ", "PROPN") and t.dep_ == "amod":
        return str(t.text)
    if t.tag_ in ("NNS", "NNPS") and t.dep_ in ("nsubj", "nsubjpass") and t.text.endswith("s"):
        return str(t.text[:-1])
    return None


def pertaining(doc: Any, found: list[Mention], known: Callable[[str], bool], linker: LabelLinker) -> list[Mention]:
    """The mentions with each capitalised adjective read as the name it pertains to ("an Asian city": Asia).

    A people in the plural as a clause's subject reads so too ("Kenyans speak Swahili": Kenya).

    An adjective another mention does not cover is added; one that is a mention of its own (a KB name
    such as "Asian", a people) is replaced. An adjective whose pertainym the KB does not know stays as it was.
    """
    out = list(found)
    for t in doc:
        word = pertaining_word(t)
        if word is None:
            continue
        before = doc[t.i - 1] if t.i > 0 else None
        start = t.i
        if before is not None and before.head.i == t.i and before.text[:1].isupper() and before.is_alpha:
            start = t.i - 1  # "a South American country": WordNet's "South_American" pertains to South America
        covering = [m for m in out if m.start < t.i + 1 and start < m.end]
        if any(m.end - m.start > 1 for m in covering):
            continue  # part of a longer name ("South African Airways")
        words = [f"{before.text}_{word}", word] if before is not None and start < t.i else [word]
        for k, said in enumerate(words):
            place = next((p for p in linker.pertains(said) if known(p)), None)
            if place is not None:
                at = start if k == 0 else t.i
                out = [m for m in out if m not in covering] + [Mention(at, t.i + 1, place, ValueKind.ENTITY)]
                break
    return sorted(out, key=lambda m: m.start)


def definite_nouns(doc: Any, found: list[Mention], cue_lemmas: frozenset[str]) -> list[Mention]:
    """Lowercase nouns said with "the" as an object that no mention covers ("uses the peso"), cue words aside."""
    return [
        Mention(t.i, t.i + 1, t.text, ValueKind.ENTITY)
        for t in doc
        if t.pos_ == "NOUN"
        and t.text.isalpha()
        and t.text.islower()
        and t.dep_ in ("dobj", "pobj", "attr")
        and t.lemma_.lower() not in cue_lemmas
        and any(c.dep_ == "det" and c.lower_ == "the" for c in t.children)
        and not any(m.start <= t.i < m.end for m in found)
    ]


def described(
    found: list[Mention], names: list[Mention], labels: Sequence[RelationLabel], typed: Typed, definite: list[Mention]
) -> tuple[list[Mention], Sequence[RelationLabel]]:
    """One name and one lowercase noun ("Japan uses the yen", "Chile uses the peso"): the noun may be the other name.

    It is, where it fills one end of a relation that the name fills the other end of, by stored facts
    (a noun the KB does not know as a name counts where it is the last word of such a name: "peso" for
    "Chilean Peso", `drowzee_core.kb.naming.shortened`); only those relations are linked to then. Else
    nothing changes.
    """
    others = [m for m in found if m.kind == ValueKind.ENTITY and m not in names] or definite
    if len(others) != 1:
        return names, labels
    a, b = sorted([names[0], others[0]], key=lambda m: m.start)
    kept = [
        x
        for x in labels
        if typed(x.relation, a.text, b.text, strict=True) or typed(x.relation, b.text, a.text, strict=True)
    ]
    return ([a, b], kept) if kept else (names, labels)


__all__ = ["Typed", "definite_nouns", "described", "pertaining", "question_names", "subject_fits", "typed_labels"]
