"""Which of two names is a linked relation's subject, from the grammar (pure, over a spaCy parse).

A label said with "by", or the agent noun of the sentence's verb ("director" for "directed"), takes its
active sentence's object as subject ("X trained Y" -> (Y, trained by, X); "X directed Y" -> (Y, director,
X)), and the owner of its agent noun as subject ("the trainer of Y is X", "Y's trainer is X"); any
other verb label takes a passive sentence's agent as subject ("X was followed by Y" -> (Y, follows,
X)); a relational noun's "of" / "for" / possessive name, or the subject of "has a N named Y"
or "has the N Y", is a noun label's subject ("X is the coach of Y" -> (Y, coach, X); "X has the symbol
Y" -> (X, symbol, Y)); an adjective that modifies the predicate noun is its value ("the African
continent"), or its owner where only that fits the relation's types ("the Peruvian capital"); a
locative preposition or a verb label keeps sentence order; a converse link swaps them. Anything else
is ambiguous ("X trained Y" for the noun label "coach": whose coach?) and gives no direction.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from agents.reading.candidates import LabelLink, reads_verbally
from agents.reading.mentions import Mention


def _name_in(tok: Any, names: list[Mention]) -> Mention | None:
    """The one name that ends inside a token's subtree, or None."""
    inside = {x.i for x in tok.subtree}
    hit = [m for m in names if m.end - 1 in inside]
    return hit[0] if len(hit) == 1 else None


def _of_value(words: list[Any], names: list[Mention], link: LabelLink) -> Mention | None:
    """The name after "of" where the label itself reads the noun with "of" ("part of the series": X is part of Y).

    Such a noun says the relation with its value after "of", as the label does; it names no owner.
    """
    said = [*link.text.lower().split(), ""]
    # "member of", "part of the series": "of" ends the label or opens its value's description; "original
    # language of film or TV show" names the subject's kind after "of", and its owner is the subject
    nouns = {
        w for w, nxt, after in zip(said, said[1:], said[2:], strict=False) if nxt == "of" and after in VALUE_OPENERS
    }
    # "country of citizenship": a noun of what follows "of" ("a citizen of Y") has Y, the head's kind, as value
    after_of = said[said.index("of") + 1 : -1] if "of" in said[:-1] else []

    def specifies(lemma: str) -> bool:
        return len(lemma) >= MIN_STEM and any(w.startswith(lemma) and w != lemma for w in after_of)

    for t in words:
        if t.pos_ != "NOUN" or (t.lemma_.lower() not in nouns and not specifies(t.lemma_.lower())):
            continue
        for p in t.children:
            if p.dep_ == "prep" and p.lower_ == "of" and (m := _name_in(p, names) or _next_name(p, names)) is not None:
                return m
    return None


