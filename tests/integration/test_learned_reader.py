"""The shipped relation model reads what no pattern does, where the KB's types fit (real Prolog, real embeddings).

"Canopus is found in Centaurus" names a star and a constellation: one relation fits them, and the model
sees a relation stated. "Einstein admired Newton" names two people: no relation the model reads there.
The catalog patterns alone leave both unread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from agents.reading.candidates.reader import Reading
from agents.reading.claims.sentence_reader import SentenceReader
from agents.reading.mentions.known import knower
from agents.verifier.runner import Verifier
from drowzee_core.kb.model import Stats
from drowzee_core.kb.store import KBStore
from drowzee_core.records.verdict import Decision, VerifyRequest

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def rules(seed_kb: tuple[Path, Stats]) -> Iterator[Callable[[str], list[Reading]]]:
    """The catalog patterns alone on the seed KB's names (no Prolog: a second verifier would share its engine)."""
    store = KBStore(seed_kb[0])
    reader = SentenceReader(store.catalog())
    known = knower(store, [])
    yield lambda text: reader.read_one(text, known)
    store.close()


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("Canopus is found in Centaurus.", Decision.REFUTED),  # Carina
        ("Polaris belongs to Ursa Minor.", Decision.SUPPORTED),
    ],
)
def test_a_sentence_no_pattern_reads_is_read_by_the_model(
    verifier: Verifier, rules: Callable[[str], list[Reading]], response: str, decision: Decision
) -> None:
    v = verifier.verify(VerifyRequest(query="", response=response))
    assert v.decision == decision, v.explanation
    assert any(c.reading is not None and c.reading.relation == "in_constellation" for c in v.claims)
    assert rules(response) == []


@pytest.mark.parametrize("response", ["Einstein admired Newton.", "Mozart visited Vienna."])
def test_names_no_relation_fits_stay_unread(verifier: Verifier, response: str) -> None:
    v = verifier.verify(VerifyRequest(query="", response=response))
    assert v.decision == Decision.UNDECIDED
    assert all(c.reading is None or c.reading.relation is None for c in v.claims), v.claims


@pytest.mark.parametrize(
    "response",
    [
        "Yes, BRCA1 is associated with breast cancer, and also with Fanconi anemia.",  # a verb's two arguments
        "Bolivia recognises Spanish, Quechua and Aymara as official languages.",  # a list, one name at a time
    ],
)
def test_split_statements_are_each_read(verifier: Verifier, response: str) -> None:
    v = verifier.verify(VerifyRequest(query="", response=response))
    assert v.decision == Decision.SUPPORTED, v.explanation
    assert len([c for c in v.claims if c.reading is not None and c.reading.relation]) >= 2


def test_the_parts_of_a_hyphenated_word_are_not_read_as_names(verifier: Verifier) -> None:
    """ "s-block" parses as "s", "-", "block"; the seed KB labels something "-", which is no name in a sentence."""
    v = verifier.verify(VerifyRequest(query="", response="Sodium sits in period 3 and group 1, in the s-block."))
    assert v.decision != Decision.REFUTED, v.explanation
    assert all(c.reading is None or c.reading.object != "-" for c in v.claims)


@pytest.mark.parametrize(
    ("response", "decision"),
    [
        ("Antares is located in Scorpius.", Decision.SUPPORTED),
        ("Deneb is located in Lyra.", Decision.REFUTED),  # Cygnus
    ],
)
def test_a_pattern_reading_whose_subject_the_kb_types_rule_out_is_read_again_by_the_model(
    verifier: Verifier, rules: Callable[[str], list[Reading]], response: str, decision: Decision
) -> None:
    # the catalog's `located_in` template reads the sentence, but a star is no subject of `located_in`
    assert [r.relation for r in rules(response)] == ["located_in"]
    v = verifier.verify(VerifyRequest(query="", response=response))
    assert v.decision == decision, v.explanation
    assert [c.reading.relation for c in v.claims if c.reading is not None] == ["in_constellation"]
