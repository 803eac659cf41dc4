"""What every FactCHD pattern shares: FactCHD's categories, the knobs, grounding and the record builder.

Pure: the pattern makers in `factchd_patterns` (vanilla, multi-hop) and `factchd_compute` (comparison,
set operation) build their `QRPair` through `record`, and say how the label is grounded through
`grounding_of`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypedDict

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.records.enums import Grounding, Label, ProofStatus
from drowzee_core.records.pair import EvidenceItemIn, PairTruth, QRPair

CATEGORY = {
    "vanilla": "Conventional",
    "multi_hop": "Reasoning",
    "comparison": "Comparing",
    "set_operation": "Operation",
}
SUBGRAPH = {
    "vanilla": "single_fact",
    "multi_hop": "multi_hop_reasoning",
    "comparison": "quantitative_comparison",
    "set_operation": "set_operation",
}
NO_FALLACY = (
    "Therefore, there are no fallacies, faulty reasoning, or incorrect conclusions present in this question and answer."
)


class Sizes(TypedDict, total=False):
    """FactCHD's size fields of one pair."""

    hops: int
    comparison_size: int
    set_size: int
    answer_size: int


@dataclass(frozen=True, slots=True)
class Knobs:
    """How the makers draw; the defaults make most NON-FACTUAL labels refutable by Prolog.

    Draws that pick facts or relations are the same for both labels, so preferring refutable facts
    does not tie a relation to a label.
    """

    refutable_share: float = 0.9
    """Share of draws (facts, hops, set relations) taken among those whose corruption Prolog can refute."""
    wrong_number_share: float = 0.85
    """comparison: share of NON-FACTUAL responses that state a false value (the rest only conclude wrongly)."""

    def __post_init__(self) -> None:
        for name in ("refutable_share", "wrong_number_share"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise DrowzeeError(f"`{name}` must be in [0, 1], got {value}")


def grounding_of(factual: bool, deciding: Sequence[ProofStatus], computed: bool = False) -> Grounding:
    """How a label is grounded, from Prolog's statuses of the claims that decide it.

    Args:
        factual: The pair's label is FACTUAL.
        deciding: FACTUAL: every claim of the response; NON-FACTUAL: the false claims it states.
        computed: The label follows from arithmetic in Python over proved facts (comparisons, sets).

    Returns:
        FACTUAL: `computed` when `computed`, else `proved` (every claim supported by Prolog).
        NON-FACTUAL: `proved` when Prolog refutes every deciding claim; else `computed` when the label
        is computed; else `closed_world` (a deciding claim is only absent from the KB).

    Raises:
        ValueError: A FACTUAL claim is not supported, or a NON-FACTUAL deciding claim is.

    """
    if factual:
        if any(st != ProofStatus.SUPPORTED for st in deciding):
            raise ValueError(f"a FACTUAL pair's claims must all be supported, got {[str(s) for s in deciding]}")
        return Grounding.COMPUTED if computed else Grounding.PROVED
    if ProofStatus.SUPPORTED in deciding:
        raise ValueError("a NON-FACTUAL pair's deciding claims cannot be supported")
    if deciding and all(st == ProofStatus.CONTRADICTED for st in deciding):
        return Grounding.PROVED
    return Grounding.COMPUTED if computed else Grounding.CLOSED_WORLD


def record(
    ix: KBIndex,
    pattern: str,
    factual: bool,
    text: tuple[str, str, str],
    evidence: Sequence[list[str]],
    domain: str,
    corruption: str | None,
    entities: set[int],
    truth: PairTruth,
    grounding: Grounding,
    sizes: Sizes | None = None,
) -> QRPair:
    """A pair in FactCHD's shape; `text` is (query, response, reason); `id` and `split` are set later."""
    query, response, reason = text
    items: list[EvidenceItemIn] = [list(e) for e in evidence]
    return QRPair(
        id="",
        label=Label.FACTUAL if factual else Label.NON_FACTUAL,
        query=query,
        response=response,
        evidence=items,
        reason=reason,
        domain=domain,
        type="kg",
        category=CATEGORY[pattern],
        subgraph_type=SUBGRAPH[pattern],
        pattern=pattern,
        corruption=corruption,
        entities=sorted(ix.key(e) for e in entities),
        ground_truth=truth,
        grounding=grounding,
        **(sizes or {}),
    )
