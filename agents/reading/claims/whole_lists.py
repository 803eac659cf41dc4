"""Lists a response gives as whole: the claim that a subject's values of a relation are just those it names.

Four ways of saying a list is all there is, each read from the relation's declaration, none from code for
a relation: the relation's noun, definite and plural ("X's official tongues are A and B", "the tongues of X
are ..."); the same noun definite and singular, which says there is one value ("the official tongue of X
is A", "A is X's official tongue"); "only" or "sole" in the sentence ("only A is ...", "X borders only
A"); and the answer to a question that asks for every value ("Which lands border X?" "X borders A and
B."). A list is read from the triple claims already made of one subject and one relation, and only for a
relation the catalog declares complete (`RelationSpec.complete`). It claims nothing when hedged
("including", "such as", "among others", "one of", "main", "also"), negated, in the past tense, put at a
year, or with an either-or member. A value of the subject the response names anywhere counts as listed.
The KB check refutes the list by a value it leaves out (`agents.verifier.kb.lists`) and never proves it:
its members are proved by their own claims.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Sequence
from typing import Any

from agents.reading.candidates import nlp
from agents.reading.claim_types import Claim, ClaimCondition, ClaimOrigin, SetClaim, TripleClaim
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import RelationSpec, ValueKind

HEDGE = re.compile(
    r"\b(?:includ\w*|such as|among\w*|for (?:example|instance)|e\.g|like|some|several|a few|also|others?|etc"
    r"|one of|main|major|principal|primary|chief|key|notabl\w*|mainly|mostly|largely|primarily|many|various"
    r"|numerous|besides|alongside|along with|together with|as well as|in addition|at least|partly|partial\w*)\b",
    re.IGNORECASE,
)
"""Words that say a list is a part of the whole ("including A", "A, among others", "one of the ...")."""
NEGATION = re.compile(r"\b(?:not|no|never|neither|nor|none)\b|n't", re.IGNORECASE)
ONLY = re.compile(r"\b(?:only|sole|solely|exclusively)\b", re.IGNORECASE)
"""Words that say a list is the whole one ("only A", "the sole ...")."""
DEFINITE = r"(?:\b(?:the|its|their|his|her)|['\u2019]s)\s+(?:(?:only|sole)\s+)?"
"""What stands before a relation's noun that names its values as a definite whole ("the", "X's", "its")."""
WH_WORDS = frozenset({"which", "what", "who"})
LIST_VERBS = frozenset({"list", "name", "give", "tell"})
PLURAL_TAGS = frozenset({"NNS", "NNPS"})
MAX_QUERY_CHARS = 2_000
"""The part of a query parsed for what it asks."""
ONE_ASKED = re.compile(r"\b(?:a|an|one|any|some|example|examples)\b", re.IGNORECASE)
"""A question that asks for some values only ("Name a ...", "one of ...", "any ...")."""


def _noun(spec: RelationSpec) -> re.Pattern[str] | None:
    """The relation's noun, definite, singular or plural ("the official tongue(s)"); None for a verb relation."""
    if spec.category != "noun_phrase":
        return None
    words = [w for w in spec.label.split() if w.lower() not in ("the", "a", "an", "of")]
    if not words:
        return None
    body = r"\s+".join(re.escape(w) for w in words)
    return re.compile(DEFINITE + body + r"(?P<plural>e?s)?\b", re.IGNORECASE)


def _eligible(c: Claim, catalog: Catalog) -> bool:
    """A plain present-tense triple claim of an entity value of a relation the catalog declares complete."""
    if not isinstance(c, TripleClaim) or c.relation not in catalog:
        return False
    spec = catalog.get(c.relation)
    plain = not (c.negated or c.disjunctive or c.past or c.sufficient) and c.year is None and c.tolerance is None
    return plain and spec.complete and spec.object_kind == ValueKind.ENTITY


def _oriented(claims: Sequence[TripleClaim], catalog: Catalog, said: str) -> list[tuple[str, TripleClaim]]:
    """Each claim with the name its list is of: its subject, or for a symmetric relation one of its two names.

    That is the name the claims name most, then the one the query or response (`said`) names first.
    """
    counts = Counter(n.casefold() for c in claims for n in (c.subject, c.object))
    folded = said.casefold()

    def rank(name: str) -> tuple[int, int]:
        at = folded.find(name.casefold())
        return -counts[name.casefold()], at if at >= 0 else len(folded)

    out = []
    for c in claims:
        flip = catalog.get(c.relation).symmetric and rank(c.object) < rank(c.subject)
        out.append((c.object if flip else c.subject, c))
    return out


def _sentences_of(claims: Sequence[TripleClaim], sentences: Sequence[tuple[tuple[int, int], str]]) -> list[str]:
    """The sentences the claims were read from (all of a one-sentence response's for claims with no span)."""
    spans = [c.span for c in claims if c.span is not None]
    if not spans:
        return [t for _s, t in sentences] if len(sentences) == 1 else []
    return [t for (a, b), t in sentences if any(x < b and a < y for x, y in spans)]


def _said_whole(
    spec: RelationSpec, claims: Sequence[TripleClaim], said_in: Sequence[str], owner: str, all_asked: bool, of_it: bool
) -> bool:
    """Whether the sentences give the claims' values of `owner` as the whole list (see the module).

    `all_asked`: the question asks for every value; `of_it`: it names `owner` and the relation's word.
    """
    if not said_in or any(HEDGE.search(t) or NEGATION.search(t) for t in said_in):
        return False
    if any(ONLY.search(t) for t in said_in):
        return True
    noun = _noun(spec)
    if noun is not None and any(noun.search(t) for t in said_in if owner.casefold() in t.casefold()):
        return True
    return all_asked and (of_it or any(c.origin == ClaimOrigin.QUERY for c in claims))


