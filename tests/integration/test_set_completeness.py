"""A listed answer to "What are all X such that ...?" refuted by a member Prolog proves it leaves out."""

from __future__ import annotations

import pytest

from agents.reading.claim_types import ClaimCondition
from agents.verifier.kb.sets import set_complete
from drowzee_core.logic.scratch import ScratchKB
from drowzee_core.records.enums import ProofStatus

pytestmark = pytest.mark.integration

TRIPLES = [
    ["Avalon", "shares a border with", "Caldera"],
    ["Brynmor", "shares a border with", "Caldera"],
    ["Avalon", "member of", "League of Isles"],
    ["Brynmor", "member of", "League of Isles"],
    ["Dunmore", "member of", "League of Isles"],
]
BORDER = ClaimCondition(relation="shares_border_with", other="Caldera", var_subject=True)
MEMBER = ClaimCondition(relation="member_of", other="League of Isles", var_subject=True)


def test_a_proved_member_left_out_refutes_the_list_with_its_proof() -> None:
    with ScratchKB(TRIPLES) as kb:
        d = set_complete(kb.reasoner, "and", [BORDER, MEMBER], ["Avalon"], "Avalon is the only X ...")
        assert d.status == ProofStatus.CONTRADICTED and d.proof is not None
        assert d.proof.rule == "set_incomplete"
        assert d.proof.text == "The list is not complete: Brynmor meets the criteria too and is not named."
        assert d.proof.leaves() == [
            ("Brynmor", "shares_border_with", "Caldera"),
            ("Brynmor", "member_of", "League of Isles"),
        ]
        # a union leaves out Dunmore, a member of one set only
        union = set_complete(kb.reasoner, "or", [BORDER, MEMBER], ["Avalon", "Brynmor"], "")
        assert union.status == ProofStatus.CONTRADICTED and union.proof is not None
        assert union.proof.leaves() == [("Dunmore", "member_of", "League of Isles")]


def test_completeness_is_never_proved_and_unknown_names_decide_nothing() -> None:
    with ScratchKB(TRIPLES) as kb:
        whole = set_complete(kb.reasoner, "and", [BORDER, MEMBER], ["Avalon", "Brynmor"], "")
        assert whole.status == ProofStatus.UNKNOWN and whole.proof is None
        # a wrong member is the members' own claims' business; the list still leaves nobody out
        assert set_complete(kb.reasoner, "and", [BORDER, MEMBER], ["Avalon", "Brynmor", "Dunmore"], "").status == (
            ProofStatus.UNKNOWN
        )
        # "Zed" may be Brynmor under another name
        unknown = set_complete(kb.reasoner, "and", [BORDER, MEMBER], ["Avalon", "Zed"], "")
        assert unknown.status == ProofStatus.UNKNOWN and "Zed" in unknown.note


def test_a_negated_condition_needs_a_refutation_not_an_absence() -> None:
    not_border = BORDER.model_copy(update={"negated": True})
    with ScratchKB(TRIPLES) as kb:
        # Dunmore borders nothing the KB knows of, but that is absence: no member of "League but not
        # bordering Caldera" is proved, so an empty-handed list is not refuted
        assert set_complete(kb.reasoner, "but not", [MEMBER, not_border], ["Avalon"], "").status == ProofStatus.UNKNOWN
        only_negated = set_complete(kb.reasoner, "single", [not_border], ["Avalon"], "")
        assert only_negated.status == ProofStatus.UNKNOWN and "negated" in only_negated.note


def test_conditions_with_x_as_the_object_enumerate_the_named_entitys_facts() -> None:
    # FactCHD: "Which administrative bodies are twinned with both Milan and Saint Petersburg?"
    twins = [
        [city, "twinned administrative body", twin]
        for city in ("Milan", "Saint Petersburg")
        for twin in ("Bethlehem", "Shanghai")
    ]
    conditions = [
        ClaimCondition(relation="twinned administrative body", other=city, var_subject=False)
        for city in ("Milan", "Saint Petersburg")
    ]
    with ScratchKB([*twins, ["Milan", "twinned administrative body", "Chicago"]]) as kb:
        none = set_complete(kb.reasoner, "and", conditions, [], "")
        assert none.status == ProofStatus.CONTRADICTED and none.proof is not None
        assert (
            none.proof.text == "The list is not complete: Bethlehem, Shanghai meet the criteria too and are not named."
        )
        assert set_complete(kb.reasoner, "and", conditions, ["Bethlehem", "Shanghai"], "").status == ProofStatus.UNKNOWN


def test_at_least_two_events_at_a_place_from_two_supplied_facts() -> None:
    from agents.verifier.kb.sets import count_at_least

    battles = [["Battle of Spotsylvania Court House", "location", "Spotsylvania County"]]
    with ScratchKB(battles) as kb:
        one = count_at_least(kb.reasoner, "location", "Spotsylvania County", 2)
        assert one.status == ProofStatus.UNKNOWN  # one fact: fewer is never a refutation
    with ScratchKB([*battles, ["Battle of Fredericksburg", "location", "Spotsylvania County"]]) as kb:
        two = count_at_least(kb.reasoner, "location", "Spotsylvania County", 2)
        assert two.status == ProofStatus.SUPPORTED and two.proof is not None and two.proof.rule == "count"
        assert [leaf[0] for leaf in two.proof.leaves()] == [
            "Battle of Spotsylvania Court House",
            "Battle of Fredericksburg",
        ]
        denied = count_at_least(kb.reasoner, "location", "Spotsylvania County", 2, negated=True)
        assert denied.status == ProofStatus.CONTRADICTED
        assert count_at_least(kb.reasoner, "location", "Agordat", 2).status == ProofStatus.UNKNOWN
        assert count_at_least(kb.reasoner, "participant", "Spotsylvania County", 2).linked is False
