"""Supplied "subclass of" triples are the catalog's transitive `is_a` (real Prolog, a fresh seed KB).

Wikidata calls the taxonomy relation "subclass of"; the catalog's `is_a` names it so among its
`other_labels`, so a pair's scratch KB derives chains from it, and `instance_of` followed by `is_a`
is an `instance_of` (the composite `instance_generalisation`). Before, "subclass of" was a relation
of no properties: "Are X and Y both subclass of the same Z?" over a chain was *refuted* by the two
names' direct values. Names written for these tests.
"""

from __future__ import annotations

import pytest

from agents.verifier.runner import Verifier
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.scratch import relation_for
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Decision
from tests.integration.question_reading import assert_proved

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CHAIN = [
    ["tin whistle jig", "subclass of", "jig"],
    ["jig", "subclass of", "folk dance"],
    ["reel", "subclass of", "folk dance"],
]
SHANTY = [["Harrow Fen", "instance of", "sea shanty"], ["sea shanty", "subclass of", "work song"]]


def test_subclass_of_is_the_catalogs_is_a() -> None:
    assert relation_for("Subclass of", Catalog.from_toml()) == "is_a"


@pytest.mark.parametrize(
    ("query", "evidence", "answer", "label", "decision"),
    [
        (
            "Is it true that tin whistle jig is a subclass of folk dance?",
            CHAIN,
            "Yes.",
            Label.FACTUAL,
            Decision.SUPPORTED,
        ),
        (
            "Are tin whistle jig and reel both subclass of the same dance?",
            CHAIN,
            "Yes.",
            Label.FACTUAL,
            Decision.SUPPORTED,
        ),
        (
            "Are tin whistle jig and reel both subclass of the same dance?",
            CHAIN,
            "No.",
            Label.NON_FACTUAL,
            Decision.REFUTED,
        ),
        ("Is it true that Harrow Fen is an instance of work song?", SHANTY, "Yes.", Label.FACTUAL, Decision.SUPPORTED),
    ],
)
def test_a_chain_of_supplied_subclasses_is_proved(
    verifier: Verifier, query: str, evidence: list[list[str]], answer: str, label: Label, decision: Decision
) -> None:
    assert_proved(verifier, query, evidence, answer, label, decision)
