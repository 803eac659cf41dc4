"""A list of names in one argument place, read one name at a time (pure, over a spaCy parse).

"Belgium is bordered by France, Germany and Luxembourg." says three claims, one per name of the
coordination; a reader that takes two names per claim reads none of them, because three names
fill two places. `distributed` gives the sentence once per member of its one coordination of known
names ("A, B and C", "A and B"; "A or B" is no list of claims), the list replaced by that member:
"Belgium is bordered by Germany." A sentence of two joined clauses gives nothing (a parse may join
names across them: "X is the capital of Y and Z is ..."). A member the reader cannot read fails the
whole list (`all_or_nothing`): a list is read as a whole or left to the other sources.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from agents.reading.mentions.finder import Mention, head_word

MAX_MEMBERS = 8
"""Most names of one list read one by one (a longer list is left unread)."""

T = TypeVar("T")


def _root(doc: Any, m: Mention) -> Any:
    return head_word(doc, m)


def _members(doc: Any, names: Sequence[Mention]) -> list[Mention]:
    """The names of the sentence's one "and" coordination of two or more known names, in order; else []."""
    if any(t.dep_ == "conj" and t.pos_ in ("VERB", "AUX") for t in doc):
        return []  # two clauses joined ("X is ... and Y is ..."): a parse may join names across them
    at = {_root(doc, m).i: m for m in names}
    groups: list[list[Mention]] = []
    for i, m in at.items():
        tok = doc[i]
        if tok.dep_ == "conj":
            continue  # a later member: its group is found from the first one
        joined = [at[c.i] for c in tok.conjuncts if c.i in at]
        if not joined:
            continue
        words = {c.lower_ for t in (tok, *tok.conjuncts) for c in t.children if c.dep_ == "cc"}
        if words == {"and"} and len(joined) == len(tok.conjuncts):  # every member a known name
            groups.append(sorted([m, *joined], key=lambda x: x.start))
    if not groups:
        groups = _written_lists(doc, names)
    if len(groups) != 1 or len(groups[0]) > MAX_MEMBERS:
        return []
    return groups[0]


def _written_lists(doc: Any, names: Sequence[Mention]) -> list[list[Mention]]:
    """Runs of names the words join as a list ("A, B and C") where the parse joins them to something else.

    The parse may hang a list's second member on the verb ("is in zone 3 and ring 1": "ring" a
    conjunct of "is"); the words still say a list: names with only commas between them and "and"
    before the last.
    """
    if any(t.lower_ in ("or", "nor") for t in doc):
        return []  # "A and B or C": which names the claims take is what the parse was unsure of
    ordered = sorted(names, key=lambda m: m.start)
    runs: list[list[Mention]] = []
    run = ordered[:1]
    for a, b in itertools.pairwise(ordered):
        gap = _without_repeated_preposition(doc, run[0], [t for t in doc[a.end : b.start]])
        if gap and all(w in (",", "and") for w in gap):
            run.append(b)
            continue
        runs.append(run)
        run = [b]
    runs.append(run)
    out = []
    for r in runs:
        gaps = [_without_repeated_preposition(doc, r[0], list(doc[a.end : b.start])) for a, b in itertools.pairwise(r)]
        if len(r) >= 2 and "and" in gaps[-1] and all(g == [","] for g in gaps[:-1]):
            out.append(r)
    return out


def _without_repeated_preposition(doc: Any, first: Mention, gap: list[Any]) -> list[str]:
    """The words between two list members, less a preposition that repeats the first member's ("to A and to B")."""
    at = _said_start(doc, first) - 1
    before = doc[at] if at >= 0 and doc[at].pos_ == "ADP" else None
    words = [t.lower_ for t in gap]
    if before is not None and words[-2:-1] == ["and"] and words[-1] == before.lower_:
        return words[:-1]
    return words


def distributed(doc: Any, names: Sequence[Mention]) -> list[str]:
    """The sentence once per member of its one list of names, the list replaced by that member; else []."""
    members = _members(doc, names)
    if not members:
        return []
    start, end = _said_start(doc, members[0]), members[-1].end
    before = doc[:start].text_with_ws if start else ""
    after = doc[end:].text_with_ws if end < len(doc) else ""
    gap = " " if after and after[:1] not in ".,;:!?" else ""
    return [f"{before}{_said(doc, m)}{gap}{after}".strip() for m in members]


def _said_start(doc: Any, m: Mention) -> int:
    return m.start - 1 if m.start > 0 and doc[m.start - 1].dep_ == "det" else m.start


def _said(doc: Any, m: Mention) -> str:
    """A member as the list says it, with its own article ("the Netherlands")."""
    return str(doc[_said_start(doc, m) : m.end].text)


def all_or_nothing(variants: Sequence[str], read: Callable[[str], list[T]]) -> list[T]:
    """Every variant's readings, where each variant reads; [] when any does not."""
    out: list[T] = []
    for text in variants:
        found = read(text)
        if not found:
            return []
        out += found
    return out


def pair_of(doc: Any, names: Sequence[Mention]) -> str | None:
    """The sentence's one list of two known names as written ("Germany and France"), else None."""
    members = _members(doc, names)
    if len(members) != 2:
        return None
    return str(doc[_said_start(doc, members[0]) : members[-1].end].text)


def they_as(doc: Any, pair: str) -> str | None:
    """The sentence with its subject "they" said as `pair`, or None when "they" is not the main clause's subject.

    "They do not share a border." -> "X and Y do not share a border."
    """
    they = next(
        (t for t in doc if t.lower_ == "they" and t.dep_ in ("nsubj", "nsubjpass") and t.head.dep_ == "ROOT"), None
    )
    if they is None:
        return None
    return f"{doc[: they.i].text_with_ws}{pair}{they.whitespace_}{doc[they.i + 1 :].text}".strip()


def listed(doc: Any, found: Sequence[Mention]) -> list[Mention]:
    """The names listed with the first of `found` ("Chile, Bolivia and X": Bolivia, X), in `found`'s order.

    A name is listed with another when its head word is a conjunct of the other's, directly or down a chain.
    """
    if not found:
        return []

    def head(m: Mention) -> Any:
        return head_word(doc, m)

    first = head(found[0])
    top = first
    while top.dep_ == "conj":
        top = top.head
    members = {top.i} | {t.i for t in top.subtree if t.dep_ == "conj" and _conj_chain(t, top)}
    return [m for m in found[1:] if head(m).i in members and head(m).i != first.i]


def _conj_chain(t: Any, top: Any) -> bool:
    """Whether `t` reaches `top` by conjunct links alone."""
    while t.dep_ == "conj" and t.i != top.i:
        t = t.head
    return bool(t.i == top.i)


__all__ = ["MAX_MEMBERS", "all_or_nothing", "distributed", "listed", "pair_of", "they_as"]
