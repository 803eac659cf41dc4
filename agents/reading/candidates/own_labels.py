"""A catalog claim said in the words of the pair's supplied triples: "the father of Y is X" by "X child Y".

The catalog's templates read a sentence into one of the catalog's relations ("father"). When a pair
supplies triples and none of them uses that relation, the triples cannot decide the claim, though they
may state its facts under a label of their own ("child", the converse of "father"'s broader term
"parent"). The relation's catalog label is then linked to the supplied labels with the same linker
the reader uses for predicates (`agents.reading.candidates.labels.LabelLinker`, with its margin), by a lemma or
WordNet (an embedding's nearness alone, "father" ~ "mother", is no link here). A linked label gives
the claim's `supplied_as` form, its names swapped for a converse: the KB check decides that form on
the supplied triples and the claim itself on the user's KB, so a relabel never hides a KB proof. Only
labels the catalog does not know are candidates: a catalog relation keeps the catalog's logic (the
supplied "mother" refutes "father" by disjointness). Only a triple claim between two names is said
so (not a value, a comparison, a count or a shared value).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agents.reading.candidates.labels import (
    LABEL_STOP,
    PLURAL_MARK,
    LabelLinker,
    RelationLabel,
    entity_labels,
    label_lemmas,
)
from agents.reading.claim_types import Claim, TripleClaim, replaced
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.scratch import relation_for


def supplied_relations(triples: Sequence[Sequence[str]], catalog: Catalog) -> set[str]:
    """The catalog relations the supplied triples use by name or label."""
    return {name for t in triples if len(t) >= 3 and (name := relation_for(str(t[1]), catalog))}


def _of_forms(label: str, parse: Callable[[str], Any]) -> dict[str, bool]:
    """Each content lemma of a label, and whether "of" follows it ("part of": the thing is the part)."""
    doc = list(parse(PLURAL_MARK.sub("", label)))
    return {
        t.lemma_.lower(): i + 1 < len(doc) and doc[i + 1].lower_ == "of"
        for i, t in enumerate(doc)
        if t.is_alpha and t.lower_ not in LABEL_STOP
    }


def opposed(a: str, b: str, parse: Callable[[str], Any]) -> bool:
    """Whether two labels that share a noun read it opposite ways ("part of" and "has part(s)").

    The subject of the one is the noun's thing, of the other its owner ("capital of" and "capital").
    """
    fa, fb = _of_forms(a, parse), _of_forms(b, parse)
    shared = fa.keys() & fb.keys()
    return bool(shared) and all(fa[w] != fb[w] for w in shared)


def relabel(
    claims: Sequence[Claim],
    triples: Sequence[Sequence[str]],
    catalog: Catalog,
    linker: Callable[[], LabelLinker],
    parse: Callable[[str], Any],
) -> list[Claim]:
    """The claims, with the `supplied_as` form of each catalog claim the supplied triples cannot decide.

    `linker` gives the label linker (it loads its models on first use, so only a claim to relabel calls it).
    """
    if not triples:
        return list(claims)
    used = supplied_relations(triples, catalog)
    labels: list[RelationLabel] | None = None
    out = []
    for c in claims:
        spec = catalog.get(c.relation) if isinstance(c, TripleClaim) and c.relation in catalog else None
        if not isinstance(c, TripleClaim) or spec is None or spec.name in used or spec.object_kind != ValueKind.ENTITY:
            out.append(c)
            continue
        if labels is None:  # a label the catalog knows keeps the catalog's logic ("mother" refutes "father")
            labels = [x for x in entity_labels(triples, parse) if relation_for(x.relation, catalog) is None]
        link = linker().link(spec.label, sorted(label_lemmas(spec.label, parse)), labels) if labels else None
        if link is None or link.how == "embedding" or not c.subject or not c.object:
            out.append(c)
        elif link.converse != opposed(spec.label, link.text, parse):
            out.append(replaced(c, supplied_as=(c.object, link.label, c.subject)))
        else:
            out.append(replaced(c, supplied_as=(c.subject, link.label, c.object)))
    return out


__all__ = ["opposed", "relabel", "supplied_relations"]
