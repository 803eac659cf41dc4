"""One statement per fact: joined clauses and a verb's several arguments made sentences (pure, over a spaCy parse).

A response often says two facts in one sentence, and the readers take one fact a sentence:

- *joined clauses*, each with its own subject: "Norland's official tongue is Orvish, and Orvin is its
  capital", "Orvin has 12,000 people, while Vell has 9,000". The second clause becomes a
  sentence of its own ("Orvin is its capital."), and the pronoun readers resolve "its" as they do across
  sentences;
- *a verb with several arguments* that name something (a name or a number): "Velium was discovered by
  Tova Brenn in Norland in 1901" says who, where and when. The sentence keeps its first argument, and each
  other one is said again with the subject and the verb: "Velium was discovered in Norland.",
  "Velium was discovered in 1901.". A time word's year ("until 2002", "since 1999") dates the verb,
  so it stays with every one of them.

`agents.reading.clauses.discourse.plain` cuts the moved words out of the sentence and appends the new sentences,
each character remembering where in the response it came from. Nothing here names a relation: the
readers decide what each plain statement says, or leave it unread.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SUBJECTS = frozenset({"nsubj", "nsubjpass", "expl"})
CONTRAST_MARKS = frozenset({"while", "whereas", "although", "though"})
"""Subordinators whose clause states a fact of its own ("..., while Vell has 9,000")."""
TIME_WORDS = frozenset({"until", "till", "since", "before", "after", "from", "by", "through"})
"""Prepositions whose year dates the verb rather than being one of its arguments (`agents.reading.candidates.scope`)."""
ARGUMENT_DEPS = frozenset({"agent", "prep", "dative"})
MAX_ARGUMENTS = 5
"""Most arguments of one verb said again (a longer run is left as it is)."""


@dataclass(frozen=True, slots=True)
class Split:
    """Tokens cut from a sentence, and the tokens of the sentence they become (in order)."""

    cut: frozenset[int]
    tokens: tuple[int, ...]
    inserts: tuple[tuple[int, str], ...] = ()
    """Words said before some of `tokens` that the sentence lacks ("is", "was"): (token, word) pairs."""


def names_something(tokens: Any) -> bool:
    """Whether the tokens hold a name or a number: a fact the KB could check."""
    return any(t.pos_ in ("PROPN", "NUM") or t.like_num for t in tokens)


def _states_something(tokens: Any) -> bool:
    """A clause with a name, a number or a noun of its own ("its currency is the yen"), not "it is"."""
    return any(t.pos_ in ("PROPN", "NUM", "NOUN") or t.like_num for t in tokens)


def _dates(prep: Any) -> bool:
    """A time word with a year ("until 2002", "since 1999"): it dates the verb."""
    obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
    return prep.lower_ in TIME_WORDS and obj is not None and (obj.like_num or obj.pos_ == "NUM")


def joined_clauses(sent: Any, first: int, last: int) -> list[Split]:
    """Clauses with a subject of their own joined to the sentence's main clause, at its end."""
    root, doc = sent.root, sent.doc
    out: list[Split] = []
    end = last
    joined = [
        c
        for c in root.children
        if c.i > root.i
        and c.pos_ in ("VERB", "AUX")
        and any(g.dep_ in SUBJECTS for g in c.children)
        and (
            c.dep_ == "conj"
            or (c.dep_ == "advcl" and any(g.dep_ == "mark" and g.lower_ in CONTRAST_MARKS for g in c.children))
        )
    ]
    for c in reversed(joined):
        if c.right_edge.i + 1 < end and not all(t.is_punct for t in doc[c.right_edge.i + 1 : end]):
            continue  # more words follow the clause: not a clause at the sentence's end
        left = c.left_edge.i
        body = [t.i for t in doc[left : c.right_edge.i + 1] if not (t.dep_ == "mark" and t.head.i == c.i)]
        start = left
        while start - 1 > root.i and (doc[start - 1].is_punct or doc[start - 1].dep_ == "cc"):
            start -= 1
        if start <= root.i or start < first or not body or not _states_something(doc[left : c.right_edge.i + 1]):
            continue
        out.append(Split(frozenset(range(start, c.right_edge.i + 1)), _with_unit(root, c, body)))
        end = start
    return out


def _counted_object(verb: Any) -> Any | None:
    """A verb's object noun that a number counts ("has 12,000 people"), or None."""
    return next(
        (c for c in verb.children if c.dep_ in ("dobj", "attr") and any(g.dep_ == "nummod" for g in c.children)),
        None,
    )


