"""Claims from yes / no answers, and when the KB check's opinion decides (pure parts)."""

from __future__ import annotations

import pytest

from agents.reading.claim_types import (
    Claim,
    ClaimCondition,
    ClaimKind,
    ClaimOrigin,
    SetClaim,
    TextClaim,
    TripleClaim,
    replaced,
)
from agents.reading.claims.answer_claims import stances, temporal_claims
from agents.verifier.kb_opinion import kb_opinion
from agents.verifier.nodes.seeker import bearing
from agents.verifier.nodes.verdict_manager import kb_partial
from agents.verifier.schemas import KBResult
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource


def test_a_yes_or_no_to_an_mtl_question_claims_the_formula_at_its_year() -> None:
    query = (
        "Did Event1 globally happen within the time frame of the 6th to the 17th after the year 1854 onwards; "
        "where Event1 is the lifetime of Freud happen?"
    )
    (yes,) = temporal_claims(query, "Yes, it did.")
    assert yes.kind == ClaimKind.TEMPORAL and yes.origin == ClaimOrigin.QUERY
    assert yes.mtl == "Globally[6, 17](Atom(the lifetime of Freud)), 1854" and not yes.negated
    (no,) = temporal_claims(query, "No.")
    assert no.negated and no.text.endswith("does not hold in 1854.")
    assert temporal_claims(query, "Perhaps.") == [] and temporal_claims("Did Freud live?", "Yes.") == []


def test_an_answer_that_says_both_yes_and_no_claims_both_and_contradicts_itself() -> None:
    # some models list both ("Answer:\n    Yes, because ...\n    No, because ...")
    assert stances("Answer:\n    Yes, because they are cousins.\n    No, because nothing says so.") == [True, False]
    assert stances("No, they're not.") == [False] and stances("I cannot say.") == []
    both = [
        TripleClaim(id=f"C{i}", text="t", origin=ClaimOrigin.QUERY, subject="Lio", relation="mother",
              object="Ama", negated=negated)
        for i, negated in ((1, False), (2, True))
    ]  # fmt: skip
    unknown = [_result(1, ProofStatus.UNKNOWN), _result(2, ProofStatus.UNKNOWN)]
    op = kb_opinion(both, unknown)
    assert op.label == Label.NON_FACTUAL and op.confidence == 1.0
    assert "both" in (op.explanation or "") and "whatever the facts" in (op.explanation or "")
    # the KB's refutation of one of them is the reason given when there is one
    refuted = kb_opinion(both, [_result(1, ProofStatus.CONTRADICTED), _result(2, ProofStatus.SUPPORTED)])
    assert refuted.label == Label.NON_FACTUAL and "whatever the facts" not in (refuted.explanation or "")
    mtl = (
        "Did Event1 finally happen within the time frame of the 2nd to the 5th after the year 1900 onwards; "
        "where Event1 is the lifetime of Freud happen?"
    )
    assert [c.negated for c in temporal_claims(mtl, "Answer:\n    Yes, it did.\n    No, it did not.")] == [False, True]


def _claim(i: int, origin: ClaimOrigin = ClaimOrigin.TEMPLATE) -> TripleClaim:
    return TripleClaim(id=f"C{i}", text=f"claim {i}", origin=origin, subject="s", relation="r", object="o")


def _result(i: int, status: ProofStatus) -> KBResult:
    return KBResult(claim_id=f"C{i}", status=status)


def test_a_refuted_claim_is_non_factual_even_beside_proved_ones() -> None:
    claims = [_claim(1), _claim(2)]
    op = kb_opinion(claims, [_result(1, ProofStatus.SUPPORTED), _result(2, ProofStatus.CONTRADICTED)])
    assert op.label == Label.NON_FACTUAL


def test_unread_sentences_block_factual_unless_the_answer_itself_is_proved() -> None:
    text = TextClaim(id="C2", text="claim 2", origin=ClaimOrigin.SENTENCE)
    plain = kb_opinion([_claim(1), text], [_result(1, ProofStatus.SUPPORTED)])
    assert plain.label is None
    answer = _claim(1, origin=ClaimOrigin.QUERY)
    decided = kb_opinion([answer, text], [_result(1, ProofStatus.SUPPORTED)])
    assert decided.label == Label.FACTUAL and "1 unread sentence" in (decided.explanation or "")


