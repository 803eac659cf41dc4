"""Values said as common noun phrases and relations said by nothing but the value's kind (real embeddings, WordNet).

`agents.reading.questions.common_values`: "Is X in the genre of Y?" where no triple gives Y, "Is X a poem?"
where the triples give X the form "novel". Names, values and wordings written for these tests.
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


@pytest.fixture(scope="module")
def reader() -> SentenceReader:
    return SentenceReader(Catalog.from_toml(), default_linker)


def ask(reader: SentenceReader, query: str, triples: Sequence[Sequence[str]]) -> list[tuple[str, str, str, bool]]:
    return [(r.subject, r.relation, r.object, r.negated) for r in readings(reader, query, triples)]


SUITE = [["Marrow Lantern Suite", "genre", "ambient music"]]
NOVEL = [["Quill Harbour", "form of creative work", "novel"], ["Quill Harbour", "author", "Petra Volk"]]


@pytest.mark.parametrize(
    ("query", "triples", "want"),
    [
        # a value no triple gives, after the label's own noun
        (
            "Is it true that Marrow Lantern Suite does not belong to the genre jazz fusion?",
            SUITE,
            ("Marrow Lantern Suite", "genre", "jazz fusion", True),
        ),
        # no predicate word: the label whose values "poem" is like ("novel"), not the author's
        ("Is it true that Quill Harbour is a poem?", NOVEL, ("Quill Harbour", "form of creative work", "poem", False)),
        # words of no particular relation ("part of"): the value's kind says it
        (
            "Is it true that Quill Harbour is not part of epic poetry?",
            [["Quill Harbour", "genre", "historical fiction"]],
            ("Quill Harbour", "genre", "epic poetry", True),
        ),
    ],
)
def test_a_common_noun_value_is_read(
    reader: SentenceReader, query: str, triples: list[list[str]], want: tuple[str, str, str, bool]
) -> None:
    assert ask(reader, query, triples) == [want]


def test_nothing_is_forced() -> None:
    r = SentenceReader(Catalog.from_toml(), default_linker)
    # a value like no label's values ("poem" is no person), and a verb that says no supplied label
    assert ask(r, "Is it true that Quill Harbour is a poem?", [["Quill Harbour", "author", "Petra Volk"]]) == []
    assert ask(r, "Was Quill Harbour praised by Ines Calloway?", [["Quill Harbour", "author", "Petra Volk"]]) == []
    # two phrases that could each be the value ("a novel about grief"): which one is asked is not said
    assert ask(r, "Is it true that Quill Harbour is a ballad about grief?", SUITE + NOVEL) == []


def test_a_value_the_evidence_does_not_state_is_not_supported(verifier: Verifier) -> None:
    # the evidence's other words ("form", "work") once carried the claim although it says "novel", not "poem"
    v = verifier.verify(VerifyRequest(query="Is Quill Harbour a poem?", response="Yes, it is a poem.", evidence=NOVEL))
    assert v.label == Label.NON_FACTUAL and v.decision != Decision.SUPPORTED, v.explanation
    asked = [c for c in v.claims if c.reading is not None and c.reading.object == "poem"]
    assert asked and all(c.status != ProofStatus.SUPPORTED for c in asked)
    v = verifier.verify(VerifyRequest(query="Is Quill Harbour a novel?", response="Yes, it is.", evidence=NOVEL))
    assert v.label == Label.FACTUAL and v.decision == Decision.SUPPORTED, v.explanation
