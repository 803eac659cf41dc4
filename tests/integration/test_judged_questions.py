"""Judged statements, tags, denying frames and property words through the real verifier.

Real spaCy, embeddings (all-MiniLM-L6-v2), WordNet and SWI-Prolog; names and wordings written for
these tests, none taken from a benchmark.
"""

from __future__ import annotations

import pytest

from agents.verifier.runner import Verifier
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Decision, VerifyRequest

pytestmark = [pytest.mark.integration, pytest.mark.slow]


CAST: list[list[str] | str] = [
    ["Quillon Regatta", "location", "Brisk Bay"],
    ["Tessaly Vorn", "sex or gender", "female"],
    ["Orrin Dask", "mother", "Tessaly Vorn"],
]


@pytest.mark.parametrize(
    ("query", "response", "label"),
    [
        ("Quillon Regatta took place in Brisk Bay, didn't it?", "Yes.", Label.FACTUAL),  # the tag only turns
        ("Quillon Regatta took place in Brisk Bay, didn't it?", "No, it did not.", Label.NON_FACTUAL),
        ("Isn't Quillon Regatta located in Brisk Bay?", "Yes.", Label.FACTUAL),  # asks, does not deny
        ("Is it false that Orrin Dask's mother is Tessaly Vorn?", "No.", Label.FACTUAL),
        ("Is it false that Orrin Dask's mother is Tessaly Vorn?", "Yes, that is false.", Label.NON_FACTUAL),
        ("Tessaly Vorn is not the mother of Orrin Dask. Is this correct?", "No.", Label.FACTUAL),
        ("Tessaly Vorn is not the mother of Orrin Dask. Is this correct?", "Yes, it is.", Label.NON_FACTUAL),
        ("True or false: Tessaly Vorn is a woman.", "True.", Label.FACTUAL),  # WordNet: a woman is a female
        ("Is Tessaly Vorn a man?", "Yes, Tessaly Vorn is a man.", Label.NON_FACTUAL),  # a man is a male
        ("Is Tessaly Vorn male?", "No.", Label.FACTUAL),
        # a value qualifying a noun nothing supplies: its denial proves a "No", its truth proves no "Yes"
        ("Is Tessaly Vorn a male sailor?", "No.", Label.FACTUAL),
        ("Is Tessaly Vorn a female sailor?", "Yes.", Label.NON_FACTUAL),  # "sailor" is never mentioned
        ("Is Tessaly Vorn a female sailor?", "No.", None),  # denying what is never mentioned may hold: open
    ],
)
def test_judged_statements_with_real_readers(
    verifier: Verifier, query: str, response: str, label: Label | None
) -> None:
    v = verifier.verify(VerifyRequest(query=query, response=response, evidence=CAST))
    if label is None:
        assert v.decision == Decision.UNDECIDED, v.explanation
    else:
        assert v.label == label and v.decision != Decision.UNDECIDED, v.explanation
    if "sailor" in query:  # nothing says whether she sails: never a proof that the answer is wrong
        assert v.decision != Decision.REFUTED, v.explanation


def test_value_senses_come_from_wordnet() -> None:
    from agents.reading.candidates.wordnet_related import WordNetRelated
    from drowzee_core.config import home
    from drowzee_core.kb.sources.wordnet import load_wordnet

    related = WordNetRelated(load_wordnet(home()))
    assert related.means("woman", "female") is True  # a hyponym
    assert related.means("male", "female") is False  # an antonym
    assert related.means("man", "female") is False  # a hyponym of an antonym
    assert related.means("sailor", "female") is None


def test_agent_nouns_take_their_synonyms_and_specific_hypernyms() -> None:
    from agents.reading.candidates.wordnet_related import WordNetRelated
    from drowzee_core.config import home
    from drowzee_core.kb.sources.wordnet import load_wordnet

    related = WordNetRelated(load_wordnet(home()))
    assert "author" in related.agent_nouns("write")  # a synonym of "writer"
    assert "performer" in related.agent_nouns("sing")  # "singer" -> "musician" -> "performer"
    assert "person" not in related.agent_nouns("sing")  # too general to name a doer