def _with_unit(root: Any, clause: Any, body: list[int]) -> tuple[int, ...]:
    """A joined clause's words, its bare number given the unit of the clause it parallels.

    "Orvin has 12,000 people, while Vell has 9,000" leaves "people" unsaid in the second clause; with the
    same verb and a bare number for its object, the first clause's counted noun and its modifiers
    ("square kilometres") follow the number: "Vell has 9,000 people.".
    """
    unit = _counted_object(root)
    number = next((c for c in clause.children if c.dep_ in ("dobj", "attr") and c.pos_ == "NUM"), None)
    if unit is None or number is None or clause.lemma_ != root.lemma_ or number.right_edge.i not in body:
        return tuple(body)
    words = [g.i for g in unit.lefts if g.dep_ in ("amod", "compound")] + [unit.i]
    at = body.index(number.right_edge.i) + 1
    return (*body[:at], *words, *body[at:])


def when_clauses(sent: Any, first: int, last: int) -> list[Split]:
    """A clause set off by a comma and opened by "when" or "where" ("since 1990, when it replaced the orv").

    It states a fact of its own, at that time or place; read inside the sentence, its names would
    fill the main clause's places. It becomes a sentence without its "when" ("It replaced the orv.").
    """
    doc = sent.doc
    out: list[Split] = []
    for t in sent:
        if t.dep_ not in ("relcl", "advcl") or not first <= t.left_edge.i or t.right_edge.i >= last:
            continue
        opener = doc[t.left_edge.i]
        if opener.lower_ not in ("when", "where") or opener.head.i != t.i or t.left_edge.i - 1 < sent.start:
            continue
        if not doc[t.left_edge.i - 1].is_punct or not any(g.dep_ in SUBJECTS for g in t.children):
            continue
        body = tuple(i for i in range(t.left_edge.i + 1, t.right_edge.i + 1) if not doc[i].is_punct)
        if body:
            out.append(Split(frozenset(range(t.left_edge.i - 1, t.right_edge.i + 1)), body))
    return out


def counted_lists(sent: Any, first: int, last: int) -> list[Split]:
    """A counted noun's list of names, said as a statement of its own ("has two currencies, A and B").

    "X has two official tongues: A and B" says a count and a list. The list, in apposition to a
    plural noun a number counts, becomes "Official tongues of X are A and B."; the count stays
    ("X has two official tongues.") for the readers of counts (`agents.reading.candidates.measures`). The
    subject must be a name, and every member of the list a capitalised word (a name).
    """
    doc = sent.doc
    out: list[Split] = []
    for noun in sent:
        verb = noun.head
        if (
            noun.tag_ != "NNS"
            or noun.dep_ not in ("dobj", "attr")
            or not any(c.dep_ == "nummod" for c in noun.children)
        ):
            continue
        subject = next((c for c in verb.children if c.dep_ in SUBJECTS and c.i < verb.i), None)
        listed = next((c for c in noun.children if c.dep_ == "appos" and c.i > noun.i), None)
        if subject is None or listed is None or not (subject.pos_ == "PROPN" or subject.ent_type_):
            continue
        members = [t for t in listed.subtree if t.dep_ in ("appos", "conj")]
        if not all(t.text[:1].isupper() for t in members) or listed.right_edge.i >= last or listed.left_edge.i < first:
            continue
        opening = listed.left_edge.i - 1
        if not doc[opening].is_punct or opening <= noun.i:
            continue
        words = [c.i for c in noun.lefts if c.dep_ in ("amod", "compound")] + [noun.i]
        name = [t.i for t in subject.subtree]
        values = list(range(listed.left_edge.i, listed.right_edge.i + 1))
        inserts = ((name[0], "of"), (values[0], "are"))
        out.append(Split(frozenset(range(opening, listed.right_edge.i + 1)), (*words, *name, *values), inserts))
    return out


def conjoined_objects(sent: Any, first: int, last: int) -> list[Split]:
    """A verb's second object joined by "and", said again with the subject and the verb, when it says a fact.

    "Orvin has district number 4 and the postal code V12" says two facts, each a noun of its own with
    its value: "Orvin has the postal code V12." A list of names ("borders A and B") is no such pair:
    the first object must be a common noun with a value of its own ("number 4"), and the second must say
    a common noun too ("symbol"). The subject must be a name before the verb.
    """
    doc = sent.doc
    out: list[Split] = []
    for verb in clause_heads(sent):
        subject = next((c for c in verb.children if c.dep_ in SUBJECTS and c.i < verb.i), None)
        obj = next((c for c in verb.children if c.dep_ == "dobj"), None)
        if subject is None or obj is None or obj.pos_ != "NOUN" or not names_something(obj.children):
            continue
        for other in (c for c in obj.children if c.dep_ == "conj" and c.i > obj.i):
            words = [t.i for t in other.subtree]
            if not any(doc[i].pos_ == "NOUN" for i in words) or not names_something(doc[i] for i in words):
                continue
            if words[-1] >= last or words[0] < first:
                continue
            cut = set(words)
            at = words[0] - 1
            while at > obj.i and (doc[at].is_punct or doc[at].dep_ == "cc"):
                cut.add(at)
                at -= 1
            head = [t.i for t in subject.subtree] + list(range(subject.right_edge.i + 1, verb.i + 1))
            out.append(Split(frozenset(cut), (*head, *words)))
    return out


