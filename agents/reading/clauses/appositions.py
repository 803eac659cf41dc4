"""Modifiers set off by commas that say a fact of their own about a name (pure, over a spaCy parse).

"Velox, designed at Norland, first appeared in 1990" says two facts, and so does "Tova Brenn was a
chemist, born in 1901": the participle is said of the name, as a sentence of its own ("Velox was designed
at Norland.", "Tova Brenn was born in 1901."). `agents.reading.clauses.discourse.plain` cuts the modifier
out and appends the sentence. Nothing here names a relation.
"""

from __future__ import annotations

from typing import Any

from agents.reading.clauses.splits import SUBJECTS, Split, names_something

MODIFIERS = frozenset({"appos", "acl", "advmod", "amod"})
"""A name's modifiers that, set off by commas, say a fact of their own ("Orvin, home to ...,")."""


def appositions(sent: Any, first: int, last: int) -> list[Split]:
    """A clause subject's modifier set off by commas, said of the subject as a sentence of its own.

    "Velox, designed at Norland, first appeared in 1990" says two facts: "Velox was designed at
    Norland." and "Velox first appeared in 1990.". The subject must be a name (a proper noun, an entity,
    a bare common noun or a capitalised word the tagger took for something else)
    that heads its clause's subject, the modifier a phrase of its (an apposition, a participle, an
    adjective or adverb phrase) between two commas before the clause's verb. A past participle
    takes "was" ("was designed"), any other modifier "is" ("Orvin is home to ...").
    """
    doc = sent.doc
    out: list[Split] = []
    for subject in sent:
        verb = subject.head
        # a name: a proper noun, an entity, or a common noun with no article ("uranium, element 92, ...")
        bare = subject.pos_ == "NOUN" and not any(c.dep_ in ("det", "poss") for c in subject.children)
        # a capitalised word is a name too, whatever the tagger calls it (a surname tagged as a verb)
        titled = subject.text[:1].isupper() and subject.pos_ != "PRON"
        if (
            subject.dep_ not in SUBJECTS
            or verb.i < subject.i
            or not (subject.pos_ == "PROPN" or subject.ent_type_ or bare or titled)
        ):
            continue
        for mod in subject.children:
            if mod.dep_ not in MODIFIERS or mod.i < subject.i or (mod.dep_ == "acl" and mod.tag_ != "VBN"):
                continue
            right = mod.right_edge.i
            closing = right if doc[right].text == "," and right > mod.i else right + 1  # the parse may hang it inside
            opening = mod.left_edge.i - 1
            if opening <= subject.i or closing >= verb.i or opening < max(first, sent.start) or closing >= last:
                continue
            if doc[opening].text != "," or doc[closing].text != ",":
                continue
            name = [i for i in range(subject.left_edge.i, opening) if not doc[i].is_punct]
            body = [i for i in range(mod.left_edge.i, closing) if i not in name]
            if not name or not names_something(doc[i] for i in body) or any(doc[i].text == "," for i in name):
                continue  # "Tova Brenn, the editor, ...": a description naming nothing is no fact to check
            word = "was" if mod.tag_ == "VBN" else "is"
            out.append(Split(frozenset(range(opening, closing + 1)), (*name, *body), ((body[0], word),)))
    return out


def _a_name(t: Any) -> bool:
    """A name: a proper noun, an entity, or a capitalised word the tagger took for something else (no pronoun)."""
    return bool(t.pos_ == "PROPN" or t.ent_type_ or (t.text[:1].isupper() and t.pos_ != "PRON"))


def predicate_participles(sent: Any, first: int, last: int) -> list[Split]:
    """A past participle set off by a comma after a copula's predicate noun, said of the copula's subject.

    "Tova Brenn was a chemist, born in 1901, who ..." says "Tova Brenn was born in 1901.": the predicate
    noun is what the subject is, so what the participle says of the noun it says of the subject. The
    subject must be a name heading the copula's subject, the participle the predicate noun's own modifier
    that follows it after a comma and ends at a comma or the sentence's end, and it must name something
    (a name or a number).
    """
    doc = sent.doc
    out: list[Split] = []
    for noun in sent:
        verb = noun.head
        if noun.dep_ != "attr" or verb.lemma_ != "be" or noun.i < verb.i:
            continue
        subject = next((c for c in verb.children if c.dep_ in (*SUBJECTS, "csubj") and c.i < verb.i), None)
        if subject is None or not _a_name(subject):
            continue
        for mod in noun.children:
            if mod.dep_ != "acl" or mod.tag_ != "VBN" or mod.i < noun.i:
                continue
            opening, right = mod.left_edge.i - 1, mod.right_edge.i
            closing = right + 1
            if opening <= noun.i or opening < max(first, sent.start) or closing > min(last, sent.end):
                continue
            ends = closing == min(last, sent.end) or doc[closing].text == "," or doc[closing].is_punct
            if doc[opening].text != "," or not ends:
                continue
            name = [i for i in range(subject.left_edge.i, subject.right_edge.i + 1) if not doc[i].is_punct]
            body = list(range(mod.i, closing))
            if not name or not names_something(doc[i] for i in body):
                continue
            out.append(Split(frozenset(range(opening, closing)), (*name, *body), ((body[0], "was"),)))
    return out


__all__ = ["MODIFIERS", "appositions", "predicate_participles"]
