"""Supplied relation labels read by their grammar and WordNet, and supplied values read as complete (real verifier).

Real spaCy, embeddings (all-MiniLM-L6-v2), WordNet and SWI-Prolog; names and wordings written for
these tests, none taken from a benchmark.
"""

from __future__ import annotations

import pytest

from agents.verifier.runner import Verifier
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import Decision, VerifyRequest

pytestmark = [pytest.mark.integration, pytest.mark.slow]


WORKS: list[list[str] | str] = [
    ["Orchid Tide", "director", "Ansel Krane"],
    ["Orchid Tide", "follows", "The Pale Choir"],
    ["Orchid Tide", "original language", "French"],
    ["The Pale Choir", "original language", "Danish"],
    ["Ysolde Borr", "child", "Kalán Borr"],
]


@pytest.mark.parametrize(
    ("query", "response", "label"),
    [
        ("Did Ansel Krane direct Orchid Tide?", "Yes.", Label.FACTUAL),  # WordNet: "director" is who directs
        ("Is it true that Ansel Krane did not direct Orchid Tide?", "Yes.", Label.NON_FACTUAL),
        ("Is it true that The Pale Choir was followed by Orchid Tide?", "Yes, it was.", Label.FACTUAL),
        ("Is it true that Orchid Tide was followed by The Pale Choir?", "Yes.", Label.NON_FACTUAL),
        ("Is Kalan Borr a child of Ysolde Borr?", "Yes.", Label.FACTUAL),  # the triples write "Kalán"
        # a catalog claim said by the supplied label: "mother" is a "parent", the converse of "child"
        ("Who is the mother of Kalán Borr?", "Kalán Borr's mother is Ysolde Borr.", Label.FACTUAL),
        ("Is Ysolde Borr the mother of Kalán Borr?", "No, she is not his mother.", Label.NON_FACTUAL),
    ],
)
def test_label_grammar_with_real_wordnet(verifier: Verifier, query: str, response: str, label: Label) -> None:
    v = verifier.verify(VerifyRequest(query=query, response=response, evidence=WORKS))
    assert v.label == label, v.explanation


KIN: list[list[str] | str] = [["Tamsin Orrey", "mother", "Brisa Orrey"], ["Tamsin Orrey", "sibling", "Oded Orrey"]]


@pytest.mark.parametrize(
    ("query", "response", "label"),
    [
        # WordNet defines "mother" as "a woman who has given birth to a child": who gives birth is the mother
        ("Did Brisa Orrey give birth to Tamsin Orrey?", "Yes, she did.", Label.FACTUAL),
        ("Is it true that Brisa Orrey gave birth to Tamsin Orrey?", "No.", Label.NON_FACTUAL),
    ],
)
def test_a_verb_a_person_noun_is_defined_by_links_to_it(
    verifier: Verifier, query: str, response: str, label: Label
) -> None:
    v = verifier.verify(VerifyRequest(query=query, response=response, evidence=KIN))
    assert v.label == label, v.explanation


def test_agent_nouns_come_from_wordnet_definitions() -> None:
    from agents.reading.candidates.wordnet_related import WordNetRelated
    from drowzee_core.config import home
    from drowzee_core.kb.sources.wordnet import load_wordnet

    related = WordNetRelated(load_wordnet(home()))
    assert "mother" in related.agent_nouns("give birth")  # "a woman who has given birth to a child"
    assert "resident" in related.agent_nouns("live")  # "someone who lives at a particular place ..."
    assert not {"native", "aborigine"} & related.agent_nouns("bear")  # "who was born": a patient, no doer


def test_agent_nouns_come_from_wordnet_derivations() -> None:
    from agents.reading.candidates.wordnet_related import WordNetRelated
    from drowzee_core.config import home
    from drowzee_core.kb.sources.wordnet import load_wordnet

    related = WordNetRelated(load_wordnet(home()))
    assert "publisher" in related.agent_nouns("publish")
    assert "trainer" in related.agent_nouns("train") and "trainee" not in related.agent_nouns("train")
    assert related.agent_nouns("coach") == frozenset()  # the same word: no derivation says who is whose
    assert "founder" in related.agent_nouns("found")
    assert "father" not in related.agent_nouns("found")  # a synonym of "founder" in a sense "father" seldom has
    assert {"writer", "author"} <= related.agent_nouns("write")  # the synonym's own first sense: it counts
    assert "child" in related("father").converse  # a converse of its hypernym "parent"
    assert "mother" not in related("father").converse  # two parents: co-hyponyms, no converse