def _arguments(verb: Any) -> list[Any]:
    """A verb's prepositional arguments that name something, nested ones ("by A in C") flattened, in order."""
    found: list[Any] = []

    def visit(prep: Any) -> None:
        obj = next((c for c in prep.children if c.dep_ == "pobj"), None)
        if obj is None:
            return
        found.append(prep)
        for c in obj.children:  # "by A in C", and "in A and in B" (the parse hangs the second "in" on A)
            if (c.dep_ == "prep" or (c.dep_ == "conj" and c.pos_ == "ADP")) and c.i > obj.i:
                visit(c)
        for c in prep.children:  # "in A and in B", the second "in" hung on the first
            if c.dep_ == "conj" and c.pos_ == "ADP" and c.i > obj.i:
                visit(c)

    for c in verb.children:
        if (c.dep_ in ARGUMENT_DEPS or (c.dep_ == "conj" and c.pos_ == "ADP")) and c.i > verb.i:
            visit(c)  # "associated with A, and also with B": the second "with" is the verb's conjunct
        elif c.dep_ == "dobj":  # "isolated fluorine in France": the object's own arguments are the verb's
            for g in c.children:
                if g.dep_ == "prep" and g.i > c.i:
                    visit(g)
    return sorted(found, key=lambda p: p.i)


def _own_span(prep: Any, nested: list[Any]) -> list[int]:
    """The words of a prepositional argument without the arguments nested in it."""
    inner = {t.i for n in nested if n.i > prep.i and n.i <= prep.right_edge.i for t in n.subtree}
    return [t.i for t in prep.subtree if t.i not in inner]


CLAUSES = frozenset({"ROOT", "ccomp", "parataxis"})
"""Verbs that head a clause of the sentence's own: its root, and a clause the parse hangs under another
("X was created by A at B; it was ..." parses the first clause as the second's `ccomp`)."""


def clause_heads(sent: Any) -> list[Any]:
    """The verbs heading the sentence's own clauses (`CLAUSES`).

    A clause hung under another counts only when that one has a subject of its own: a parse that hangs a
    whole sentence under a subjectless verb ("X created Y in 2005, ..., first appeared in 1991") is no
    pair of clauses to trust.
    """
    return [
        t
        for t in sent
        if t.dep_ == "ROOT"
        or (t.dep_ in CLAUSES and any(c.dep_ in SUBJECTS for c in t.head.children) and t.head.i > t.i)
    ]


def verb_arguments(sent: Any, taken: set[int]) -> list[Split]:
    """Each clause verb's second and later arguments, each said again with the subject and the verb.

    Only a full verb (not "be"), with a subject, and at least two arguments, one of them naming something
    (a proper name or a number), none of them in `taken` (words another rewrite moves).
    """
    out: list[Split] = []
    for verb in clause_heads(sent):
        if verb.i not in taken:
            out += _verb_arguments(sent, verb, taken | {i for x in out for i in x.cut})
    return out


def _verb_arguments(sent: Any, verb: Any, taken: set[int]) -> list[Split]:
    """One clause verb's second and later arguments (`verb_arguments`)."""
    if verb.pos_ not in ("VERB", "AUX"):
        return []
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass")), None)
    if subject is None or subject.i > verb.i:
        return []
    args = [p for p in _arguments(verb) if not _dates(p)]
    if verb.lemma_ == "be" and not all(p.dep_ == "conj" for p in args[1:]):
        return []  # "X is in A and in B" says two places; "X is in A in B" may say one place in another
    spans = [_own_span(p, args) for p in args]
    named = list(zip(args, spans, strict=True))
    if not any(names_something(sent.doc[i] for i in s) for _, s in named):
        return []
    if len(named) < 2 or len(named) > MAX_ARGUMENTS or any(i in taken for _, s in named for i in s):
        return []
    doc = sent.doc
    head = [t.i for t in subject.subtree if t.i not in taken]
    head += [c.i for c in verb.children if c.dep_ in ("aux", "auxpass", "neg") and subject.i < c.i < verb.i]
    head.append(verb.i)
    every = _arguments(verb)
    inside = {t.i for p in every for t in p.subtree}
    head += [t.i for c in verb.children if c.dep_ in ("dobj", "prt") for t in c.subtree if t.i not in inside]
    dating = [t.i for p in every if _dates(p) for t in p.subtree]
    out = []
    for _, span in named[1:]:
        cut = set(span)
        at = span[0] - 1
        while at > verb.i and (doc[at].is_punct or doc[at].dep_ == "cc"):
            cut.add(at)  # "..., in 1886", ", and also with B": the comma and the "and" go with it
            at -= 1
        out.append(Split(frozenset(cut), tuple(sorted(set(head) | set(span) | set(dating)))))
    return out


__all__ = [
    "SUBJECTS",
    "Split",
    "clause_heads",
    "conjoined_objects",
    "counted_lists",
    "joined_clauses",
    "names_something",
    "verb_arguments",
    "when_clauses",
]
