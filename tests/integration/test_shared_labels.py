"""Sameness questions whose predicate says only belonging (real embeddings, WordNet, Prolog).

`agents.reading.questions.common_values.belonging_link`: "Are X and Y both subclass of the same art?", "Are X
and Y set in the same city?" ask about the one relation the supplied triples give both names. Names,
values and wordings written for these tests.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from agents.reading.claims.sentence_reader import SentenceReader, default_linker
from agents.verifier.runner import Verifier
from drowzee_core.kb.catalog import Catalog
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import Decision, VerifyRequest
from tests.integration.question_reading import readings

pytestmark = [pytest.mark.integration, pytest.mark.slow]

A, B = "Tallow Reach", "Cinder Vale"
SAME_SCHOOL = [[A, "movement", "Harbour school"], [B, "movement", "Harbour school"]]
TWO_SCHOOLS = [[A, "movement", "Harbour school"], [B, "movement", "Quarry school"]]
SETTINGS = [
    [A, "narrative location", "Lisbon"],
    [B, "narrative location", "Lisbon"],
    [A, "author", "Ernest Hemingway"],
    [B, "author", "Graham Greene"],
]


@pytest.fixture(scope="module")
def reader() -> SentenceReader:
    return SentenceReader(Catalog.from_toml(), default_linker)


def ask(reader: SentenceReader, query: str, triples: Sequence[Sequence[str]]) -> list[tuple[str, str, str, bool, str]]:
    return [(r.subject, r.relation, r.object, r.negated, r.kind) for r in readings(reader, query, triples)]


@pytest.mark.parametrize(
    ("query", "triples", "want"),
    [
        # a taxonomic noun ("subclass") says no relation: the one label both names have
        (f"Is it true that {A} and {B} are both subclass of the same art?", SAME_SCHOOL, (A, "movement", B, False)),
        (f"Is it possible for {A} and {B} to be both part of different groups?", TWO_SCHOOLS, (A, "movement", B, True)),
        # two labels both names have: the shared thing's type ("city") is like one label's values
        (f"Are {A} and {B} set in the same city?", SETTINGS, (A, "narrative location", B, False)),
    ],
)
def test_a_belonging_predicate_reads_the_label_both_names_have(
    reader: SentenceReader, query: str, triples: list[list[str]], want: tuple[str, str, str, bool]
) -> None:
    assert ask(reader, query, triples) == [(*want, "common")]


def test_nothing_is_forced(reader: SentenceReader) -> None:
    # the shared thing's noun is the relation itself ("age"), and no label says it
    assert (
        ask(
            reader,
            f"Do {A} and {B} have the same age?",
            [[A, "place of birth", "Lisbon"], [B, "place of birth", "Lisbon"]],
        )
        == []
    )
    # two labels both names have, and no type to choose between them
    both = [*SAME_SCHOOL, [A, "record label", "Gull Records"], [B, "record label", "Gull Records"]]
    assert ask(reader, f"Are {A} and {B} both part of the same group?", both) == []
    # a type that says what the shared thing is, and is like neither the label nor its values
    linux = [[A, "platform", "Linux"], [B, "platform", "Linux"]]
    assert ask(reader, f"Are {A} and {B} both part of the same person?", linux) == []
    # one name only has the label
    assert (
        ask(reader, f"Are {A} and {B} both part of the same group?", [*SAME_SCHOOL[:1], [B, "author", "Ada Pell"]])
        == []
    )


def test_the_answer_is_proved_over_the_shared_label(verifier: Verifier) -> None:
    query = f"Is it true that {A} and {B} are both subclass of the same art?"
    v = verifier.verify(VerifyRequest(query=query, response="Yes.", evidence=TWO_SCHOOLS))
    assert v.label == Label.NON_FACTUAL and v.decision == Decision.REFUTED, v.explanation
    asked = [c for c in v.claims if c.reading is not None and c.reading.relation == "movement"]
    assert asked and all(c.status == ProofStatus.CONTRADICTED for c in asked)
    v = verifier.verify(VerifyRequest(query=query, response="Yes.", evidence=SAME_SCHOOL))
    assert v.label == Label.FACTUAL and v.decision == Decision.SUPPORTED, v.explanation
