"""The evidence reader on real spaCy, WordNet and embeddings: sentences, conflicts, support, what is missing.

Sentences here are written for these tests (no evaluation text).
"""

from __future__ import annotations

import pytest

from agents.reading.evidence.reader import EvidenceReader, finding_of
from agents.reading.evidence.support import EvidenceDecision
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource
from tests.integration.evidence_reading import TEXT, read

pytestmark = pytest.mark.integration

RIVERS = "The Danube flows through Vienna and Budapest. The Rhine flows through Basel and Cologne."
BRIDGES = (
    "The Kessel Bridge is a steel arch bridge opened in 1932 over the Varn. "
    "The Orlen Viaduct, a railway viaduct, was completed in 1887."
)


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


def test_what_the_evidence_lacks_is_named(reader: EvidenceReader) -> None:
    decision, reason, _ = read(reader, "Insulin was isolated in Berlin.")
    assert decision == EvidenceDecision.NOT_ENOUGH_INFO and "Berlin" in reason


def absent(reader: EvidenceReader, claim: str, query: str = "", text: str = TEXT) -> tuple[str, list[str]]:
    """A claim's decision and the content units no sentence of the evidence mentions."""
    items = [EvidenceItem(id="S1", source=EvidenceSource.SUPPLIED, text=text)]
    sentences = reader.sentences(items)
    f = finding_of(reader.read(query, claim, sentences), sentences)
    return f.decision, f.absent


@pytest.mark.parametrize(
    ("claim", "query", "expected"),
    [
        ("Insulin was isolated in Berlin.", "", ["Berlin"]),  # a name the evidence never mentions
        ("Insulin was first isolated in 1931.", "", []),  # refuted instead (1921): nothing absent
        ("Marie Curie painted radium in 1898.", "", []),  # a predicate verb is never absent: open (below)
        ("Charles Best won a Nobel Prize.", "", []),  # all mentioned, not together: open
        ("Frederick Banting was awarded a prize by Sweden.", "", ["Sweden"]),
        ("Banting was born in 1891.", "", ["1891"]),  # a number the evidence never gives
        ("Marie Curie was a sailor.", "", ["sailor"]),  # a copular claim's attribute noun
        ("Frederick Grant Banting isolated insulin in Toronto.", "", []),  # a longer name mentions it
        # a word of another name is no short name: "University" of "the University of Toronto"
        ("Insulin was first isolated at the University of Manitoba.", "", ["University of Manitoba"]),
        ("Yes.", "Was insulin isolated in Berlin?", ["Berlin"]),  # Yes to what the evidence never mentions
        ("No.", "Was insulin isolated in Berlin?", []),  # No to it may well hold
        ("Insulin was not isolated in Berlin.", "", []),  # a denial of what the evidence never mentions
    ],
)
def test_content_units_the_evidence_never_mentions_are_named_absent(
    reader: EvidenceReader, claim: str, query: str, expected: list[str]
) -> None:
    decision, units = absent(reader, claim, query)
    assert units == expected, (decision, units)
    if expected:
        assert decision == EvidenceDecision.NOT_ENOUGH_INFO


@pytest.mark.parametrize(
    ("claim", "text", "expected"),
    [
        ("The Nile flows into the Red Sea.", "The Nile drains into the Mediterranean Sea.", ["Red Sea"]),
        ("Barack Obama visited Kenya.", "President Obama visited Kenya in 2015.", []),  # a title is no other name
        ("Newton published the Principia.", "Isaac Newton's Principia appeared in 1687.", []),
    ],
)
def test_a_short_name_is_a_word_of_the_name_standing_alone(
    reader: EvidenceReader, claim: str, text: str, expected: list[str]
) -> None:
    assert absent(reader, claim, text=text)[1] == expected


def test_a_predicate_verb_the_evidence_never_says_keeps_the_other_units_from_supporting(
    reader: EvidenceReader,
) -> None:
    decision, reason, _ = read(reader, "Marie Curie painted radium in 1898.")
    assert decision == EvidenceDecision.NOT_ENOUGH_INFO
    assert reason.startswith('the evidence never says "painted" (nor a word related to it)')
    decision, _, _ = read(reader, "Marie Curie discovered radium in 1898.")  # said, in the passive
    assert decision == EvidenceDecision.SUPPORTED


def test_the_year_of_a_fuller_date_fills_its_role(reader: EvidenceReader) -> None:
    text = "The Kessel Bridge, designed by a local firm, was opened in March 1932 over the Varn."
    decision, _, cited = read(reader, "The Kessel Bridge was opened in 1932.", text=text)
    assert (decision, cited) == (EvidenceDecision.SUPPORTED, ["S1"])
    decision, reason, _ = read(reader, "The Kessel Bridge was opened in 1935.", text=text)
    assert decision == EvidenceDecision.REFUTED and reason == "the evidence gives 1932 [S1], not 1935"


