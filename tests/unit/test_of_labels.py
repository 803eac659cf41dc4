"""Labels read with "of" (`reading.questions.direction._of_value`): the "of" name is the value, not the owner.

Invented names; the labels' lemmas link by themselves (a silent embedding), WordNet is scripted.
"""

from __future__ import annotations

import pytest

from agents.reading.candidates.labels import LabelLinker, Related, entity_labels
from agents.reading.candidates.lexicon import Lexicon
from agents.reading.candidates.reader import nlp
from agents.reading.mentions.known import Known
from agents.reading.questions.yes_no import read_question
from drowzee_core.kb.catalog import Catalog
from tests.unit.test_question_frames import NoKB, ask, silent


@pytest.mark.parametrize(
    ("question", "label", "expected"),
    [
        # a label that reads its noun with "of" and then its value: the sentence's "of" name is the value
        ("Is Ama Reyes a patron of the Fenby Club guild?", "patron of the guild", ("Ama Reyes", "Fenby Club")),
        ("Is Ama Reyes a trustee of Fenby Club?", "trustee of", ("Ama Reyes", "Fenby Club")),
        # "of" then a bare kind names the subject's kind: the sentence's "of" name owns the relation
        ("Is the home ground of Fenby Club Ostria?", "home ground of sports club", ("Fenby Club", "Ostria")),
    ],
)  # fmt: skip
def test_a_label_read_with_of_takes_its_value_after_of(question: str, label: str, expected: tuple[str, str]) -> None:
    a, b = expected
    (r,) = ask(question, [[a, label, b]])
    assert (r.subject, r.relation, r.object) == (a, label, b)


def test_a_noun_of_what_follows_of_in_the_label_takes_the_of_name_as_value() -> None:
    # "country of citizenship": "a citizen of Ostria" says the country is Ostria (WordNet: "citizen" ~ "citizenship")
    triples = [["Ama Reyes", "country of citizenship", "Ostria"]]
    linker = LabelLinker(silent, lambda lemma: CITIZEN.get(lemma, Related()), min_score=0.5)
    known = Known(NoKB(), triples)  # type: ignore[arg-type]
    lexicon = Lexicon.from_catalog(Catalog.from_toml(), nlp())
    doc = nlp()("Is Ama Reyes a citizen of Ostria?")
    (r,) = read_question(doc, lexicon, known, entity_labels(triples, nlp()), linker)
    assert (r.subject, r.relation, r.object) == ("Ama Reyes", "country of citizenship", "Ostria")


CITIZEN = {"citizen": Related(same=frozenset({"citizenship"}))}
