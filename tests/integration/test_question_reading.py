"""Yes / no questions over a pair's supplied triples, read as logic and decided by Prolog (real verifier).

Real spaCy, embeddings (all-MiniLM-L6-v2), WordNet and SWI-Prolog; names and wordings written for
these tests, none taken from a benchmark.
"""

from __future__ import annotations

import pytest

from agents.reading.claim_types import ClaimKind
from agents.verifier.runner import Verifier
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import Decision, VerifyRequest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TEAM: list[list[str] | str] = [
    ["Ama Reyes", "coach", "Lio Marsh"],
    ["Tam Oduya", "coach", "Lio Marsh"],
    ["Kiri Voss", "coach", "Pell Arno"],
]


@pytest.mark.parametrize(
    ("query", "response", "label"),
    [
        ("Is it true that Ama Reyes and Tam Oduya have the same coach?", "Yes.", Label.FACTUAL),
        ("Is it true that Ama Reyes and Tam Oduya have the same coach?", "No, they do not.", Label.NON_FACTUAL),
        ("Do Ama Reyes and Tam Oduya have different coaches?", "Yes, they do.", Label.NON_FACTUAL),
        ("Is it possible for Lio Marsh to be the coach of Ama Reyes?", "No.", Label.NON_FACTUAL),
        ("Pell Arno is not the coach of Kiri Voss. Please check this statement.", "Yes.", Label.NON_FACTUAL),
        # the answer's own sentences are read too, before its Yes / No is joined with the question
        (
            "Is it true that Ama Reyes and Tam Oduya have the same coach?",
            "No. Lio Marsh is the coach of Ama Reyes. Tam Oduya trains with someone else.",
            Label.NON_FACTUAL,
        ),
    ],
)
def test_questions_over_supplied_labels_are_proved(verifier: Verifier, query: str, response: str, label: Label) -> None:
    v = verifier.verify(VerifyRequest(query=query, response=response, evidence=TEAM))
    assert v.label == label and v.decision in (Decision.SUPPORTED, Decision.REFUTED), v.explanation
    decided = [c for c in v.claims if c.status != ProofStatus.UNKNOWN]
    assert decided and decided[0].proof is not None


def test_a_common_object_claim_shows_its_shape(verifier: Verifier) -> None:
    v = verifier.verify(
        VerifyRequest(query="Do Ama Reyes and Tam Oduya share a coach?", response="Yes.", evidence=TEAM)
    )
    [claim] = [c for c in v.claims if c.reading is not None and c.reading.kind == ClaimKind.COMMON]
    assert claim.reading is not None and claim.reading.read_by == "query"
    assert (claim.reading.subject, claim.reading.relation, claim.reading.object) == ("Ama Reyes", "coach", "Tam Oduya")
    assert "coach" in claim.text and claim.status == ProofStatus.SUPPORTED


def test_an_unrelated_predicate_stays_unread_and_undecided(verifier: Verifier) -> None:
    v = verifier.verify(VerifyRequest(query="Does Ama Reyes admire Lio Marsh?", response="Yes.", evidence=TEAM))
    assert v.decision not in (Decision.SUPPORTED, Decision.REFUTED), v.explanation
    assert all(c.reading is not None and c.reading.kind == "text" and c.reading.why_unread for c in v.claims)


@pytest.mark.parametrize(
    ("response", "status"),
    [
        ("The population of Germany is about 83 million.", ProofStatus.SUPPORTED),
        ("The population of Germany is 83 million.", ProofStatus.SUPPORTED),
        ("The population of Germany is about 50 million.", ProofStatus.CONTRADICTED),
        ("The population of Germany is 83,000,000.", ProofStatus.CONTRADICTED),  # exact: not the stored value
    ],
)
def test_rounded_numbers_are_decided_within_their_tolerance(
    verifier: Verifier, response: str, status: ProofStatus
) -> None:
    v = verifier.verify(VerifyRequest(query="What is the population of Germany?", response=response))
    [claim] = v.claims
    assert claim.status == status and claim.proof is not None


