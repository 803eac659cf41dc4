"""The evidence reader on real spaCy, WordNet and embeddings: sentences, conflicts, support, what is missing.

Sentences here are written for these tests (no evaluation text).
"""

from __future__ import annotations

import pytest

from agents.reading.evidence_reader import EvidenceReader, default_reader, finding_of
from agents.reading.support import EvidenceDecision
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource

pytestmark = pytest.mark.integration

TEXT = (
    "Insulin was first isolated in 1921 by Frederick Banting and Charles Best at the University of Toronto. "
    "Radium was discovered by Marie Curie in 1898. "
    "She later won a second Nobel Prize."
)


@pytest.fixture(scope="module")
def reader() -> EvidenceReader:
    return default_reader()


def read(reader: EvidenceReader, claim: str, query: str = "", text: str = TEXT) -> tuple[str, str, list[str]]:
    items = [EvidenceItem(id="S1", source=EvidenceSource.SUPPLIED, text=text)]
    sentences = reader.sentences(items)
    f = finding_of(reader.read(query, claim, sentences), sentences)
    return f.decision, f.reason, [s.id for s in f.sentences]


def test_sentences_are_cited_by_item_and_number(reader: EvidenceReader) -> None:
    items = [EvidenceItem(id="S1", source=EvidenceSource.SUPPLIED, text=TEXT)]
    assert [s.id for s in reader.sentences(items)] == ["S1.1", "S1.2", "S1.3"]


def test_a_restated_claim_is_supported_by_its_sentence(reader: EvidenceReader) -> None:
    decision, _, cited = read(reader, "Banting and Best isolated insulin in 1921.")
    assert (decision, cited) == (EvidenceDecision.SUPPORTED, ["S1.1"])


def test_another_year_for_the_same_event_refutes(reader: EvidenceReader) -> None:
    decision, reason, cited = read(reader, "Insulin was first isolated in 1925.")
    assert decision == EvidenceDecision.REFUTED and cited == ["S1.1"]
    assert reason == "the evidence gives 1921 [S1.1], not 1925"


def test_another_person_in_the_same_role_refutes_even_when_named_elsewhere(reader: EvidenceReader) -> None:
    decision, reason, _ = read(reader, "Insulin was isolated by Marie Curie.", "Who isolated insulin?")
    assert decision == EvidenceDecision.REFUTED
    assert "not Marie Curie" in reason


def test_names_from_two_unrelated_sentences_do_not_support(reader: EvidenceReader) -> None:
    decision, _, _ = read(reader, "Marie Curie worked at the University of Toronto.")
    assert decision != EvidenceDecision.SUPPORTED


def test_a_pronoun_carries_the_previous_sentences_names(reader: EvidenceReader) -> None:
    decision, _, cited = read(reader, "Marie Curie won a second Nobel Prize.")
    assert decision == EvidenceDecision.SUPPORTED and "S1.3" in cited


def test_what_the_evidence_lacks_is_named(reader: EvidenceReader) -> None:
    decision, reason, _ = read(reader, "Insulin was isolated in Berlin.")
    assert decision == EvidenceDecision.NOT_ENOUGH_INFO and "Berlin" in reason


def test_a_yes_no_answer_is_read_with_its_question(reader: EvidenceReader) -> None:
    q = "Was radium discovered by Marie Curie?"
    assert read(reader, "Yes.", q)[0] == EvidenceDecision.SUPPORTED
    assert read(reader, "No.", q)[0] == EvidenceDecision.REFUTED


ROLES = (
    "Maria Lopez beat Anna Berg in the final to win the 1990 Oslo Open. "
    "The bridge has a main span of 410 metres and a total length of 1200 metres. "
    "The two towns do not share a school."
)


def test_a_name_in_another_role_of_the_same_verb_refutes(reader: EvidenceReader) -> None:
    decision, reason, _ = read(reader, "Anna Berg won the 1990 Oslo Open.", text=ROLES)
    assert decision == EvidenceDecision.REFUTED and reason == "the evidence gives Maria Lopez [S1.1], not Anna Berg"
    assert read(reader, "Maria Lopez won the 1990 Oslo Open.", text=ROLES)[0] == EvidenceDecision.SUPPORTED


