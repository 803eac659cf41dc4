"""An undated event put at a year is decided by the year relation its declaration shares a verb with.

The relations and names are invented; the KB is built the way `drowzee kb load FILE --relations REL.toml`
builds it. `charted_by` stores who charted a reef, undated; `charted_in` (a year) says when. "Tova Brenn
charted Vell Reef in 1736" is both facts, proved by Prolog; `named_by` has no year relation, so a year
said with it stays open. `surveyed` is declared the inverse of `surveyed_by`: a claim read in it ("A
surveyed X in 1744") is dated by X's `surveyed_in`.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from agents.verifier.runner import Verifier
from drowzee_core.records.verdict import Decision, VerifyRequest
from tests.integration.user_kb import assert_decided, user_kb_verifier

pytestmark = pytest.mark.integration

RELATIONS = """
[[relation]]
name = "charted_by"
label = "charted by"
category = "passive_verb"
positive = "{s} was charted by {o}."
negative = "{s} was not charted by {o}."
question = "Was {s} charted by {o}?"

[[relation]]
name = "charted_in"
label = "year charted"
category = "passive_verb"
functional = true
object_kind = "year"
positive = "{s} was charted in {o}."
negative = "{s} was not charted in {o}."
question = "Was {s} charted in {o}?"

[[relation]]
name = "charted_at"
label = "charted at"
category = "passive_verb"
positive = "{s} was charted at {o}."
negative = "{s} was not charted at {o}."
question = "Was {s} charted at {o}?"

[[relation]]
name = "surveyed_by"
label = "surveyed by"
category = "passive_verb"
inverse_of = "surveyed"
positive = "{s} was surveyed by {o}."
negative = "{s} was not surveyed by {o}."
question = "Was {s} surveyed by {o}?"

[[relation]]
name = "surveyed"
label = "surveyed"
category = "active_verb"
inverse_of = "surveyed_by"
positive = "{s} surveyed {o}."
negative = "{s} did not survey {o}."
question = "Did {s} survey {o}?"

[[relation]]
name = "surveyed_in"
label = "year surveyed"
category = "passive_verb"
functional = true
object_kind = "year"
positive = "{s} was surveyed in {o}."
negative = "{s} was not surveyed in {o}."
question = "Was {s} surveyed in {o}?"

[[relation]]
name = "named_by"
label = "named by"
category = "passive_verb"
positive = "{s} was named by {o}."
negative = "{s} was not named by {o}."
question = "Was {s} named by {o}?"
"""

FACTS = """subject,relation,object
Vell Reef,charted_by,Tova Brenn
Vell Reef,charted_in,1736
Vell Reef,named_by,Ansel Krane
Orvin Bay,charted_by,Ansel Krane
Kest Shoal,surveyed_by,Ansel Krane
Kest Shoal,surveyed_in,1744
Orvin Bay,charted_in,1802
Orvin Bay,charted_at,Kest Harbour
"""


@pytest.fixture(scope="module")
def verifier(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Verifier]:
    """A verifier over a KB of the invented relations."""
    with user_kb_verifier(tmp_path_factory.mktemp("event_years_kb"), RELATIONS, FACTS) as v:
        yield v


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("Tova Brenn charted Vell Reef in 1736.", Decision.SUPPORTED),
        ("Tova Brenn charted Vell Reef in 1790.", Decision.REFUTED),
        ("Tova Brenn charted Vell Reef before 1750.", Decision.SUPPORTED),
        ("Tova Brenn charted Vell Reef after 1750.", Decision.REFUTED),
        ("Tova Brenn did not chart Vell Reef in 1736.", Decision.REFUTED),
        # the event is not the KB's: what year it was said at cannot make it true
        ("Ansel Krane charted Vell Reef in 1736.", Decision.UNDECIDED),
        # no year relation dates `named_by`: the year stays open
        ("Ansel Krane named Vell Reef in 1736.", Decision.UNDECIDED),
    ],
)
def test_an_event_at_a_year_is_decided_by_its_year_relation(
    verifier: Verifier, response: str, decision: Decision
) -> None:
    assert_decided(verifier, "Who charted Vell Reef?", response, decision)


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("Ansel Krane surveyed Kest Shoal in 1744.", Decision.SUPPORTED),
        ("Ansel Krane surveyed Kest Shoal in 1750.", Decision.REFUTED),
        ("Tova Brenn surveyed Kest Shoal in 1744.", Decision.UNDECIDED),
    ],
)
def test_an_event_said_in_the_inverse_relation_is_dated_by_its_objects_year(
    verifier: Verifier, response: str, decision: Decision
) -> None:
    # "A surveyed X in 1744": the KB stores "X was surveyed by A" and dates it by X's `surveyed_in`
    assert_decided(verifier, "Who surveyed Kest Shoal?", response, decision)


def test_the_proof_names_the_year_relation(verifier: Verifier) -> None:
    v = verifier.verify(
        VerifyRequest(id="v", query="Who charted Vell Reef?", response="Tova Brenn charted Vell Reef in 1790.")
    )
    texts = [c.proof.text for c in v.claims if c.proof is not None]
    assert any("year charted does not fit" in t for t in texts), texts


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("Yes. She charted it in 1736.", Decision.SUPPORTED),
        ("Yes. She charted it in 1790.", Decision.REFUTED),
    ],
)
def test_she_and_it_are_the_questions_doer_and_what_was_done(
    verifier: Verifier, response: str, decision: Decision
) -> None:
    assert_decided(verifier, "Did Tova Brenn chart Vell Reef?", response, decision)


def test_a_comparison_question_is_no_relation_between_its_names(verifier: Verifier) -> None:
    # "charted before" compares the two years; it never reads as a `charted_by` of one name by the other
    v = verifier.verify(
        VerifyRequest(
            id="v",
            query="Was Orvin Bay charted before Vell Reef?",
            response="No, Orvin Bay was charted after Vell Reef.",
        )
    )
    assert v.decision == Decision.SUPPORTED, (v.explanation, [(c.status, c.text) for c in v.claims])
    assert all("charted by" not in c.text and "charted at" not in c.text for c in v.claims)