def test_a_shared_name_is_compared_by_its_first_reading_within_the_tolerance(verifier: Verifier) -> None:
    # several places are called Paris, with different populations: the first reading's is compared
    for response, status in [
        ("The population of Paris is 2 million.", ProofStatus.SUPPORTED),
        ("The population of Paris is 5 million.", ProofStatus.CONTRADICTED),
    ]:
        v = verifier.verify(VerifyRequest(query="What is the population of Paris?", response=response))
        [claim] = v.claims
        assert claim.status == status and claim.proof is not None, v.explanation


@pytest.mark.parametrize(
    ("response", "status"),
    [
        ("Germany is home to about 83 million people.", ProofStatus.SUPPORTED),
        ("Germany, a country of roughly 83 million inhabitants, lies in Europe.", ProofStatus.SUPPORTED),
        ("Germany has about 50 million people.", ProofStatus.CONTRADICTED),
        ("Germany covers about 357,000 square kilometres.", ProofStatus.SUPPORTED),
    ],
)
def test_a_number_in_a_declared_unit_is_read_as_its_relation(
    verifier: Verifier, response: str, status: ProofStatus
) -> None:
    v = verifier.verify(VerifyRequest(query="Tell me about Germany.", response=response))
    [claim] = [c for c in v.claims if c.reading is not None and c.reading.relation in ("population", "area_km2")]
    assert claim.status == status and claim.proof is not None, v.explanation


def test_a_shared_name_is_supported_by_the_one_whose_value_is_near(verifier: Verifier) -> None:
    # two places called Casablanca store different populations: a number near either one's holds of that one
    for response, status in [
        ("Casablanca has about 3.7 million people.", ProofStatus.SUPPORTED),
        ("Casablanca has about 5 million people.", ProofStatus.CONTRADICTED),
    ]:
        v = verifier.verify(VerifyRequest(query="How big is Casablanca?", response=response))
        [claim] = v.claims
        assert claim.status == status and claim.proof is not None, v.explanation


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("Finland has two official languages.", Decision.SUPPORTED),  # the KB's list is declared complete
        ("Finland has three official languages.", Decision.REFUTED),
        ("Finland has two official languages: Finnish and Swedish.", Decision.SUPPORTED),
        ("Japan has two capitals.", Decision.UNDECIDED),  # one stored, and the list is not declared complete
    ],
)
def test_a_count_of_values_is_decided_where_the_list_is_complete(
    verifier: Verifier, response: str, decision: Decision
) -> None:
    v = verifier.verify(VerifyRequest(query="Tell me about it.", response=response))
    assert v.decision == decision, v.explanation
    [count] = [c for c in v.claims if c.reading is not None and c.reading.kind == "count"]
    assert (count.proof is not None) == (decision != Decision.UNDECIDED)


def test_an_answer_the_response_states_itself_is_the_answer_free_sentences_do_not_block(verifier: Verifier) -> None:
    # "No, because X is the father of Y" states the answer's claim: it is the answer, and the unread
    # sentence after it is left to the other sources
    v = verifier.verify(
        VerifyRequest(
            query="Is it true that Orla Venn is not the father of Tam Venn?",
            response="No, because Orla Venn is the father of Tam Venn. Tam Venn was a sailor in a small harbour town.",
            evidence=[["Tam Venn", "father", "Orla Venn"]],
        )
    )
    assert v.decision == Decision.SUPPORTED, v.explanation
    [answer] = [c for c in v.claims if c.status == ProofStatus.SUPPORTED]
    assert answer.reading is not None and answer.reading.read_by == "query"


def test_a_passive_without_its_by_names_no_doer(verifier: Verifier) -> None:
    # "created at" names a place: neither name is the other's creator
    v = verifier.verify(VerifyRequest(query="Where was Python made?", response="Python was created at Google."))
    assert not [c for c in v.claims if c.reading is not None and c.reading.relation in ("created", "created_by")]


def test_a_list_of_names_is_one_claim_per_name(verifier: Verifier) -> None:
    v = verifier.verify(
        VerifyRequest(query="Tell me about Belgium.", response="Belgium is bordered by France and Germany.")
    )
    assert v.decision == Decision.SUPPORTED, v.explanation
    read = sorted((c.reading.subject, c.reading.object) for c in v.claims if c.reading and c.reading.relation)
    assert read == [("France", "Belgium"), ("Germany", "Belgium")]
    # the answer to a question for every neighbour gives its list as whole: the KB's complete list refutes it
    v = verifier.verify(
        VerifyRequest(query="Which countries border Belgium?", response="Belgium is bordered by France and Germany.")
    )
    assert v.decision == Decision.REFUTED and "declared complete" in v.explanation, v.explanation