@pytest.mark.parametrize(
    ("claim", "decision", "reason"),
    [
        ("The Kessel Bridge was opened in June 1932.", "refuted", "the evidence gives March [S1], not June"),
        ("The Kessel Bridge was opened on 4 March 1932.", "not enough info", "the evidence does not mention 4"),
        ("The Kessel Bridge was opened in Mar. 1932.", "supported", None),
    ],
)
def test_a_month_is_a_value_of_its_date(reader: EvidenceReader, claim: str, decision: str, reason: str | None) -> None:
    text = "The Kessel Bridge, designed by a local firm, was opened in March 1932 over the Varn."
    got, why, _ = read(reader, claim, text=text)
    assert got == decision and (reason is None or why == reason)


def test_a_date_under_on_and_under_in_is_one_role(reader: EvidenceReader) -> None:
    text = "The Orlan Accord was signed on 14 May 1920 in Geneva."
    decision, reason, _ = read(reader, "The Orlan Accord was signed in June 1920.", text=text)
    assert decision == EvidenceDecision.REFUTED and reason == "the evidence gives May [S1], not June"
    decision, _, _ = read(reader, "The Orlan Accord was signed in May 1920.", text=text)
    assert decision == EvidenceDecision.SUPPORTED


def test_the_month_of_an_iso_date_is_its_month(reader: EvidenceReader) -> None:
    text = "Orlan Accord signing date 1920-05-14 (place: Geneva)."
    decision, reason, _ = read(reader, "The Orlan Accord was signed on 14 June 1920.", text=text)
    assert decision == EvidenceDecision.NOT_ENOUGH_INFO and reason == "the evidence does not mention June"
    decision, reason, _ = read(reader, "The Orlan Accord was signed on 14 May 1920.", text=text)
    assert "does not mention" not in reason


def test_a_month_word_outside_a_date_is_no_month(reader: EvidenceReader) -> None:
    text = "Ilse May served on the Varn council from 1977."
    decision, _, _ = read(reader, "Ilse May served on the council.", text=text)
    assert decision == EvidenceDecision.SUPPORTED


def test_a_definite_description_of_the_claims_own_kind_may_speak_of_its_subject(reader: EvidenceReader) -> None:
    text = "The film was released in 2004 and directed by Ana Ruiz."
    decision, reason, _ = read(reader, "Blue Orchard is a 2004 film.", text=text)
    assert decision == EvidenceDecision.NOT_ENOUGH_INFO and "does not mention" not in reason
    decision, reason, _ = read(reader, "Blue Orchard is a 2004 novel.", text=text)
    assert "does not mention Blue Orchard" in reason  # "the film" is no novel


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


@pytest.mark.parametrize(
    ("query", "claim", "text"),
    [
        # the negation hangs on "be"; the predicate is its adjective or noun
        (
            "Is the Varn ferry free on Sundays?",
            "The Varn ferry is free on Sundays.",
            "The Varn ferry is not free on Sundays.",
        ),
        ("", "The Kessel Bridge is not a toll bridge.", "The Kessel Bridge is a toll bridge over the Varn."),
    ],
)
def test_a_copula_the_evidence_negates_the_other_way_refutes(
    reader: EvidenceReader, query: str, claim: str, text: str
) -> None:
    found, reason, _ = read(reader, claim, query, text)
    assert found == EvidenceDecision.REFUTED, reason


def test_a_denial_in_the_evidence_supports_the_same_denial(reader: EvidenceReader) -> None:
    text = "The Elbe does not flow through Vienna. The Danube flows through Vienna."
    found, reason, cited = read(reader, "The Elbe does not flow through Vienna.", text=text)
    assert found == EvidenceDecision.SUPPORTED and cited == ["S1.1"], reason


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


def test_a_judged_statement_presupposes_nothing_of_what_it_names(reader: EvidenceReader) -> None:
    # the place is what the question asks about: a restatement of it is no given, and the evidence lacks it
    for q in ("Was insulin first isolated in Berlin?", "Insulin was first isolated in Berlin. Is this true?"):
        decision, reason, _ = read(reader, "No, insulin was first isolated in Berlin.", q)
        assert decision == EvidenceDecision.NOT_ENOUGH_INFO and "Berlin" in reason, (q, decision, reason)
    # a wh-question's own names are given: only the answer must be stated
    assert read(reader, "Insulin was first isolated in 1921.", "When was insulin first isolated?")[0] == (
        EvidenceDecision.SUPPORTED
    )
