"""Pairs typed the way real users ask a fact-checker, through the real verifier: what an honest verdict never does.

`tests/data/user_pairs.jsonl` holds Query-Response pairs (short answers, yes / no, negations, hedges, numbers
in words; about half inside the seed KB's domains, about a third with supplied evidence) and whether each
response is actually right (`truth`). Every verdict must be honest about what decided it:

- an `undecided` verdict says "Not verified" right after its label, never calls the answer correct or
  incorrect, and carries at most `MAX_UNDECIDED_CONFIDENCE`;
- a `supported` or `refuted` verdict names what decided at least one claim;
- an explanation cites only items the verdict holds, presents as support only the items that decided a
  claim, and never backs a response with a supplied item that contradicts it.

The checks are themselves checked on hand-made dishonest verdicts (the old verifier gave 0.9 to undecided
guesses). A right birth year with a wrong birthplace is never `supported`: the reader's claim is partial
(the place is in no claim), so the sentence stays for the other sources.

The label's accuracy against `truth` is reported, not asserted (a table per KB coverage and evidence in the
report section "user pairs": run with `-rP` to see it, or `--log-cli-level=INFO`).

In the data file a row with evidence and `truth` "false" is written so that its evidence contradicts the
response; those rows are checked like the contradicting cases built below.
"""

from __future__ import annotations

import json
import logging
import re

import pytest

from agents.verifier.runner import Verifier
from drowzee_core.records.enums import Label
from drowzee_core.records.pair import EvidenceItemIn
from drowzee_core.records.verdict import Decision, EvidenceSource, Verdict, VerifyRequest
from tests.integration.honesty import DISHONEST, assert_honest, assert_not_backed_by
from tests.integration.user_pairs_data import CONTRADICTIONS, DATA, FIELDS, MIN_PAIRS, PAIRS, Contradiction, Pair, table

pytestmark = [pytest.mark.integration, pytest.mark.slow]
log = logging.getLogger(__name__)


@pytest.fixture(scope="module")
def verdicts(verifier: Verifier) -> dict[str, Verdict]:
    """Every pair of the data file, verified once."""
    out = {}
    for p in PAIRS:
        request = VerifyRequest(id=p.id, query=p.query, response=p.response, evidence=p.evidence)
        out[p.id] = verifier.verify(request)
    return out


@pytest.mark.parametrize(("verdict", "why"), DISHONEST)
def test_the_checks_catch_a_dishonest_verdict(verdict: Verdict, why: str) -> None:
    """Each check fails on the kind of verdict the old verifier gave (e.g. 0.9 on an undecided guess)."""
    with pytest.raises(AssertionError, match=re.escape(why)):
        assert_honest(verdict)
        assert_not_backed_by(verdict, {"S1"})


def test_the_data_file_is_a_mix_of_real_user_pairs() -> None:
    raw = [json.loads(line) for line in DATA.read_text("utf-8").splitlines() if line.strip()]
    assert len(raw) >= MIN_PAIRS
    assert all(set(r) == FIELDS for r in raw), "every row has exactly the documented fields"
    assert len({r["id"] for r in raw}) == len(raw), "ids are unique"
    assert {r["truth"] for r in raw} == {"true", "false"} and {r["in_kb"] for r in raw} == {True, False}
    for r in raw:
        ev = r["evidence"]
        assert ev is None or (ev and all(isinstance(e, str) or len(e) == 3 for e in ev)), r["id"]
    n = len(PAIRS)
    assert 0.35 <= sum(p.in_kb for p in PAIRS) / n <= 0.65, "about half inside the KB's domains"
    assert 0.25 <= sum(p.evidence is not None for p in PAIRS) / n <= 0.45, "about a third with evidence"
    assert 0.35 <= sum(p.truth for p in PAIRS) / n <= 0.65, "right and wrong answers in about equal numbers"
    assert any(isinstance(e, list) for p in PAIRS for e in p.evidence or []), "some evidence is triples"


