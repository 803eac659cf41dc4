"""Which lists a response gives as whole (`agents.reading.claims.whole_lists`), on invented relations and names."""

from __future__ import annotations

import tomllib
from collections.abc import Sequence

import pytest

from agents.reading.candidates import nlp
from agents.reading.claim_types import Claim, ClaimOrigin, SetClaim, TripleClaim
from agents.reading.claims.whole_lists import asks_all, whole_lists
from drowzee_core.kb.catalog import Catalog
from tests.integration.test_whole_lists import RELATIONS

CATALOG = Catalog.from_dict(tomllib.loads(RELATIONS))
"""The invented relations of the integration test: `dialect` and `trades with` complete, `patron` not."""
STORED = {("Orvin Bay", "has_dialect"): ["Tessic", "Brannish", "Olmic"]}


def _triple(s: str, r: str, o: str, span: tuple[int, int] | None, **kw: object) -> TripleClaim:
    said = {"id": "", "text": f"{s} {r} {o}", "span": span, "origin": ClaimOrigin.READER}
    return TripleClaim.model_validate({**said, "subject": s, "relation": r, "object": o, **kw})


def _lists(query: str, response: str, found: Sequence[Claim]) -> list[SetClaim]:
    sentences = [((0, len(response)), response)]
    return whole_lists(found, query, sentences, CATALOG, lambda n, r: STORED.get((n, r), []), response)


def _dialects(response: str, *values: str, **kw: object) -> list[Claim]:
    return [_triple("Orvin Bay", "has_dialect", v, (0, len(response)), **kw) for v in values]


@pytest.mark.parametrize(
    "response",
    [
        "Orvin Bay's dialects are Tessic and Brannish.",
        "The dialects of Orvin Bay are Tessic and Brannish.",
        "Its dialects are Tessic and Brannish, spoken in Orvin Bay.",
        "Only Tessic and Brannish are spoken as dialects of Orvin Bay.",
    ],
)
def test_a_definite_or_only_list_is_whole(response: str) -> None:
    """The relation's noun after "the" / a possessive, or "only", gives the list as whole."""
    (found,) = _lists("Tell me about Orvin Bay.", response, _dialects(response, "Tessic", "Brannish"))
    assert found.said_whole and found.candidates == ("Tessic", "Brannish")
    assert found.conditions[0].other == "Orvin Bay" and found.conditions[0].relation == "has_dialect"


@pytest.mark.parametrize(
    "response",
    [
        "A dialect of Orvin Bay is Tessic, and another is Brannish.",
        "The dialects of Orvin Bay include Tessic and Brannish.",
        "Tessic and Brannish are among the dialects of Orvin Bay.",
        "The main dialects of Orvin Bay are Tessic and Brannish.",
        "The dialects of Orvin Bay are not only Tessic and Brannish.",
    ],
)
def test_a_hedged_negated_or_indefinite_list_is_not(response: str) -> None:
    """Indefinite, hedged and negated lists say their members, not that they are all."""
    assert _lists("Tell me about Orvin Bay.", response, _dialects(response, "Tessic", "Brannish")) == []


def test_a_past_or_dated_list_and_an_undeclared_relation_are_not() -> None:
    """Only present-tense, undated lists of a relation declared complete."""
    r = "The dialects of Orvin Bay were Tessic and Brannish."
    assert _lists("", r, _dialects(r, "Tessic", "Brannish", past=True)) == []
    assert _lists("", r, _dialects(r, "Tessic", "Brannish", year=1800)) == []
    r = "The patrons of Orvin Bay are Tova Brenn and Ansel Krane."
    assert (
        _lists("", r, [_triple("Orvin Bay", "has_patron", n, (0, len(r))) for n in ("Tova Brenn", "Ansel Krane")]) == []
    )


def test_a_value_named_elsewhere_counts_as_listed() -> None:
    """A stored value the response names in another sentence is no value the list leaves out."""
    r = "The dialects of Orvin Bay are Tessic and Brannish. Olmic is heard there too."
    (found,) = _lists("", r, [_triple("Orvin Bay", "has_dialect", v, (0, 50)) for v in ("Tessic", "Brannish")])
    assert set(found.candidates) == {"Tessic", "Brannish", "Olmic"}


def test_an_answer_to_a_question_for_every_value_is_whole() -> None:
    """A question that asks for all ("Which ports ...?") makes its answer's claims a whole list."""
    r = "Orvin Bay trades with Harnby."
    answer = _triple("Harnby", "trades_with", "Orvin Bay", None).model_copy(update={"origin": ClaimOrigin.QUERY})
    found = [_triple("Orvin Bay", "trades_with", "Harnby", (0, len(r))), answer]
    (whole,) = _lists("Which ports does Orvin Bay trade with?", r, found)
    assert whole.conditions[0].other == "Orvin Bay" and whole.candidates == ("Harnby",)
    assert _lists("Does Orvin Bay trade with Harnby?", r, found[:1]) == []


@pytest.mark.parametrize(
    ("query", "all_asked"),
    [
        ("Which ports does Orvin Bay trade with?", True),
        ("What are the dialects of Orvin Bay?", True),
        ("List the dialects of Orvin Bay.", True),
        ("Which port trades with Orvin Bay?", False),
        ("Name a dialect of Orvin Bay.", False),
        ("What is the dialect of Orvin Bay?", False),
    ],
)
def test_asks_all(query: str, all_asked: bool) -> None:
    """A plural "which / what", "what are", "list the ..." ask for every value; a singular or "a" does not."""
    assert asks_all(nlp()(query)) is all_asked
