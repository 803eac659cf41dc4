"""A catalog claim said in the words of the pair's supplied triples: "the father of Y is X" by "X child Y".

The catalog's templates read a sentence into one of the catalog's relations ("father"). When a pair
supplies triples and none of them uses that relation, the triples cannot decide the claim, though they
may state its facts under a label of their own ("child", the converse of "father"'s broader term
"parent"). The relation's catalog label is then linked to the supplied labels with the same linker
the reader uses for predicates (`agents.reading.labels.LabelLinker`, with its margin), by a lemma or
WordNet (an embedding's nearness alone, "father" ~ "mother", is no link here); a linked label becomes
the claim's relation, its names swapped for a converse. Only labels the catalog does not know are
candidates: a catalog relation keeps the catalog's logic (the supplied "mother" refutes "father" by
disjointness). A claim about values (years, numbers) and a comparison or a count keep their relation.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from agents.reading.labels import Label, LabelLinker, entity_labels, label_lemmas
from agents.schemas import Claim, ClaimKind
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.scratch import relation_for

RELABELED = (ClaimKind.TRIPLE, ClaimKind.COMMON)
"""Claim kinds whose catalog relation may be said by a supplied label (a converse only for a triple)."""


def supplied_relations(triples: Sequence[Sequence[str]], catalog: Catalog) -> set[str]:
    """The catalog relations the supplied triples use by name or label."""
    return {name for t in triples if len(t) >= 3 and (name := relation_for(str(t[1]), catalog))}


def relabel(
    claims: Sequence[Claim],
    triples: Sequence[Sequence[str]],
    catalog: Catalog,
    linker: Callable[[], LabelLinker],
    parse: Callable[[str], Any],
) -> list[Claim]:
    """The claims, each catalog claim the supplied triples cannot decide said by the supplied label it links to.

    `linker` gives the label linker (it loads its models on first use, so only a claim to relabel calls it).
    """
    if not triples:
        return list(claims)
    used = supplied_relations(triples, catalog)
    labels: list[Label] | None = None
    out = []
    for c in claims:
        spec = catalog.get(c.relation) if c.relation and c.relation in catalog else None
        if c.kind not in RELABELED or spec is None or spec.name in used or spec.object_kind != ValueKind.ENTITY:
            out.append(c)
            continue
        if labels is None:  # a label the catalog knows keeps the catalog's logic ("mother" refutes "father")
            labels = [x for x in entity_labels(triples, parse) if relation_for(x.relation, catalog) is None]
        link = linker().link(spec.label, sorted(label_lemmas(spec.label, parse)), labels) if labels else None
        if link is None or link.how == "embedding" or (link.converse and c.kind != ClaimKind.TRIPLE):
            out.append(c)
        elif link.converse:
            out.append(c.model_copy(update={"relation": link.label, "subject": c.object, "object": c.subject}))
        else:
            out.append(c.model_copy(update={"relation": link.label}))
    return out


__all__ = ["relabel", "supplied_relations"]