@pytest.mark.parametrize("pair", PAIRS, ids=[p.id for p in PAIRS])
def test_every_verdict_is_honest_about_what_decided_it(pair: Pair, verdicts: dict[str, Verdict]) -> None:
    v = verdicts[pair.id]
    assert v.id == pair.id
    assert_honest(v)
    if pair.contradicting:
        supplied = {e.id for e in v.evidence if e.source == EvidenceSource.SUPPLIED}
        assert supplied, "the supplied evidence is in the verdict"
        assert_not_backed_by(v, supplied)


@pytest.mark.parametrize("case", CONTRADICTIONS, ids=[c.name for c in CONTRADICTIONS])
def test_evidence_that_contradicts_the_response_never_supports_it(case: Contradiction, verifier: Verifier) -> None:
    evidence: list[EvidenceItemIn] = [case.evidence]
    v = verifier.verify(VerifyRequest(query=case.query, response=case.response, evidence=evidence))
    assert any(e.id == "S1" and e.source == EvidenceSource.SUPPLIED for e in v.evidence)
    assert_honest(v)
    assert_not_backed_by(v, {"S1"})


UNCHECKED_DETAIL = [
    ("Where was Napoleon born?", "Napoleon Bonaparte was born in Paris in 1769."),
    ("When and where was Einstein born?", "Einstein was born in 1879 in Vienna."),
]
"""A right year with a wrong place: the year is proved, the place is in no claim."""


@pytest.mark.parametrize(("query", "response"), UNCHECKED_DETAIL, ids=["napoleon-paris", "einstein-vienna"])
def test_a_wrong_detail_no_claim_checks_is_not_called_correct(query: str, response: str, verifier: Verifier) -> None:
    v = verifier.verify(VerifyRequest(query=query, response=response))
    assert_honest(v)
    assert v.decision != Decision.SUPPORTED, f"supported with an unchecked birthplace: {v.explanation!r}"


def test_a_true_answer_to_another_question_is_not_called_correct(verifier: Verifier) -> None:
    """Every claim of the response is in the evidence, but it says where, and the question asks when."""
    text = "The Pell lighthouse was built in 1871 on the northern cape of Orsa island."
    evidence: list[EvidenceItemIn] = [text]
    query, response = "When was the Pell lighthouse built?", "The Pell lighthouse was built on the northern cape."
    v = verifier.verify(VerifyRequest(query=query, response=response, evidence=evidence))
    assert_honest(v)
    assert (v.decision, v.label) == (Decision.UNSUPPORTED, Label.NON_FACTUAL), v.explanation
    assert "does not answer the question. The question asks for a time (when)" in v.explanation
    answered = verifier.verify(VerifyRequest(query=query, response="It was built in 1871.", evidence=evidence))
    assert (answered.decision, answered.label) == (Decision.SUPPORTED, Label.FACTUAL), answered.explanation


def test_report_the_labels_accuracy_per_group(verdicts: dict[str, Verdict], request: pytest.FixtureRequest) -> None:
    """Information, not a bar: the decisions and the label's accuracy against `truth`, per group."""
    assert set(verdicts) == {p.id for p in PAIRS}
    text_table = table(verdicts)
    wrong = [
        f"{p.id} {verdicts[p.id].decision} {verdicts[p.id].label} (truth {p.truth}): {p.response}"
        for p in PAIRS
        if verdicts[p.id].decision != Decision.UNDECIDED and (verdicts[p.id].label == Label.FACTUAL) != p.truth
    ]
    text = text_table + "\n\ndecided but wrong:\n" + ("\n".join(wrong) or "none")
    request.node.add_report_section("call", "user pairs", text)
    log.info("user pairs\n%s", text)


@pytest.mark.parametrize(
    "response", ["The largest city in Japan is Tokyo.", "Osaka is the second biggest city in Japan."]
)
def test_a_ranking_among_a_places_cities_is_read_as_no_relation(response: str, verifier: Verifier) -> None:
    """A superlative ranks one thing among others: "city in Japan" is no "Japan is located in Tokyo"."""
    v = verifier.verify(VerifyRequest(query="Tell me about Japan.", response=response))
    read = [(c.reading.subject, c.reading.relation, c.reading.object) for c in v.claims if c.reading is not None]
    assert not [r for r in read if r[1] in ("located_in", "contains")], read
    assert_honest(v)