@pytest.mark.parametrize(
    ("query", "response", "decisions"),
    [
        ("Where is Lyon?", "Lyon is in the east of Spain.", {Decision.REFUTED}),  # not in Spain at all
        ("Where is Lyon?", "Lyon is in the east of France.", {Decision.UNDECIDED, Decision.UNSUPPORTED}),
        ("Is Lyon in the north of France?", "Yes.", {Decision.UNDECIDED, Decision.UNSUPPORTED}),
    ],
)
def test_a_part_of_a_place_is_not_the_place(
    verifier: Verifier, query: str, response: str, decisions: set[Decision]
) -> None:
    # "in the east of France" says more than "in France": its reading can refute, never prove it
    v = verifier.verify(VerifyRequest(query=query, response=response))
    assert v.decision in decisions, v.explanation


@pytest.mark.parametrize(
    ("response", "status"),
    [
        ("In 1995 the currency of France was the French Franc.", ProofStatus.SUPPORTED),
        ("In 1995 the currency of France was the Euro.", ProofStatus.CONTRADICTED),
        ("In 2005 the currency of France was the Euro.", ProofStatus.SUPPORTED),
        ("In 1985 the capital of Germany was Berlin.", ProofStatus.UNKNOWN),  # the KB's capital is undated
    ],
)
def test_a_year_in_the_sentence_dates_the_claim(verifier: Verifier, response: str, status: ProofStatus) -> None:
    v = verifier.verify(VerifyRequest(query="Tell me about it.", response=response))
    [claim] = v.claims
    assert claim.status == status and claim.text.startswith("In ")
    assert (claim.proof is not None) == (status != ProofStatus.UNKNOWN)


@pytest.mark.parametrize(
    ("query", "response", "decision"),
    [
        ("What currency does Japan use?", "Japan uses the yen.", Decision.SUPPORTED),  # "the yen": Japanese Yen
        ("Which currency does Italy use?", "Italy uses the euro.", Decision.SUPPORTED),
        ("What currency did Germany use in 1990?", "In 1990 Germany used the euro.", Decision.REFUTED),  # since 1999
        ("Is Nairobi in Africa?", "Nairobi lies in Africa.", Decision.SUPPORTED),  # not the antonym "lies outside"
        # owners, pronouns, appositives, lists, second predicates, values (session 17)
        ("What is the capital of Peru?", "The Peruvian capital is Lima.", Decision.SUPPORTED),  # Peru's capital
        ("What is the capital of Peru?", "The Peruvian capital is Cusco.", Decision.REFUTED),  # Cusco is no capital
        ("What is the chemical symbol of silver?", "Silver has the symbol Ag.", Decision.SUPPORTED),
        ("When was Marie Curie born?", "She was born in 1871.", Decision.REFUTED),  # "She": the query's name
        ("What is the capital of Australia?", "The capital of Australia is Canberra, not Sydney.", Decision.SUPPORTED),
        ("What is the capital of Canada?", "It's Toronto, the largest city.", Decision.REFUTED),
        ("When did Galileo Galilei live?", "Galileo was born in 1564 and died in 1700.", Decision.REFUTED),
        ("What was the currency of Spain in 1980?", "In 1980 Spain's currency was the peseta.", Decision.SUPPORTED),
        ("What is the chemical symbol for sodium?", "Sodium's symbol is S.", Decision.REFUTED),
        ("Does Chile use the peso?", "Yes, the Chilean peso.", Decision.SUPPORTED),  # "the peso": Chile's
        ("Which continent is Vietnam on?", "It is in Asia.", Decision.SUPPORTED),  # "It": the question's subject
        ("Which continent is Peru on?", "Peru is a South American country.", Decision.SUPPORTED),
        ("Which continent is Peru on?", "Peru is on the continent of South America.", Decision.SUPPORTED),
        ("Are Portugal and Spain on the same continent?", "Yes, both are in Europe.", Decision.SUPPORTED),
        ("When was Mozart born?", "Mozart's birth year is 1770.", Decision.REFUTED),  # a name, a year, "birth year"
        ("What is the population of Paris?", "Paris has about 2 million inhabitants.", Decision.SUPPORTED),
        # a common noun's possessive names it ("gold's": the element), as a proper name's does (session 18)
        ("What is the chemical symbol of gold?", "Gold's symbol is Au.", Decision.SUPPORTED),
        ("Is copper's chemical symbol Cu?", "No.", Decision.REFUTED),
        # a reported claim ("the claim that ...") and a quotation of the question assert nothing
        ("Is Lyon in Germany?", "No. The claim that Lyon is in Germany is false.", Decision.SUPPORTED),
        ("Is Lyon in Germany?", 'My answer to "Is Lyon in Germany?": no, it is in France.', Decision.SUPPORTED),
        ("Do Germany and France share a border?", "They do not share a border.", Decision.REFUTED),  # they: both
        # "It" is the thing asked of, though the sentence names the year first (session 38)
        ("Who proved the Poincaré conjecture?", "It was proved in 2003 by Grigori Perelman.", Decision.SUPPORTED),
        # "the country's" is the name said before, not WordNet's "country" (session 38)
        (
            "Which continent is Peru on?",
            "Peru is in South America. The country's capital is Lima.",
            Decision.SUPPORTED,
        ),
    ],
)
def test_free_statements_are_linked_to_a_relation_their_names_can_fill(
    verifier: Verifier, query: str, response: str, decision: Decision
) -> None:
    v = verifier.verify(VerifyRequest(query=query, response=response))
    assert v.decision == decision, v.explanation
    assert any(c.proof is not None for c in v.claims)