def test_a_number_of_another_measure_does_not_support(reader: EvidenceReader) -> None:
    decision, reason, _ = read(reader, "The bridge has a main span of 1200 metres.", text=ROLES)
    assert decision == EvidenceDecision.REFUTED and "410" in reason
    assert read(reader, "The bridge's main span is 410 metres.", text=ROLES)[0] == EvidenceDecision.SUPPORTED


def test_an_affirmed_verb_against_a_negated_one_refutes(reader: EvidenceReader) -> None:
    decision, reason, cited = read(reader, "The two towns share a school.", text=ROLES)
    assert decision == EvidenceDecision.REFUTED and cited == ["S1.3"]
    assert reason == 'the evidence says "not share" [S1.3] where the claim says "share"'


def test_a_rival_agent_in_a_synonymous_frame_refutes(reader: EvidenceReader) -> None:
    text = "The Harbour Tower was completed in 1931. It was designed by the engineering firm of Hal Berg."
    q = "Who designed the Harbour Tower?"
    decision, reason, _ = read(reader, "It was designed by Tova Lind.", q, text=text)
    assert decision == EvidenceDecision.REFUTED and reason == "the evidence gives Hal Berg [S1.2], not Tova Lind"
    assert read(reader, "The Harbour Tower was finished in 1925.", text=text)[0] == EvidenceDecision.REFUTED


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


RIVERS = "The Danube flows through Vienna and Budapest. The Rhine flows through Basel and Cologne."


@pytest.mark.parametrize(
    ("query", "answer", "decision"),
    [
        ("Which river flows through Cologne?", "The Rhine", EvidenceDecision.SUPPORTED),
        ("Which river flows through Cologne?", "The Danube", EvidenceDecision.REFUTED),
        ("Which river flows through Cologne, the Danube or the Rhine?", "The Rhine", EvidenceDecision.SUPPORTED),
        ("Which river flows through Cologne, the Danube or the Rhine?", "The Danube", EvidenceDecision.REFUTED),
        ("Which river flows through Cologne, the Danube or the Elbe?", "The Elbe", EvidenceDecision.NOT_ENOUGH_INFO),
    ],
)
def test_a_short_answer_is_read_as_the_statement_it_makes_with_its_question(
    reader: EvidenceReader, query: str, answer: str, decision: EvidenceDecision
) -> None:
    """The answer's words are its claim, even when a choice list in the question names them."""
    found, reason, _ = read(reader, answer, query, RIVERS)
    assert found == decision, reason


def test_a_title_or_a_stop_word_answer_is_still_the_claim(reader: EvidenceReader) -> None:
    """A title that parses as a clause, or an answer of stop words, is read as the name it is."""
    text = "The quiz show Who Wants Money was hosted by Ada Lowe from 1990. She also wrote the novel Others."
    decision, reason, _ = read(reader, "Who Wants Money", "Ada Lowe hosted which quiz show?", text)
    assert decision == EvidenceDecision.SUPPORTED, reason
    decision, reason, _ = read(reader, "Others", "Which novel did Ada Lowe write?", text)
    assert decision == EvidenceDecision.SUPPORTED, reason
    assert read(reader, "Tomorrow", "Which novel did Ada Lowe write?", text)[0] != EvidenceDecision.SUPPORTED


@pytest.mark.parametrize(
    ("claim", "decision"),
    [
        ("The Rhine does not flow through Cologne.", EvidenceDecision.REFUTED),
        ("The Rhine never flows through Basel.", EvidenceDecision.REFUTED),
        ("The Danube does not flow through Cologne.", EvidenceDecision.NOT_ENOUGH_INFO),
        ("The Danube is not only a river but also a border.", EvidenceDecision.SUPPORTED),
    ],
)
def test_a_claim_denying_what_the_evidence_states_is_not_supported(
    reader: EvidenceReader, claim: str, decision: EvidenceDecision
) -> None:
    found, reason, _ = read(reader, claim, text=f"{RIVERS} The Danube is a river and a border.")
    assert found == decision, reason


def test_a_denial_in_the_evidence_supports_the_same_denial(reader: EvidenceReader) -> None:
    text = "The Elbe does not flow through Vienna. The Danube flows through Vienna."
    found, reason, cited = read(reader, "The Elbe does not flow through Vienna.", text=text)
    assert found == EvidenceDecision.SUPPORTED and cited == ["S1.1"], reason


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


