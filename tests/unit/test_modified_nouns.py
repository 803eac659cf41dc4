"""A relational noun with a modifier ("the memorial site for X") links by its head, and the reading is partial.

The modifier says more than the label, so the claim can refute the sentence but never prove all of it. A noun
right before a name describes the name ("the historical event X") and is no predicate word. Invented names;
WordNet relates nothing; the embedding puts "site for" on the label's axis and every other text on its own.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from numpy.typing import NDArray

from agents.reading.candidates.labels import LabelLinker, Related, entity_labels
from agents.reading.candidates.lexicon import Lexicon
from agents.reading.candidates.reader import Mention, Reading, nlp
from agents.reading.mentions.known import Known
from agents.reading.questions.frames import head_words
from agents.reading.questions.yes_no import read_question
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from tests.unit.test_question_frames import NoKB, silent

TRIPLES = [["Fenby Cup", "location", "Ostria"]]


def near(texts: Sequence[str]) -> NDArray[np.float32]:
    """`silent`, except that "site for" is said as the label "location" is."""
    return silent(["location" if t == "site for" else t for t in texts])


def ask(question: str) -> list[Reading]:
    linker = LabelLinker(near, lambda _lemma: Related(), min_score=0.5)
    known = Known(NoKB(), [*TRIPLES, ["Ama Reyes", "x", "y"]])  # type: ignore[arg-type]
    lexicon = Lexicon.from_catalog(Catalog.from_toml(), nlp())
    return read_question(nlp()(question), lexicon, known, entity_labels(TRIPLES, nlp()), linker)


@pytest.mark.parametrize(
    ("question", "partial"),
    [
        ("Is Ama Reyes the site for Fenby Cup?", False),
        ("Is Ama Reyes the memorial site for Fenby Cup?", True),
        ("Is Ama Reyes the memorial site for the sporting event Fenby Cup?", True),
    ],
)
def test_a_modified_noun_links_by_its_head_and_reads_partially(question: str, partial: bool) -> None:
    (r,) = ask(question)
    assert (r.subject, r.relation, r.object, r.partial) == ("Fenby Cup", "location", "Ama Reyes", partial)


def test_the_head_words_drop_modifiers_and_a_names_descriptor() -> None:
    doc = nlp()("Is Ama Reyes the memorial site for the sporting event Fenby Cup?")
    cup = Mention(10, 12, "Fenby Cup", ValueKind.ENTITY)
    assert doc[cup.start : cup.end].text == "Fenby Cup"
    words = [t for t in doc if t.lower_ in ("memorial", "site", "for", "sporting", "event")]
    assert [t.text for t in head_words(words, [cup])] == ["site", "for"]
