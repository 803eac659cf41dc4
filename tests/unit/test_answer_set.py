"""The answer set supplied triples give to a "which ..." question, and the response's coverage of it."""

from __future__ import annotations

import pytest

from agents.reading.claims.answer_set import evidence_answers

TWINS = [
    ["Milan", "twinned administrative body", "Bethlehem"],
    ["Milan", "twinned administrative body", "Shanghai"],
    ["Saint Petersburg", "twinned administrative body", "Bethlehem"],
    ["Saint Petersburg", "twinned administrative body", "Shanghai"],
]
QUERY = "Which administrative bodies are twinned with both Milan and Saint Petersburg?"


@pytest.mark.parametrize(
    ("response", "named", "coverage"),
    [
        ("They are Rome and Moscow.", (), 0.0),
        ("Only *Shanghai*.", ("Shanghai",), 0.5),
        ("Bethlehem and shanghai.", ("Bethlehem", "Shanghai"), 1.0),
        ("Shanghainese towns.", (), 0.0),  # whole words only
    ],
)
def test_coverage_of_the_answers_linked_to_every_anchor(response: str, named: tuple[str, ...], coverage: float) -> None:
    found = evidence_answers(QUERY, response, TWINS)
    assert found is not None
    assert found.anchors == ("Milan", "Saint Petersburg") and found.answers == ("Bethlehem", "Shanghai")
    assert found.named == named and found.coverage == coverage


def test_anchors_on_either_side_of_the_triple() -> None:
    triples = [["piano", "famous people", "Ryan Adams"], ["piano", "famous people", "Duff McKagan"]]
    found = evidence_answers("What do both Ryan Adams and Duff McKagan play?", "The violin.", triples)
    assert found is not None and found.answers == ("piano",) and found.coverage == 0.0
    assert "names none of them" in found.sentence()


@pytest.mark.parametrize(
    ("query", "response", "triples"),
    [
        # a yes / no answer is never read as naming answers
        ("Are Milan and Saint Petersburg both twinned with Bethlehem?", "Yes.", TWINS),
        # nor an answer to a yes / no question, however it opens
        ("Are Milan and Saint Petersburg both twinned with Bethlehem?", "Sure! Here it is: no, they are not.", TWINS),
        ("Milan and Saint Petersburg are twinned with Bethlehem. Please judge it.", "Sure. It holds.", TWINS),
        # one anchor: a multi-hop chain, not an answer set
        ("Which cities is Milan twinned with?", "Rome.", TWINS[:2]),
        # an answer joined to one anchor only (a union, or distractors): no answer set
        (QUERY, "Rome.", [*TWINS, ["Milan", "twinned administrative body", "Chicago"]]),
        # a triple between two anchors (a comparison's "Honshu instance of island")
        (
            "Is Honshu, the island, larger than Spain?",
            "No.",
            [["Honshu", "instance of", "island"], ["Spain", "population", "1"]],
        ),
        ("Which bodies are twinned with both Milan and Saint Petersburg?", "Rome.", []),
    ],
)
def test_no_answer_set(query: str, response: str, triples: list[list[str]]) -> None:
    assert evidence_answers(query, response, triples) is None


def test_qualifier_triples_are_read_through_their_base() -> None:
    triples = [
        ["['Avalon', 'sister city', 'Brynmor']", "point in time", "2001"],
        ["['Cardell', 'sister city', 'Brynmor']", "point in time", "2001"],
    ]
    found = evidence_answers("Which town is a sister city of both Avalon and Cardell?", "Brynmor.", triples)
    assert found is not None and found.answers == ("Brynmor",) and found.coverage == 1.0


def test_conditions_when_each_anchor_is_joined_one_way_and_the_completeness_claim() -> None:
    from agents.reading.claim_types import ClaimKind
    from agents.reading.claims.answer_claims import answers_claim

    found = evidence_answers(QUERY, "Rome and Moscow.", TWINS)
    assert found is not None and found.conditions == (
        ("twinned administrative body", "Milan", False),
        ("twinned administrative body", "Saint Petersburg", False),
    )
    claim = answers_claim(QUERY, "Only Shanghai.", TWINS)
    assert claim is not None and claim.kind == ClaimKind.SET and claim.candidates == ("Shanghai",)
    assert [(c.relation, c.other, c.var_subject) for c in claim.conditions] == list(found.conditions)
    assert claim.text == (
        "The response names every X the evidence gives with: Milan twinned administrative body X, "
        "Saint Petersburg twinned administrative body X."
    )
    # an anchor joined by two relations: no conditions, no completeness claim (the coverage signal stays)
    mixed = [*TWINS[:3], ["Saint Petersburg", "sister city", "Shanghai"]]
    two_ways = evidence_answers(QUERY, "Rome.", mixed)
    assert two_ways is not None and two_ways.conditions == () and answers_claim(QUERY, "Rome.", mixed) is None
    # a question that asks for one answer, or a single answer, claims no completeness
    one = "Name one administrative body twinned with both Milan and Saint Petersburg."
    assert answers_claim(one, "Rome.", TWINS) is None
    assert answers_claim(QUERY, "Rome.", [*TWINS[:1], TWINS[2]]) is None