@pytest.mark.parametrize(
    ("query", "response", "misread"),
    [
        # a year after a time word is no number: not "the atomic number of tungsten is 1783"
        ("When was tungsten isolated?", "Tungsten was first isolated in 1783.", "atomic_number"),
        # a person cannot be "developed at" anything: the KB's types say who can be the subject
        ("Who created Python?", "Python was developed by Guido van Rossum in 1991.", "developed_at"),
    ],
)
def test_a_linked_label_the_value_or_subject_cannot_fill_is_no_reading(
    verifier: Verifier, query: str, response: str, misread: str
) -> None:
    v = verifier.verify(VerifyRequest(query=query, response=response))
    assert all(c.reading.relation != misread for c in v.claims), [c.text for c in v.claims]
    assert v.decision != Decision.REFUTED, v.explanation


def test_its_is_the_name_the_sentence_says_first(verifier: Verifier) -> None:
    """ "Its" is the sentence's first name, though the claim is worded "United States has Utah as a member"."""
    v = verifier.verify(
        VerifyRequest(
            query="When did Utah become part of the United States?",
            response="Utah joined the United States in 1896. Salt Lake City is its capital.",
        )
    )
    read = [(c.reading.subject, c.status) for c in v.claims if c.reading.relation == "has_capital"]
    assert read == [("Utah", ProofStatus.SUPPORTED)], [c.text for c in v.claims]
    assert v.decision != Decision.REFUTED, v.explanation


def test_a_currency_the_kb_does_not_give_the_country_is_not_supported(verifier: Verifier) -> None:
    v = verifier.verify(VerifyRequest(query="What currency does Japan use?", response="Japan uses the euro."))
    assert v.decision != Decision.SUPPORTED, v.explanation
    [claim] = [c for c in v.claims if c.reading is not None and c.reading.relation == "uses_currency"]
    assert claim.reading is not None and (claim.reading.subject, claim.reading.object) == ("Japan", "euro")


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("Egypt is an African country.", Decision.SUPPORTED),  # "African" pertains to Africa (WordNet)
        ("Peru is on the African continent.", Decision.REFUTED),  # Peru's continent is South America
    ],
)
def test_a_place_adjective_is_read_as_its_place(verifier: Verifier, response: str, decision: Decision) -> None:
    v = verifier.verify(VerifyRequest(query="Which continent is it on?", response=response))
    assert v.decision == decision, v.explanation