@pytest.mark.parametrize(
    ("query", "response", "label", "decision"),
    [
        # the triples give both films a language and none is shared: their values decide "same" / "different"
        (
            "Do Orchid Tide and The Pale Choir have the same original language?",
            "No.",
            Label.FACTUAL,
            Decision.SUPPORTED,
        ),
        (
            "Do Orchid Tide and The Pale Choir have the same original language?",
            "Yes.",
            Label.NON_FACTUAL,
            Decision.REFUTED,
        ),
        (
            "Are Orchid Tide and The Pale Choir in different original languages?",
            "Yes.",
            Label.FACTUAL,
            Decision.SUPPORTED,
        ),
    ],
)
def test_supplied_values_decide_same_and_different(
    verifier: Verifier, query: str, response: str, label: Label, decision: Decision
) -> None:
    v = verifier.verify(VerifyRequest(query=query, response=response, evidence=WORKS))
    assert (v.label, v.decision) == (label, decision), v.explanation
    [claim] = [c for c in v.claims if c.proof is not None]
    assert claim.proof is not None and claim.proof.rule == "distinct_supplied_values"
    assert "French" in claim.proof.text and "Danish" in claim.proof.text


def test_a_name_with_no_supplied_value_leaves_same_and_different_open(verifier: Verifier) -> None:
    # the triples give Kalán Borr no original language: nothing says whether it shares one
    v = verifier.verify(
        VerifyRequest(
            query="Do Orchid Tide and Kalán Borr have different original languages?", response="Yes.", evidence=WORKS
        )
    )
    assert v.decision != Decision.SUPPORTED and all(c.status == ProofStatus.UNKNOWN for c in v.claims), v.explanation


@pytest.mark.parametrize("answer", ["Yes.", "No."])
def test_the_asked_place_is_the_claim_not_a_given_of_the_question(verifier: Verifier, answer: str) -> None:
    # the triples name another place: neither "it did" nor "it did not" is stated by them
    triples: list[list[str] | str] = [["Kessel Regatta", "location", "Fenwick Harbour"]]
    v = verifier.verify(
        VerifyRequest(query="Did the Kessel Regatta take place in Marrow Bay?", response=answer, evidence=triples)
    )
    # "Yes" names a place the evidence never mentions: unsupported; "No" denies it, which may well hold: open
    want = Decision.UNSUPPORTED if answer == "Yes." else Decision.UNDECIDED
    assert v.decision == want and (want == Decision.UNDECIDED or v.label == Label.NON_FACTUAL), v.explanation
    assert all(c.status == ProofStatus.UNKNOWN for c in v.claims), [(c.text, c.status) for c in v.claims]
    assert (
        "Marrow Bay" in v.explanation
        and "mention case" not in v.explanation
        and f'"{answer[:-1]}"' not in v.explanation
    )


def test_a_partial_reading_of_the_question_takes_nothing_as_given(verifier: Verifier) -> None:
    # "the memorial site" reads as the label "location" with more said (partial): the triples name another place
    triples: list[list[str] | str] = [["Battle of Ostra", "location", "Varn"]]
    v = verifier.verify(
        VerifyRequest(query="Was the memorial site for the Battle of Ostra at Kell?", response="Yes.", evidence=triples)
    )
    assert v.label == Label.NON_FACTUAL and v.decision == Decision.UNSUPPORTED, v.explanation
    read = [c for c in v.claims if c.reading is not None and c.reading.relation == "location"]
    assert read and all(c.status == ProofStatus.UNKNOWN for c in read), [(c.text, c.status) for c in v.claims]


def test_wordnet_says_what_a_name_is_for_a_definite_description() -> None:
    from agents.reading.candidates.wordnet_related import WordNetRelated
    from drowzee_core.config import home
    from drowzee_core.kb.sources.wordnet import load_wordnet

    related = WordNetRelated(load_wordnet(home()))
    assert related.describes("Kenya", "country") and related.describes("Nairobi", "city")
    assert related.describes("Fred Beethoven", "composer")  # the surname's senses, for a full name WordNet lacks
    assert not related.describes("Kenya", "city")
    assert not related.describes("Tova Brenn", "philosopher")  # a name WordNet does not know