BRIDGES = (
    "The Kessel Bridge is a steel arch bridge opened in 1932 over the Varn. "
    "The Orlen Viaduct, a railway viaduct, was completed in 1887."
)


@pytest.mark.parametrize(
    ("query", "answer", "decision"),
    [
        ("Which was built first, the Kessel Bridge or the Orlen Viaduct?", "The Orlen Viaduct", "supported"),
        ("Which was built first, the Kessel Bridge or the Orlen Viaduct?", "The Kessel Bridge.", "refuted"),
        ("Which is newer, the Kessel Bridge or the Orlen Viaduct?", "The Kessel Bridge is newer.", "supported"),
        ("Which is newer, the Kessel Bridge or the Orlen Viaduct?", "The Orlen Viaduct", "refuted"),
    ],
)
def test_two_choices_compared_in_time_are_decided_by_their_years(
    reader: EvidenceReader, query: str, answer: str, decision: str
) -> None:
    found, reason, cited = read(reader, answer, query, BRIDGES)
    assert found == decision and cited == ["S1.1", "S1.2"], reason
    assert "1932" in reason and "1887" in reason


def test_a_comparison_the_evidence_cannot_date_is_left_to_the_reading(reader: EvidenceReader) -> None:
    text = "The Kessel Bridge is a steel arch bridge over the Varn. The Orlen Viaduct was completed in 1887."
    found, reason, _ = read(
        reader, "The Kessel Bridge", "Which was built first, the Kessel Bridge or the Orlen Viaduct?", text
    )
    assert "dates" not in reason and found != EvidenceDecision.REFUTED


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


def test_a_noun_derived_from_the_claims_verb_is_no_head_of_its_frame(reader: EvidenceReader) -> None:
    """ "directed" is stated by "a film director" (with the person as the copula's subject), not refuted by it."""
    text = "Ada Lowe is a Danish film director. Tom Reed is a Danish painter."
    found, reason, cited = read(reader, "Ada Lowe directed films.", text=text)
    assert found == EvidenceDecision.SUPPORTED and cited == ["S1.1"], reason
    assert read(reader, "Tom Reed directed films.", text=text)[0] != EvidenceDecision.SUPPORTED


def test_a_response_that_answers_another_question_is_named(reader: EvidenceReader) -> None:
    query = "When was insulin first isolated?"
    assert reader.unanswered(query, "Insulin was first isolated in 1921.") is None
    why = reader.unanswered(query, "Insulin was first isolated at the University of Toronto.")
    assert why == "the question asks for a time (when), and the response gives none"
    assert reader.unanswered(query, "Yes.") is None
    assert reader.unanswered("What treats diabetes?", "Insulin treats diabetes.") is None


def test_a_conflict_needs_the_predicates_own_sense(reader: EvidenceReader) -> None:
    """WordNet lists "publish" among the senses of "write"; a book is often written years before it is published."""
    text = "The novel Grey Harbour by Lena Moss was published in 1994."
    decision, reason, _ = read(reader, "Lena Moss wrote Grey Harbour in 1990.", text=text)
    assert decision == EvidenceDecision.NOT_ENOUGH_INFO.value, reason
    decision, reason, cited = read(reader, "Lena Moss published Grey Harbour in 1990.", text=text)
    assert (decision, cited) == (EvidenceDecision.REFUTED.value, ["S1"]), reason


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


def test_a_denial_is_refuted_only_by_a_sentence_that_states_what_it_denies(reader: EvidenceReader) -> None:
    """The query gives the denied words; a sentence holding only the claim's name does not state them."""
    query = "Which ports lie on the Vell and do not run a night ferry?"
    decision, reason, _ = read(
        reader, "The port of Arnby does not run a night ferry.", query, "Arnby lies on the Vell."
    )
    assert decision == "not enough info", reason
    text = "The port of Arnby runs a night ferry to Kelm."
    decision, reason, _ = read(reader, "The port of Arnby does not run a night ferry.", query, text)
    assert decision == "refuted", reason


def test_a_phrasal_verb_is_read_as_one_word(reader: EvidenceReader) -> None:
    """ "passed away" is "pass away", a WordNet synonym of "die"; "passed" alone is not."""
    text = "Ida Brandt died in 1911 at her house in Kelm."
    assert read(reader, "Ida Brandt passed away in 1911.", text=text)[0] == "supported"
