"""A broader relation read as the narrower one the KB types its names for (`RelationSpec.narrows`; real Prolog).

"Lima is in Asia" reads `located_in`; a continent's `located_in` is `on_continent`, which is
functional, so the seed KB refutes it with Lima's continent as the proof.
"""

from __future__ import annotations

import pytest

from agents.verifier.runner import Verifier
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Decision, VerifyRequest

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.mark.parametrize(
    ("query", "response", "label", "decision"),
    [
        ("Is Lima in Asia?", "Yes, Lima is an Asian city.", Label.NON_FACTUAL, Decision.REFUTED),
        ("Is Lima in Asia?", "No, it lies outside Asia.", Label.FACTUAL, Decision.SUPPORTED),
        ("Is Lima in South America?", "Yes.", Label.FACTUAL, Decision.SUPPORTED),
    ],
)
def test_in_a_continent_is_on_it(
    verifier: Verifier, query: str, response: str, label: Label, decision: Decision
) -> None:
    v = verifier.verify(VerifyRequest(query=query, response=response))
    assert (v.label, v.decision) == (label, decision), v.explanation
    assert any(c.reading is not None and c.reading.relation == "on_continent" for c in v.claims)
