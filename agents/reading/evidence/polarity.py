"""Polarity conflicts between a claim and evidence sentences (pure, over spaCy parses).

What the claim negates, an aligned sentence affirms, or the reverse, about the same things:

- a *verb*: "they don't share a border" against "X and Y share a border";
- a *copula's complement*: "The museum is open on Mondays" against "The museum is not open on
  Mondays" (the negation hangs on "be", the predicate is its adjective or noun).

The sentence must also hold the predicate's objects or complements and another of the claim's anchors.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from agents.reading.evidence.conflicts import Conflict, anchors_of
from agents.reading.evidence.matching import Related, found_in
from agents.reading.evidence.sentences import Sentence
from agents.reading.evidence.units import WEAK, Unit

ARGUMENTS = frozenset({"dobj", "attr", "acomp", "prep", "xcomp"})
COMPLEMENTS = frozenset({"acomp", "attr"})


def negated(tok: Any) -> bool:
    """Whether a predicate word is negated ("not", "never", "no" on it; "not only ... but" is no negation)."""
    doc = tok.doc
    return any(
        (c.dep_ == "neg" or c.lower_ in ("never", "no")) and not (c.i + 1 < len(doc) and doc[c.i + 1].lower_ == "only")
        for c in tok.children
    )


def complement(tok: Any) -> Any | None:
    """The adjective or noun a copula says of its subject ("is open": "open"), or None."""
    if tok.lemma_.lower() != "be":
        return None
    return next((c for c in tok.children if c.dep_ in COMPLEMENTS and c.pos_ in ("ADJ", "NOUN")), None)


def _predicate(tok: Any) -> tuple[str, list[Any]] | None:
    """The lemma that says a predicate and the words that carry its arguments, or None."""
    if tok.pos_ == "VERB" and tok.lemma_.lower() not in WEAK:
        return tok.lemma_.lower(), [c for c in tok.children if c.dep_ in ARGUMENTS]
    said = complement(tok)
    if said is None:
        return None
    args = [c for c in (*tok.children, *said.children) if c.dep_ in ARGUMENTS and c is not said]
    return said.lemma_.lower(), args


def _said(h: Any, lemmas: set[str]) -> bool:
    """Whether a sentence word says one of the predicate's lemmas as a verb or as a copula's complement."""
    if h.pos_ == "VERB" and h.lemma_.lower() in lemmas:
        return True
    said = complement(h)
    return said is not None and said.lemma_.lower() in lemmas


def polarity_conflict(
    claim: Any, units: Sequence[Unit], aligned: Sequence[Sentence], related: Related, heads: Related | None = None
) -> Conflict | None:
    """A predicate the claim negates that an aligned sentence affirms, or the reverse (module docstring).

    The predicates are the same by `heads` (default `related`), as in `agents.reading.evidence.conflicts.conflicts`.
    """
    for p in claim:
        found = _predicate(p)
        if found is None:
            continue
        lemma, args = found
        lemmas = {lemma} | (heads or related)(lemma)
        need = {t.lemma_.lower() for a in args for t in a.subtree if t.pos_ in ("NOUN", "PROPN", "NUM")}
        others = [u for u in anchors_of(units) if u.key not in need and u.key not in lemmas]
        for s in aligned:
            if need and not need <= s.words:
                continue
            if others and not any(found_in(u, s, related) for u in others):
                continue
            for h in (t for t in s.doc if _said(t, lemmas)):
                if negated(h) != negated(p):
                    said = h.lemma_ if h.pos_ == "VERB" else getattr(complement(h), "lemma_", lemma)
                    claimed = f"{'not ' if negated(p) else ''}{lemma}"
                    return Conflict(claimed, f"{'not ' if negated(h) else ''}{said}", s.id, "polarity")
    return None


__all__ = ["complement", "negated", "polarity_conflict"]
