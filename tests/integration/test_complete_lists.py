"""Relations declared `complete` (local closed world): a value the subject's full list leaves out is refuted."""

from __future__ import annotations

import pytest

from agents.verifier.kb.prove import prove_claim
from agents.verifier.runner import Verifier
from drowzee_core.logic.explain import reasoning_lines
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.logic.scratch import ScratchKB
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Decision, VerifyRequest
from tests.conftest import make_store

pytestmark = pytest.mark.integration

# Made-up countries: their borders and currencies are listed in full, as the seed KB's sources list them.
LISTED = [
    ("Avalon", "shares_border_with", "Brisa"),
    ("Brisa", "shares_border_with", "Avalon"),
    ("Corva", "shares_border_with", "Dunmore"),
    ("Dunmore", "shares_border_with", "Corva"),
    ("Avalon", "has_currency", "Crown"),
    ("Corva", "has_currency", "Mark"),
    ("Corva", "has_currency", "Old Mark"),
    ("Harbour Town", "located_in", "Avalon"),
    ("Eldra", "has_currency", "Crown"),  # an island: no land border listed
]


@pytest.fixture(scope="module")
def reasoner() -> Reasoner:
    return Reasoner(make_store(LISTED))


@pytest.mark.parametrize(
    ("query", "status", "rule"),
    [
        (("Avalon", "shares_border_with", "Dunmore"), "contradicted", "negation_complete"),
        (("Dunmore", "shares_border_with", "Avalon"), "contradicted", "negation_complete"),
        (("Avalon", "shares_border_with", "Brisa"), "supported", "fact"),
        (("Avalon", "has_currency", "Mark"), "contradicted", "negation_complete"),
        (("Corva", "has_currency", "Old Mark"), "supported", "fact"),
        (("Harbour Town", "uses_currency", "Mark"), "contradicted", "negation_complete"),
        (("Harbour Town", "uses_currency", "Crown"), "supported", "composite:currency_of_place"),
        # nothing listed for the subject: absence alone decides nothing
        (("Eldra", "shares_border_with", "Avalon"), "unknown", None),
        (("Brisa", "has_currency", "Crown"), "unknown", None),
        # a value of another kind is not left out of the list, it is no value of it
        (("Avalon", "shares_border_with", "Crown"), "unknown", None),
        (("Avalon", "has_currency", "Brisa"), "unknown", None),
    ],
)
def test_a_complete_list_refutes_the_values_it_leaves_out(
    reasoner: Reasoner, query: tuple[str, str, str], status: str, rule: str | None
) -> None:
    v = reasoner.prove(*query)
    assert v.status == status, v.lines()
    assert (v.proof or {}).get("rule") == rule


def test_the_refutation_shows_the_listed_values_and_says_why(reasoner: Reasoner) -> None:
    v = reasoner.prove("Corva", "has_currency", "Crown")
    assert v.proof is not None
    assert sorted(p["text"] for p in v.proof["premises"]) == [
        "The currency of Corva is Mark.",
        "The currency of Corva is Old Mark.",
    ]
    lines = reasoning_lines(v.proof, reasoner.catalog)
    why = "Since the KB lists every 'currency' value of Corva and Crown is not one of them"
    assert lines[-1] == f"{why}, the currency of Corva is not Crown."


def test_a_negated_claim_is_proved_by_the_list(reasoner: Reasoner) -> None:
    d = prove_claim(reasoner, "Avalon", "shares_border_with", "Dunmore", negated=True)
    assert d.status == "supported" and d.proof is not None and d.proof.rule == "negation_complete"


def test_a_list_refutes_only_the_first_reading_of_the_subject() -> None:
    """ "Marren" reads first as a region with no listed neighbours, not as the country whose list leaves Brisa out."""
    store = make_store([("Marren Region", "located_in", "Avalon"), *LISTED, ("Marren", "shares_border_with", "Corva")])
    store.db.execute("UPDATE entity SET key = 'region:1', label = 'Marren' WHERE key = 'Marren Region'")
    store.db.execute("UPDATE entity SET key = 'country:MR' WHERE key = 'Marren'")
    store._entity_ids = None
    r = Reasoner(store)
    assert len(store.resolve("Marren")) == 2
    assert prove_claim(r, "Marren", "shares_border_with", "Brisa").status == "unknown"
    assert prove_claim(r, "Marren", "shares_border_with", "Corva").status == "supported"
    assert prove_claim(r, "Corva", "shares_border_with", "Brisa").status == "contradicted"


def test_supplied_triples_are_never_taken_as_complete() -> None:
    with ScratchKB([list(t) for t in LISTED]) as kb:
        assert kb.reasoner.prove("Avalon", "shares_border_with", "Dunmore").status == "unknown"
        assert kb.reasoner.prove("Avalon", "has_currency", "Mark").status == "unknown"


@pytest.mark.parametrize(
    ("query", "response", "label"),
    [
        ("Does Portugal share a border with Italy?", "Yes, they share a border.", Label.NON_FACTUAL),
        ("Do Portugal and Italy share a border?", "No, Portugal and Italy do not share a border.", Label.FACTUAL),
        ("What currency does Canada use?", "Canada uses the yen.", Label.NON_FACTUAL),
    ],
)
def test_the_verifier_decides_by_the_seed_kbs_complete_lists(
    verifier: Verifier, query: str, response: str, label: Label
) -> None:
    v = verifier.verify(VerifyRequest(id="listed", query=query, response=response))
    assert v.label == label and v.decision != Decision.UNDECIDED, v.explanation
    assert "(its source is taken as complete)" in v.explanation
