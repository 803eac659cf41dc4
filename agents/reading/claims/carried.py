"""A verb a response uses for a relation keeps that meaning in the response's other statements.

"Velox was unearthed by Ansel Krane. It was unearthed in 1736." The first statement is read as
`discovered_by` (by its question, or by the types of its two names), although the catalog never words
that relation with "unearth". The second has the same verb and one of the same names, and no reader
reads it. Said with the relation's own declared verb ("It was discovered in 1736"), the catalog's
templates read it (`discovery_year`). So where a statement read as a relation has a main verb the
relation's templates do not use, an unread statement of the same response with that verb and a name
of the read one is read again with the verb replaced by the declared one, in the same form (a past
participle for a past participle). Nothing is read that the templates would not read of the
replaced sentence; a verb the relation's templates use already carries nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.template_regex import fill
from drowzee_core.kb.wording import with_past

VERB_TAGS = frozenset({"VBD", "VBN", "VBZ", "VBP", "VBG", "VB"})


@dataclass(frozen=True, slots=True)
class Usage:
    """A verb lemma of a read statement, the forms of the relation's declared verb, and the names it related."""

    lemma: str
    forms: dict[str, str]
    """The declared verb's text per Penn tag ("VBN" -> "discovered")."""
    names: frozenset[str]


def main_verb(doc: Any) -> Any | None:
    """The sentence's root when it is a verb other than a copula or "have" (the words that carry no relation)."""
    root = next((t for t in doc if t.dep_ == "ROOT"), None)
    if root is None or root.pos_ != "VERB" or root.tag_ not in VERB_TAGS or root.lemma_.lower() in ("be", "have"):
        return None
    return root


def declared_forms(catalog: Catalog, relation: str, parse: Callable[[str], Any]) -> dict[str, str]:
    """The main verb of a relation's declared templates (and its inverse's) per tag, and its lemma under "".

    Only a relation whose templates agree on one verb lemma gives forms: "was discovered by" and
    "discovered" give {"VBN": "discovered", "VBD": "discovered", "": "discover"}.
    """
    if relation not in catalog:
        return {}
    specs = [catalog.get(relation)]
    inverse = specs[0].inverse_of
    if inverse and inverse in catalog:
        specs.append(catalog.get(inverse))
    forms: dict[str, str] = {}
    lemmas = set()
    for template in with_past([s.positive for s in specs]):
        root = main_verb(parse(fill(template, "Alice", "Bob")))
        if root is None:
            continue
        lemmas.add(root.lemma_.lower())
        forms.setdefault(root.tag_, root.text.lower())
    if len(lemmas) != 1:
        return {}
    return forms | {"": lemmas.pop()}


def usage(doc: Any, forms: dict[str, str], names: Iterable[str]) -> Usage | None:
    """How a read statement uses a verb for its relation, when its verb is not the declared one."""
    verb = main_verb(doc)
    if verb is None or not forms or verb.lemma_.lower() == forms[""]:
        return None
    return Usage(verb.lemma_.lower(), {k: v for k, v in forms.items() if k}, frozenset(n.casefold() for n in names))


def carried(doc: Any, usages: Iterable[Usage], topic: str | None = None) -> str | None:
    """The unread statement said with the declared verb of a usage of its own verb, or None.

    The statement must name one of the names the usage's statement related (in any case), or stand
    for one with a pronoun subject when that name is `topic`, the name said before.
    """
    verb = main_verb(doc)
    if verb is None:
        return None
    said = str(doc.text).casefold()
    pronoun = any(t.dep_ in ("nsubj", "nsubjpass") and t.pos_ == "PRON" for t in verb.children)
    for u in usages:
        if u.lemma != verb.lemma_.lower() or verb.tag_ not in u.forms:
            continue
        named = any(n and n in said for n in u.names)
        if not named and not (pronoun and topic is not None and topic.casefold() in u.names):
            continue
        form = u.forms[verb.tag_]
        if verb.text[:1].isupper():
            form = form[:1].upper() + form[1:]
        text = str(doc.text)
        return text[: verb.idx] + form + text[verb.idx + len(verb.text) :]
    return None


__all__ = ["Usage", "carried", "declared_forms", "main_verb", "usage"]