def test_a_claim_no_kb_could_read_is_as_unread_as_free_text() -> None:
    # "It was a major turning point ..." read by a template with the subject "It": no KB links it
    answer, parsed = _claim(1, origin=ClaimOrigin.QUERY), _claim(2)
    unlinked = KBResult(claim_id="C2", status=ProofStatus.UNKNOWN, linked=False)
    decided = kb_opinion([answer, parsed], [_result(1, ProofStatus.SUPPORTED), unlinked])
    assert decided.label == Label.FACTUAL and "1 unread sentence" in (decided.explanation or "")
    # a linked claim the KB could not decide still leaves the response to the other sources
    undecided = kb_opinion([answer, parsed], [_result(1, ProofStatus.SUPPORTED), _result(2, ProofStatus.UNKNOWN)])
    assert undecided.label is None
    # and without an answer to a question, an unread claim blocks as free text does
    assert kb_opinion([_claim(1), parsed], [_result(1, ProofStatus.SUPPORTED), unlinked]).label is None


def test_a_name_of_the_answer_no_kb_holds_leaves_the_answer_unproved() -> None:
    # "Which countries border X?" "A, B and Zorbland.": the proved members do not prove a list with an unknown name
    a, b, unknown = (_claim(i, origin=ClaimOrigin.QUERY) for i in (1, 2, 3))
    results = [_result(1, ProofStatus.SUPPORTED), _result(2, ProofStatus.SUPPORTED)]
    results.append(KBResult(claim_id="C3", status=ProofStatus.UNKNOWN, linked=False))
    assert kb_opinion([a, b, unknown], results).label is None
    assert kb_opinion([a, b], results[:2]).label == Label.FACTUAL


def test_unknown_is_never_false() -> None:
    op = kb_opinion([_claim(1)], [_result(1, ProofStatus.UNKNOWN)])
    assert op.label is None


def test_cited_evidence_shares_words_with_the_claim() -> None:
    items = [
        EvidenceItem(id="R1", source=EvidenceSource.KB, text="Hirohito died in 1989."),
        EvidenceItem(id="R2", source=EvidenceSource.KB, text="Paris is the capital of France."),
        EvidenceItem(id="K1", source=EvidenceSource.KB, text="Hirohito was born in 1901."),
    ]
    assert bearing("Hirohito was born in 1886.", items) == ["K1", "R1"]
    assert bearing("Nothing in common.", items) == []
    assert bearing("Paris is the capital of Japan.", items) == ["R2"]  # a name and a word
    assert bearing("The capital of Japan is Tokyo.", items) == []  # one plain word in common
    assert bearing("The emperor was born in the capital.", items) == []  # one plain word, and "the" is no bond


def test_a_repeated_claim_is_not_left_over_as_free_text() -> None:
    from types import SimpleNamespace

    from agents.reading.templates.questions import QueryReader
    from agents.verifier.nodes.claims import read_claims
    from drowzee_core.kb.catalog import Catalog
    from tests.unit.verifier_fakes import FakeSentenceReader

    reader = QueryReader(Catalog.from_toml())
    # a KB that names every template subject and types nothing (it holds no relation, so any name fits)
    knows_all = SimpleNamespace(resolve=lambda text, limit=20: [1], relation_ids=dict)
    services = SimpleNamespace(
        reader=reader, sentence_reader=FakeSentenceReader(), store=knows_all, catalog=reader.catalog
    )
    services.gate = SimpleNamespace(run=lambda f, *a: f(*a))
    ctx = SimpleNamespace(services=services, settings=SimpleNamespace(extractor="rules"))
    query = "Among Paris, Lyon and Marseille, which one has the largest population?"
    response = (
        "Among the given cities, *Paris* had the highest population. Its population was 2,102,650. "
        "Therefore, Paris had the highest population among all the given cities. It is lovely."
    )
    claims = read_claims(ctx, query, response)  # type: ignore[arg-type]
    assert [(c.kind, getattr(c, "subject", None), getattr(c, "object", None)) for c in claims] == [
        (ClaimKind.COMPARISON, "Paris", None),
        (ClaimKind.TRIPLE, "Paris", "2,102,650"),
        (ClaimKind.TEXT, None, None),
    ]
    assert isinstance(claims[1], TripleClaim) and claims[1].past
    assert claims[1].text == "Paris's population was 2,102,650."
    assert claims[2].text == "It is lovely."