def _owner(words: list[Any], names: list[Mention]) -> Mention | bool | None:
    """The name whose relation a relational noun of the predicate says, or False when that is ambiguous.

    "the coach of Y", "the site for Y", "Y's coach": Y; "Y has a coach named X": Y (the subject of
    "have"), and so is X in "X has Y as its N". "X has a / the N of Y" gives X's N the value Y, as "X has a
    population of 5 million" does: X. None: no relational noun.
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
        held = t.head if t.dep_ in ("compound", "appos") else t  # "X has the symbol Y": the noun names Y
        holder = None
        verb = held.head.head if held.dep_ == "pobj" and held.head.lower_ == "as" else held.head
        if (held.dep_ == "dobj" or verb is not held.head) and verb.lemma_ == "have":  # "X has Y as a parent"
            holder = next((name_in(c) for c in verb.children if c.dep_ == "nsubj"), None)
        if of is not None and holder is not None:
            return holder  # "X has the parent of Y": the value reading of "have a / the N of"
        if (found := of or poss or holder) is not None:
            return found
    return None


OWNER_PREPS = ("of", "for")
VALUE_OPENERS = frozenset({"", "the", "a", "an"})
MIN_STEM = 4
"""Shortest noun taken as the stem of a label word after "of" ("citizen" of "citizenship")."""
"""What follows "of" in a label whose "of" opens its value ("member of", "part of the series")."""
DESCRIPTORS = frozenset({"DET", "ADJ", "NOUN"})


def _next_name(prep: Any, names: list[Mention]) -> Mention | None:
    """The name right after a preposition and a description of it ("for the old town Kobe": Kobe)."""
    doc = prep.doc
    later = [m for m in names if m.start > prep.i]
    if not later:
        return None
    first = min(later, key=lambda m: m.start)
    return first if all(doc[i].pos_ in DESCRIPTORS for i in range(prep.i + 1, first.start)) else None


def _agent(doc: Any, names: list[Mention]) -> Mention | None:
    for t in doc:
        if t.dep_ == "agent":
            inside = {x.i for x in t.subtree}
            hit = [m for m in names if m.end - 1 in inside]
            if len(hit) == 1:
                return hit[0]
    return None


def verbal(link: LabelLink) -> bool:
    """Whether a label reads as a verb (`agents.reading.candidates.labels.reads_verbally`)."""
    return reads_verbally(link)


def direction(
    doc: Any,
    words: list[Any],
    a: Mention,
    b: Mention,
    link: LabelLink,
    fits: Callable[[str, str], bool] | None = None,
) -> tuple[Mention, Mention] | None:
    """(subject, object) of the label for two names in sentence order (module docstring); None if ambiguous.

    `fits(subject, object)` says whether two names can fill the label's ends (a KB type check); it
    decides only what grammar leaves open: whether an adjective is the predicate noun's value or its
    owner, and whether "the N of X" names X's N or calls X an N ("the continent of South America").
    """
    names = [a, b]
    label = link.text.lower()
    if label.endswith(" by") or link.agentive:
        agent = _agent(doc, names)
        owner = _owner(words, names) if agent is None else None
        if isinstance(owner, Mention):  # "the builder of X is Y", "X's builder is Y": X was built by Y
            s, o = owner, (b if owner is a else a)
        elif agent is None and any(t.dep_ == "auxpass" for t in doc):
            return None  # "X was created at Y": a passive without its "by" names no doer
        else:
            s, o = ((b, a) if agent is a else (a, b)) if agent is not None else (b, a)
    elif verbal(link) and (agent := _agent(doc, names)) is not None:
        s, o = agent, (b if agent is a else a)  # "X was followed by Y" for the label "follows": Y follows X
    elif not verbal(link) and (value := _named_value(words, names, link)) is not None:
        s, o = (b if value is a else a), value  # "a member of the Fauvism movement": the movement is Fauvism
    elif not verbal(link) and (value := _of_value(words, names, link)) is not None:
        s, o = (b if value is a else a), value  # "X is part of the Y series" for the label "part of the series"
    elif not verbal(link) and (owner := _owner(words, names)) is not None:
        if owner is False or owner is True:
            return None
        s, o = owner, (b if owner is a else a)
        if fits is not None and not fits(s.text, o.text) and fits(o.text, s.text):
            s, o = o, s  # "on the continent of South America": the continent named so, not its owner
    elif not verbal(link) and (valued := _valued(doc, words, names)) is not None:
        other = b if valued is a else a
        s, o = other, valued  # "Peru is on the African continent": Africa is the value
        if fits is not None and not fits(other.text, valued.text) and fits(valued.text, other.text):
            s, o = valued, other  # "the Peruvian capital is Lima": Peru owns it (no capital is a country)
    elif not verbal(link) and _reciprocal(doc, words, a, b):
        s, o = a, b  # "Are X and Y siblings?": each is the other's
    elif not verbal(link) and not _locative(doc, b):
        return None  # "X trained Y" for the noun label "coach": is X the coach of Y or Y's? Not said.
    else:
        s, o = a, b
    return (o, s) if link.converse else (s, o)


def by_roles(
    where: tuple[Mention, Mention], link: LabelLink, said_of: Callable[[str], frozenset[str]] | None
) -> tuple[Mention, Mention]:
    """The names swapped where only an embedding linked the label and the triples say it of the object only.

    An embedding's nearness says two relations are akin, not which way round ("X's notable work
    includes Y" near the label "author"): the name the supplied triples give that label is its subject.
    """
    s, o = where
    if link.how != "embedding" or said_of is None or link.label in said_of(s.text):
        return where
    return (o, s) if link.label in said_of(o.text) else where


def _named_value(words: list[Any], names: list[Mention], link: LabelLink) -> Mention | None:
    """The one name that modifies the label's own noun as a compound: the noun's value ("the Fauvism movement")."""
    said = set(link.text.lower().split())
    nouns = {t.i for t in words if t.pos_ == "NOUN" and t.lemma_.lower() in said}
    doc = words[0].doc if words else None
    hit = [m for m in names if doc is not None and doc[m.end - 1].dep_ == "compound" and doc[m.end - 1].head.i in nouns]
    return hit[0] if len(hit) == 1 else None


LOCATIVE = frozenset({"in", "at", "on", "during", "near", "inside", "within", "into", "from"})


def _valued(doc: Any, words: list[Any], names: list[Mention]) -> Mention | None:
    """The one name that modifies a predicate noun as its value ("the African continent"), or None."""
    said = {t.i for t in words if t.pos_ == "NOUN"}
    hit = [m for m in names if doc[m.end - 1].dep_ == "amod" and doc[m.end - 1].head.i in said]  # "South American"
    return hit[0] if len(hit) == 1 else None


def _reciprocal(doc: Any, words: list[Any], a: Mention, b: Mention) -> bool:
    """Whether two names joined by "and" are said to be plural nouns of each other ("X and Y are siblings")."""
    joined = [t.lower_ for t in doc[a.end : b.start]] == ["and"]
    return joined and any(t.tag_ == "NNS" and t.dep_ in ("attr", "acomp", "ROOT") for t in words)


def _locative(doc: Any, m: Mention) -> bool:
    """Whether a name hangs on a place or time preposition ("occurred in Y"): its clause's subject owns the relation."""
    span = doc[m.start : m.end]
    root = next((t for t in span if not m.start <= t.head.i < m.end), span.root)  # "Y's Republic of X": "Republic"
    head = root.head
    return root.dep_ == "pobj" and head.lower_ in LOCATIVE


__all__ = ["LOCATIVE", "direction", "verbal"]
