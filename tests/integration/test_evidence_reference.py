"""The evidence reader on names and reference: aliases, acronyms, a person's name, pronouns and passages.

Sentences here are written for these tests (no evaluation text).
"""

from __future__ import annotations

import pytest

from agents.reading.evidence.reader import EvidenceReader
from agents.reading.evidence.support import EvidenceDecision
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource
from tests.integration.evidence_reading import read

pytestmark = pytest.mark.integration


def test_a_pronoun_carries_the_previous_sentences_names(reader: EvidenceReader) -> None:
    decision, _, cited = read(reader, "Marie Curie won a second Nobel Prize.")
    assert decision == EvidenceDecision.SUPPORTED and "S1.3" in cited


def test_places_and_groups_are_found_by_their_aliases_but_not_by_common_words(reader: EvidenceReader) -> None:
    text = "The group toured Britain in 1999. The label was based in the U.S. for a decade. It told us nothing."
    assert read(reader, "The group toured the United Kingdom in 1999.", text=text)[0] == EvidenceDecision.SUPPORTED
    assert read(reader, "The label was based in the United States.", text=text)[0] == EvidenceDecision.SUPPORTED
    told = "They told us nothing."
    assert read(reader, "They told the United States nothing.", text=told)[0] != EvidenceDecision.SUPPORTED
    french = "The chef trained in France for six years."
    assert read(reader, "The chef had French training.", text=french)[2] == ["S1"]


def test_a_dotted_acronym_is_one_name_and_never_a_pronoun(reader: EvidenceReader) -> None:
    text = "The treaty was signed in Washington, D.C. in 1949. They told us nothing."
    assert read(reader, "The treaty was signed in Washington, DC.", text=text)[0] == EvidenceDecision.SUPPORTED
    assert read(reader, "They told the U.S. nothing.", text="They told us nothing.")[0] != EvidenceDecision.SUPPORTED


def test_a_definite_description_speaks_of_the_previous_subject(reader: EvidenceReader) -> None:
    text = "Kestrel sponsors the Harbour Cup. The firm moved to Leeds."
    found, reason, cited = read(reader, "Kestrel moved to Leeds.", text=text)
    assert found == EvidenceDecision.SUPPORTED and cited == ["S1.2"], reason


def test_a_name_counts_as_stated_about_the_claim_within_its_passage_not_across_items(
    reader: EvidenceReader,
) -> None:
    """The claim's other names may stand in a neighbouring sentence of the same item, not in another item."""
    passage = "Lena Moss wrote the novel Tidewater. The book sold a million copies. Critics praised the prose."
    claim = "Tidewater sold a million copies."
    assert read(reader, claim, text=passage)[0] == EvidenceDecision.SUPPORTED
    items = [
        EvidenceItem(id="S1", source=EvidenceSource.SUPPLIED, text="Lena Moss wrote the novel Tidewater."),
        EvidenceItem(id="S2", source=EvidenceSource.SUPPLIED, text="A thriller sold a million copies."),
    ]
    sentences = reader.sentences(items)
    assert reader.read("", claim, sentences).decision != EvidenceDecision.SUPPORTED


@pytest.mark.parametrize(
    ("claim", "decision"),
    [
        ("Mira has three moons.", EvidenceDecision.REFUTED),
        ("Mira has two moons.", EvidenceDecision.SUPPORTED),
        ("Ket has two moons.", EvidenceDecision.REFUTED),
        ("Ket has three moons.", EvidenceDecision.SUPPORTED),
    ],
)
def test_a_sentence_is_about_its_passage_unless_its_subject_names_another(
    reader: EvidenceReader, claim: str, decision: EvidenceDecision
) -> None:
    text = "The planet Mira is small. It has two moons. The planet Ket has three moons."
    found, reason, _ = read(reader, claim, text=text)
    assert found == decision, reason


def test_a_persons_name_is_matched_in_its_order_and_by_a_family_name_standing_alone(reader: EvidenceReader) -> None:
    text = (
        "The song Blue Harbour was recorded by Lena Moss in 1961. Moss later sang it on television."
        " Moss Dalton produced the record."
    )
    assert read(reader, "Lena Moss recorded Blue Harbour.", text=text)[0] == "supported"
    assert read(reader, "Lena Moss sang Blue Harbour on television.", text=text)[0] == "supported"
    assert read(reader, "Moss Lena recorded Blue Harbour.", text=text)[0] != "supported"  # words swapped: another name
    assert read(reader, "Kai Dalton produced the record.", text=text)[0] != "supported"  # another Dalton


def test_a_sentence_opening_with_an_unresolved_pronoun_speaks_of_the_claims_subject(reader: EvidenceReader) -> None:
    """A passage cut from a page without its title: "He was ..." is about the person the claim names."""
    text = "He was chief of the harbour office from 1963 to 1969."
    assert read(reader, "Marta Keller was chief of the harbour office.", text=text)[0] == "supported"
    assert read(reader, "The Orvin shipyard was chief of the harbour office.", text=text)[0] != "supported"
    founded = "It was founded in 1852 by Ida Brandt on the northern cape."
    assert read(reader, "The Orvin shipyard was founded in 1852.", text=founded)[0] == "supported"
    decision, reason, _ = read(reader, "The Orvin shipyard was founded in 1901.", text=founded)
    assert decision == "refuted" and "1852" in reason
    # a sentence that names its own subject keeps it: "its" is Paris's
    assert (
        read(reader, "Lyon's population is two million.", text="Paris is large; its population is two million.")[0]
        != "supported"
    )
    # resolved by the sentence before it: not the claim's
    resolved = "Ada Brisk ran the harbour office. He was chief of the shipyard from 1963."
    assert read(reader, "Marta Keller was chief of the shipyard.", text=resolved)[0] != "supported"
    # the answer to "who" is no topic of its own: the pronoun may not be bound to it
    query = "Who was chief of the harbour office?"
    assert read(reader, "Tomas Keller was chief of the harbour office.", query, text)[0] != "supported"
    assert read(reader, "Tomas Keller", query, text)[0] != "supported"
    when = "When was Tomas Keller chief of the harbour office?"  # the query names him: the passage may be his
    assert read(reader, "Tomas Keller was chief of the harbour office from 1963.", when, text)[0] == "supported"
    # a definite description names a kind: "The lake" is not the claim's town
    lake = "The reservoir was filled in 1951 and covered the old hamlet of Dunmere."
    assert read(reader, "Marwick is a hamlet that the reservoir covered.", text=lake)[0] != "supported"
