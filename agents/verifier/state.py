"""The verifier graph's state: input, working state with reducers, and output.

Nodes return partial updates. Lists that several nodes add to (evidence, opinions, KB results, claim
support, degraded reasons) merge through reducers, so nodes never overwrite each other's work; timings
merge per node.
"""

from __future__ import annotations

import operator
from typing import Annotated, Any, TypedDict

from agents.reading.claim_types import Claim
from agents.reading.claims import AnswerSet
from agents.verifier.schemas import ClaimSupport, KBResult
from drowzee_core.records.verdict import EvidenceItem, Opinion, Verdict


def merge_evidence(left: list[EvidenceItem], right: list[EvidenceItem]) -> list[EvidenceItem]:
    """Append new evidence; an item whose id is already present is dropped (ids are unique per run)."""
    out, seen = list(left), {e.id for e in left}
    for item in right:
        if item.id not in seen:
            seen.add(item.id)
            out.append(item)
    return out


def merge_timings(left: dict[str, float], right: dict[str, float]) -> dict[str, float]:
    """Per-node seconds; a node that runs twice adds up."""
    out = dict(left)
    for k, v in right.items():
        out[k] = round(out.get(k, 0.0) + v, 4)
    return out


class VerifierInput(TypedDict, total=False):
    """What the graph is invoked with (the fields of `VerifyRequest`)."""

    id: str | None
    query: str
    response: str
    evidence: Any


class VerifierOutput(TypedDict):
    """What the graph returns: the verdict record."""

    verdict: Verdict


class VerifierState(TypedDict, total=False):
    """Everything the nodes share while checking one pair."""

    id: str | None
    query: str
    response: str
    evidence: Any
    supplied_triples: list[list[str]]
    claims: list[Claim]
    gathered: Annotated[list[EvidenceItem], merge_evidence]
    kb_results: Annotated[list[KBResult], operator.add]
    answer_set: AnswerSet | None
    unanswered: str | None
    support: Annotated[list[ClaimSupport], operator.add]
    opinions: Annotated[list[Opinion], operator.add]
    degraded: Annotated[list[str], operator.add]
    guardian_ticket: str | None
    timings: Annotated[dict[str, float], merge_timings]
    verdict: Verdict


__all__ = ["VerifierInput", "VerifierOutput", "VerifierState", "merge_evidence", "merge_timings"]