def _asked_of(spec: RelationSpec, owner: str, query: Any) -> bool:
    """Whether the question names `owner` and a content word of the relation's label ("trade" of "trades with")."""
    if owner.casefold() not in query.text.casefold():
        return False
    label = {t.lemma_.lower() for t in nlp()(spec.label) if t.is_alpha and not t.is_stop}
    return bool(label & {t.lemma_.lower() for t in query if t.is_alpha})


def _plural(t: Any) -> bool:
    """A plural noun, also where the tagger takes it for a verb ("Which countries border ...": VBZ)."""
    if t.tag_ in PLURAL_TAGS:
        return True
    return t.tag_ == "VBZ" and t.lemma_.lower() not in ("be", "do", "have") and t.lower_.endswith("s")


def _once_each(names: Sequence[str]) -> list[str]:
    """The names in order, each once whatever its case ("Egyptian pound", "Egyptian Pound": the first)."""
    seen: dict[str, str] = {}
    for n in names:
        seen.setdefault(n.casefold(), n)
    return list(seen.values())


def _worded(spec: RelationSpec, owner: str, values: Sequence[str]) -> str:
    """The whole-list claim as a sentence: "X has no dialect other than A and B.", "X trades with only A."."""
    names = values[0] if len(values) == 1 else f"{', '.join(values[:-1])} and {values[-1]}"
    if spec.category == "noun_phrase":
        return f"{owner} has no {spec.label} other than {names}."
    return f"{owner} {spec.label} only {names}."


def asks_all(doc: Any) -> bool:
    """Whether a parsed question asks for every value, not for some ("Name a ...", "one of ...").

    A plural "which / what" noun ("Which lands border X?"), "what / who are ...", or "list / name the ..."
    with a plural object.
    """
    if ONE_ASKED.search(doc.text):
        return False
    for t in doc:
        if t.lower_ in WH_WORDS and t.i + 1 < len(doc) and _plural(doc[t.i + 1]):
            return True  # "Which lands ...", "What tongues ..."
        if t.lower_ in WH_WORDS and t.i + 1 < len(doc) and doc[t.i + 1].lower_ in ("are", "were"):
            return True  # "What are the tongues of X?"
        if t.lemma_.lower() in LIST_VERBS and t.i == 0 and any(c.dep_ == "dobj" and _plural(c) for c in t.children):
            return True  # "List the tongues of X."
    return False


def whole_lists(
    found: Sequence[Claim],
    query: str,
    sentences: Sequence[tuple[tuple[int, int], str]],
    catalog: Catalog,
    values_of: Callable[[str, str], list[str]],
    response: str,
) -> list[SetClaim]:
    """The lists the response gives as whole, one claim per subject and relation (see the module).

    `values_of(name, relation)` gives the labels of the values the KB stores for a name: one the response
    names anywhere counts as listed, so a list is never refuted by a value the response does name.
    """
    groups: dict[tuple[str, str], list[TripleClaim]] = {}
    owners: dict[tuple[str, str], str] = {}
    eligible = [c for c in found if isinstance(c, TripleClaim) and _eligible(c, catalog)]
    if not eligible:
        return []  # most responses: no claim of a complete relation, nothing to parse
    for owner, c in _oriented(eligible, catalog, f"{query}\n{response}"):
        key = (c.relation, owner.casefold())
        groups.setdefault(key, []).append(c)
        owners.setdefault(key, owner)
    asked = nlp()(query[:MAX_QUERY_CHARS]) if query else None
    said_all = asked is not None and asks_all(asked)
    blocked = {
        (c.relation, n.casefold())
        for c in found
        if isinstance(c, TripleClaim) and not _eligible(c, catalog)
        for n in (c.subject, c.object)
    }
    out: list[SetClaim] = []
    for key, claims in groups.items():
        relation, owner = key[0], owners[key]
        spec = catalog.get(relation)
        of_it = said_all and asked is not None and _asked_of(spec, owner, asked)
        said_in = _sentences_of(claims, sentences)
        if key in blocked or not _said_whole(spec, claims, said_in, owner, said_all, of_it):
            continue  # the same list also said negated, dated or in the past: no whole list of today
        members = list(
            dict.fromkeys(c.object if c.subject.casefold() == owner.casefold() else c.subject for c in claims)
        )
        folded = response.casefold()
        named = [v for v in values_of(owner, relation) if re.search(rf"\b{re.escape(v.casefold())}\b", folded)]
        candidates = tuple(_once_each([*members, *named]))
        spans = [c.span for c in claims if c.span is not None]
        span = (min(a for a, _b in spans), max(b for _a, b in spans)) if spans else None
        text = _worded(spec, owner, candidates)
        origin = ClaimOrigin.QUERY if any(c.origin == ClaimOrigin.QUERY for c in claims) else ClaimOrigin.READER
        out.append(
            SetClaim(
                id="",
                text=text,
                span=span,
                origin=origin,
                variable="X",
                operation="and",
                candidates=candidates,
                conditions=(ClaimCondition(relation=relation, other=owner, var_subject=False),),
                said_whole=True,
            )
        )
    return out


__all__ = ["HEDGE", "ONLY", "asks_all", "whole_lists"]