def test_a_set_answers_completeness_refutes_but_never_blocks_the_members_proofs() -> None:
    members = [_claim(1, origin=ClaimOrigin.QUERY), _claim(2, origin=ClaimOrigin.QUERY)]
    condition = ClaimCondition(relation="r", other="o", var_subject=True)
    complete = SetClaim(id="C3", text="claim 3", origin=ClaimOrigin.QUERY, variable="X", operation="and",
                        conditions=(condition,))  # fmt: skip
    proved = [_result(1, ProofStatus.SUPPORTED), _result(2, ProofStatus.SUPPORTED)]
    op = kb_opinion([*members, complete], [*proved, _result(3, ProofStatus.UNKNOWN)])
    assert op.label == Label.FACTUAL and op.explanation == "2 claim(s) proved"
    assert kb_partial([*members, complete], proved) == 1.0
    refuted = kb_opinion([*members, complete], [*proved, _result(3, ProofStatus.CONTRADICTED)])
    assert refuted.label == Label.NON_FACTUAL


@pytest.mark.parametrize(
    ("response", "said"),
    [
        ("They do not.", [False]),
        ("She did.", [True]),
        ("It isn't, as far as I know.", [False]),
        ("They both were.", [True]),
        ("It is the largest port.", []),  # a statement, not an echo of the question's auxiliary
        ("They do not know.", []),
    ],
)
def test_a_short_answer_echoing_the_auxiliary_is_a_yes_or_no(response: str, said: list[bool]) -> None:
    assert stances(response) == said


def test_a_refuted_claim_that_only_suffices_for_the_answer_leaves_it_open() -> None:
    from agents.verifier.nodes.kb_check import _sufficient

    no = replaced(_claim(1, origin=ClaimOrigin.QUERY), sufficient=True)
    [left] = _sufficient([no], [_result(1, ProofStatus.CONTRADICTED)])
    assert left.status == ProofStatus.UNKNOWN and "leaves the answer open" in left.note
    assert kb_opinion([no], [left]).label is None  # neither refuted nor proved
    [proved] = _sufficient([no], [_result(1, ProofStatus.SUPPORTED)])
    assert kb_opinion([no], [proved]).label == Label.FACTUAL


def test_readings_of_one_sentence_the_kb_types_rule_out_go_where_another_fits() -> None:
    from agents.reading.mentions.known import typed_readings

    def said(relation: str, obj: str) -> Claim:
        return TripleClaim(
            id="", text="Mg is in group 2 of the table.", span=(0, 30), origin=ClaimOrigin.QUERY, subject="Mg",
            relation=relation, object=obj,
        )  # fmt: skip

    period, group = said("in_period", "group 2"), said("in_group", "group 2")
    fits = {("in_group", "Mg", "group 2")}
    kept = typed_readings([period, group], lambda r, s, o: (r, s, o) in fits)
    assert [c.relation for c in kept] == ["in_group"]
    assert len(typed_readings([period, group], lambda r, s, o: False)) == 2  # none fits: both stay


def test_a_broader_relation_reads_as_the_narrower_one_its_names_are_typed_for() -> None:
    from agents.reading.mentions.known import narrowed
    from drowzee_core.kb.catalog import Catalog

    def claim(subject: str, relation: str, obj: str) -> Claim:
        return TripleClaim(id="", text="t", origin=ClaimOrigin.READER, subject=subject,
                     relation=relation, object=obj)  # fmt: skip

    continents = {("on_continent", "Lima", "Asia")}
    fits = lambda r, s, o: (r, s, o) in continents  # noqa: E731
    said = [claim("Lima", "located_in", "Asia"), claim("Asia", "contains", "Lima"), claim("Lima", "located_in", "Peru")]
    got = [(c.subject, c.relation, c.object) for c in narrowed(said, Catalog.from_toml(), fits)]
    # "Lima is in Asia" and "Asia contains Lima" are claims of Lima's continent; Peru is no continent
    assert got == [("Lima", "on_continent", "Asia"), ("Lima", "on_continent", "Asia"), ("Lima", "located_in", "Peru")]
