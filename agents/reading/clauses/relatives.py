"""Non-restrictive relative clauses and the names they follow (`reading.clauses.discourse` makes each a sentence).

"Tova Brenn, who was born in 1901, founded the paper": the clause is set off by a comma, its pronoun
("who", "which", "whose") is its subject (or the owner of its subject), and it follows a name. A clause
whose pronoun is no subject ("..., which I visited, ...") states nothing of the name on its own.
"""

from __future__ import annotations

from typing import Any

RELATIVE = frozenset({"who", "which", "whose"})
"""Pronouns of a non-restrictive relative clause ("that" introduces restrictive ones, never cut out)."""
NAME_PARTICLES = frozenset(
    {
        "de",
        "do",
        "da",
        "dos",
        "das",
        "del",
        "della",
        "di",
        "du",
        "van",
        "von",
        "der",
        "den",
        "la",
        "le",
        "el",
        "al",
        "of",
        "the",
        "y",
        "bin",
        "ibn",
    }
)
"""Lowercase words inside proper names ("Catolé do Rocha", "Republic of the Congo")."""


def relative_clauses(sent: Any) -> list[tuple[Any, Any, Any]]:
    """Non-restrictive relative clauses: (the name they follow, the pronoun, the clause's tokens with its commas)."""
    out = []
    for t in sent:
        if t.dep_ != "relcl" or t.head.i >= t.i:
            continue
        pronoun = next((x for x in t.subtree if x.lower_ in RELATIVE), None)
        if pronoun is None or pronoun.i == 0 or sent.doc[pronoun.i - 1].text != ",":
            continue
        subject = pronoun if pronoun.lower_ != "whose" else pronoun.head  # "whose population is ..."
        if subject.dep_ not in ("nsubj", "nsubjpass") or subject.head.i != t.i:
            continue  # "..., which I visited": the pronoun is no subject, the clause no statement of its own
        head = _name_before(sent, pronoun.i - 1) or _name_of(t.head)
        if head is not None and head.end == pronoun.i - 1 and _in_participle(head):
            continue  # "X is a N, designed at Y, which ...": X or Y? The clause stays in its sentence, unread
        if head is None or head.end != pronoun.i - 1:
            head = _predicated(sent, t.head, pronoun)
        if head is None:
            continue
        start, end = pronoun.i - 1, t.right_edge.i + 1
        if end < sent.end and sent.doc[end].text == ",":
            end += 1
        out.append((head, pronoun, sent.doc[start:end]))
    return out


def _in_participle(name: Any) -> bool:
    """Whether a name stands inside a participle set off after a copula's predicate noun ("a N, designed at Y,")."""
    doc = name.doc
    return any(
        a.dep_ == "acl"
        and a.head.dep_ == "attr"
        and a.head.head.lemma_ == "be"
        and a.left_edge.i > 0
        and doc[a.left_edge.i - 1].text == ","  # set off by a comma, as `predicate_participles` cuts it
        for a in name.root.ancestors
    )


def _predicated(sent: Any, noun: Any, pronoun: Any) -> Any:
    """The name a copula's predicate noun is said of ("Tova Brenn was a chemist, ..., who ..."), or None.

    What the clause says of the predicate noun it says of the copula's subject, a capitalised name. Only
    the noun's own words may stand between it and the clause's comma.
    """
    verb = noun.head
    if noun.dep_ != "attr" or verb.lemma_ != "be":
        return None
    subject = next((c for c in verb.children if c.dep_ in ("nsubj", "nsubjpass", "csubj") and c.i < verb.i), None)
    inside = {x.i for x in noun.subtree}
    if subject is None or not subject.text[:1].isupper() or subject.pos_ == "PRON":
        return None
    if not all(i in inside for i in range(noun.i, pronoun.i)):
        return None
    return sent.doc[subject.left_edge.i : subject.right_edge.i + 1]


def _name_before(sent: Any, end: int) -> Any:
    """The capitalised name that ends at token `end` ("Catolé do Rocha": particles between capitals), or None."""
    start = end
    while start > sent.start:
        prev = sent.doc[start - 1]
        if (prev.text[:1].isupper() and prev.is_alpha) or prev.text in ("'", "-", "’"):
            start -= 1
        elif prev.lower_ in NAME_PARTICLES:
            back = start - 1
            while back > sent.start and sent.doc[back - 1].lower_ in NAME_PARTICLES:
                back -= 1
            if back == sent.start or not sent.doc[back - 1].text[:1].isupper():
                break
            start = back
        else:
            break
    if start == end or not sent.doc[start].text[:1].isupper():
        return None
    return sent.doc[start:end]


def _name_of(token: Any) -> Any:
    """The name or noun phrase a token heads: its entity, else its noun chunk."""
    for ent in token.doc.ents:
        if ent.start <= token.i < ent.end:
            return ent
    for chunk in token.doc.noun_chunks:
        if chunk.start <= token.i < chunk.end:
            return chunk
    return None


__all__ = ["NAME_PARTICLES", "RELATIVE", "relative_clauses"]
