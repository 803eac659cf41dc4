"""Sentence pieces of the Manager's explanations (pure): cited items, proof leaves, quotes, negations."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

from agents.verifier.schemas import KBResult
from drowzee_core.generate.templates_kb import clause
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.proof import ProofNode

MAX_CITED = 4


def cite(texts: Sequence[tuple[str, str | None]]) -> str:
    """Cited items joined into one clause ("the capital of France is Paris [K1]; ...")."""
    parts = [f"{clause(t)} [{i}]" if i else clause(t) for t, i in texts]
    return "; ".join(parts)


def proof_citations(
    results: Sequence[KBResult], leaf_ids: Mapping[str, str], want: ProofStatus
) -> list[tuple[str, str | None]]:
    """(sentence, evidence id) of the proof leaves behind the claims with status `want`."""
    out: list[tuple[str, str | None]] = []
    for r in results:
        if r.status != want or r.proof is None:
            continue
        nodes = r.proof.premises or [r.proof]
        for node in nodes:
            leaf = node
            while leaf.premises and len(leaf.premises) == 1:
                leaf = leaf.premises[0]
            cite = (leaf.text if not leaf.premises else node.text, leaf_ids.get(leaf.text))
            if cite not in out:
                out.append(cite)
    return out


_NEGATED = "It is not the case that "


_NEGATION = re.compile(r"\b(?:not|never|no)\b|n't\b", re.IGNORECASE)
_BARE_YES_NO = re.compile(r"\s*(?:yes|no)\W*", re.IGNORECASE)


def negation(claim: str) -> str:
    """The sentence saying a refuted claim is false ("So it is not the case that ..."), without a double negation.

    A bare Yes / No is no statement to negate: "The answer "No" is therefore wrong."
    """
    if _BARE_YES_NO.fullmatch(claim):
        return f"The answer {quote(claim)} is therefore wrong."
    if claim.startswith(_NEGATED):
        return f"So {clause(claim[len(_NEGATED) :])} holds."
    if _NEGATION.search(claim):
        return f"So the claim that {clause(claim)} is false."
    return f"So it is not the case that {clause(claim)}."


LISTED_RULE = "negation_complete"
"""The Prolog rule that refutes a value a complete list leaves out (a relation declared `complete`)."""


def listed_sentence(proof: ProofNode) -> str:
    """Why a complete list refutes: "The KB lists every such fact of Spain, and none names Norway."."""
    subject, _, obj = proof.fact
    return f"The KB lists every such fact of {subject} (its source is taken as complete), and none names {obj}."


def quote(text: str) -> str:
    """A text in double quotes, on one line, without its final period."""
    return f'"{" ".join(text.split()).rstrip(".")}"'


__all__ = ["LISTED_RULE", "MAX_CITED", "cite", "listed_sentence", "negation", "proof_citations", "quote"]
