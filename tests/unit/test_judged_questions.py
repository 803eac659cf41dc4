"""What a query puts up for judgement (`reading.questions.asked`), how a frame or a fronted "n't" sets its polarity
(`reading.candidates.scope.negated_doc`), and a property a word says of one name (`reading.questions.properties`).

Invented names throughout; the value senses are scripted, not WordNet's.
"""

from __future__ import annotations

import zlib
from collections.abc import Sequence

import numpy as np
import pytest
from numpy.typing import NDArray

from agents.reading.candidates.labels import LabelLinker, entity_labels, value_labels
from agents.reading.candidates.lexicon import Lexicon
from agents.reading.candidates.reader import Reading, nlp
from agents.reading.candidates.scope import asserts_nothing, negated_doc
from agents.reading.mentions.known import Known
from agents.reading.questions import question_text
from agents.reading.questions.asked import asked_text
from agents.reading.questions.frames import Span, predicate_words
from agents.reading.questions.yes_no import read_question
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind

SENSES = {("lady", "feminine"): True, ("gent", "feminine"): False, ("northerner", "north"): True}
"""Scripted senses: "lady" says "feminine", "gent" denies it."""


def silent(texts: Sequence[str]) -> NDArray[np.float32]:
    """An embedding that relates nothing: one axis per text, whichever call embeds it."""
    out = np.zeros((len(texts), 4096), dtype=np.float32)
    for i, text in enumerate(texts):
        out[i, zlib.crc32(text.encode()) % 4096] = 1.0
    return out


class NoKB:
    def resolve(self, name: str, k: int) -> list[int]:
        return []


def asked(query: str) -> str | None:
    return asked_text(nlp()(query))


def read(query: str, triples: list[list[str]]) -> list[Reading]:
    text = question_text(query)
    assert text is not None
    linker = LabelLinker(silent, min_score=0.5, means=lambda word, value: SENSES.get((word, value)))
    known = Known(NoKB(), triples)  # type: ignore[arg-type]
    lexicon = Lexicon.from_catalog(Catalog.from_toml(), nlp())
    labels = entity_labels(triples, nlp()) + value_labels(triples, nlp())  # as SentenceReader.ask gives them
    return read_question(nlp()(text), lexicon, known, labels, linker)


def test_a_question_that_says_nothing_itself_asks_about_the_statement_before_it() -> None:
    assert asked("Vell Orin founded Quarrow. Is this correct?") == "Vell Orin founded Quarrow"
    assert asked("Vell Orin founded Quarrow. Do you agree?") == "Vell Orin founded Quarrow"
    assert asked("Vell Orin founded Quarrow. Am I right?") == "Vell Orin founded Quarrow"
    assert asked("Is this correct?") is None  # nothing before it to judge
    assert asked("Vell Orin founded Quarrow. Is Quarrow old?") == "Is Quarrow old?"  # a question of its own


def test_a_denying_judgement_asks_whether_the_statement_is_false() -> None:
    assert asked("Vell Orin founded Quarrow. Is this wrong?") == "Is it false that Vell Orin founded Quarrow?"
    assert asked("Vell Orin founded Quarrow. Is this not correct?") == "Is it false that Vell Orin founded Quarrow?"
    assert asked("Vell Orin founded Quarrow. Isn't this correct?") == "Vell Orin founded Quarrow"


def test_a_tag_asks_about_the_statement_it_ends_whatever_its_own_negation() -> None:
    assert asked("Vell Orin founded Quarrow, didn't he?") == "Vell Orin founded Quarrow?"
    assert asked("Vell Orin did not found Quarrow, did he?") == "Vell Orin did not found Quarrow?"
    assert asked("Vell Orin founded Quarrow, right?") == "Vell Orin founded Quarrow?"
    assert asked("Vell Orin founded Quarrow, do you agree?") == "Vell Orin founded Quarrow?"
    assert asked("Vell Orin founded Quarrow, or Dask?") == "Vell Orin founded Quarrow, or Dask?"  # content: no tag


def test_a_judging_lead_introduces_the_statement() -> None:
    assert asked("True or false: Vell Orin founded Quarrow.") == "Vell Orin founded Quarrow"
    assert asked("Vell Orin founded Quarrow.") is None


def test_a_denying_frame_flips_and_a_fronted_contraction_asks() -> None:
    assert negated_doc(nlp()("Is it false that Vell Orin founded Quarrow?"))
    assert negated_doc(nlp()("It is incorrect that Vell Orin founded Quarrow."))
    assert not negated_doc(nlp()("It is not false that Vell Orin founded Quarrow."))
    assert not negated_doc(nlp()("Is it false that Vell Orin did not found Quarrow?"))
    assert not negated_doc(nlp()("Didn't Vell Orin found Quarrow?"))  # asks whether he did
    assert negated_doc(nlp()("Did Vell Orin not found Quarrow?"))
    assert negated_doc(nlp()("Vell Orin didn't found Quarrow."))  # a statement denies


TRIPLES = [["Vell Orin", "gender", "feminine"], ["Vell Orin", "hometown", "Quarrow"]]


def claim(r: Reading) -> tuple[str, str, str, bool, bool]:
    return (r.subject, r.relation, r.object, r.negated, r.partial)


def test_a_property_word_says_or_denies_a_supplied_value() -> None:
    [r] = read("Is Vell Orin a lady?", TRIPLES)
    assert claim(r) == ("Vell Orin", "gender", "feminine", False, False)
    [r] = read("Is Vell Orin a gent?", TRIPLES)  # a gent is not feminine
    assert claim(r) == ("Vell Orin", "gender", "feminine", True, False)
    [r] = read("Is Vell Orin not a gent?", TRIPLES)
    assert claim(r) == ("Vell Orin", "gender", "feminine", False, False)
    assert read("Is Vell Orin a giant?", TRIPLES) == []  # no sense links "giant" to a value


def test_a_value_qualifying_a_noun_is_a_partial_claim() -> None:
    [r] = read("Is Vell Orin a feminine sculptor?", TRIPLES)  # "sculptor" is said too, and nothing supplies it
    assert claim(r) == ("Vell Orin", "gender", "feminine", False, True)
    [r] = read("Vell Orin is not feminine. Is this right?", TRIPLES)
    assert claim(r) == ("Vell Orin", "gender", "feminine", True, False)


def test_a_reported_clause_holds_the_relation_words() -> None:
    doc = nlp()("Some people say Vell Orin lives in Quarrow.")
    names = [Span(3, 5), Span(7, 8)]
    assert [t.text for t in predicate_words(doc, names)] == ["lives", "in"]  # not "people", "say"
    doc = nlp()("Vell Orin says he lives in Quarrow.")  # a name outside the report: the whole sentence
    assert "says" in [t.text for t in predicate_words(doc, [Span(0, 2), Span(6, 7)])]


def test_judging_sentences_between_the_statement_and_the_question_compose() -> None:
    statement = "Vell Orin founded Quarrow."
    assert asked(f"{statement} I hold the contrary view. Do you agree?") == (
        "Is it false that Vell Orin founded Quarrow?"
    )
    assert asked(f"{statement} I doubt it. Am I wrong?") == "Vell Orin founded Quarrow"  # two denials
    assert asked(f"{statement} I agree. Do you?") == "Vell Orin founded Quarrow"
    assert asked("Is Quarrow old? I doubt it. Do you agree?") is None  # a question is no statement to judge


def test_a_said_value_is_written_as_the_triples_write_it() -> None:
    [r] = read("Is Vell Orin a northerner?", [*TRIPLES, ["Vell Orin", "region", "North"]])
    assert claim(r) == ("Vell Orin", "region", "North", False, False)


def test_a_supplied_year_label_reads_a_question_with_one_name_and_a_year() -> None:
    triples = [*TRIPLES, ["Quarrow", "census year", "1841"]]
    [r] = read("Is the census year of Quarrow 1841?", triples)
    assert (r.subject, r.relation, r.object) == ("Quarrow", "census year", "1841")
    assert [(x.relation, x.kind) for x in value_labels(triples, nlp())] == [("census year", ValueKind.YEAR)]
    assert value_labels([["Quarrow", "population", "12,500"]], nlp())[0].kind == ValueKind.QUANTITY


def test_a_word_that_says_one_value_denies_the_others_of_its_label() -> None:
    senses = {**SENSES, ("lady", "masculine"): False}
    triples = [["Vell Orin", "gender", "feminine"], ["Dask Orin", "gender", "masculine"]]
    text = question_text("Is Dask Orin a lady?")
    assert text is not None
    linker = LabelLinker(silent, min_score=0.5, means=lambda word, value: senses.get((word, value)))
    known = Known(NoKB(), triples)  # type: ignore[arg-type]
    lexicon = Lexicon.from_catalog(Catalog.from_toml(), nlp())
    [r] = read_question(nlp()(text), lexicon, known, entity_labels(triples, nlp()), linker)
    assert claim(r) == ("Dask Orin", "gender", "feminine", False, False)  # says "feminine", not "not masculine"


def test_a_one_word_ing_label_is_a_noun() -> None:
    from agents.reading.candidates.labels import label_lemmas, verbal_label

    assert label_lemmas("sibling", nlp()) == frozenset({"sibling"})
    assert not verbal_label("sibling", nlp())
    assert label_lemmas("killed by", nlp()) == frozenset({"kill"}) and verbal_label("follows", nlp())


def test_the_most_frequent_sense_wins_a_wordnet_tie() -> None:
    from agents.reading.candidates.labels import Related, RelationLabel

    near = {"brother": Related(broader=frozenset({"member", "sibling"}), primary=frozenset({"sibling"}))}
    linker = LabelLinker(silent, lambda lemma: near.get(lemma, Related()), min_score=0.5)
    labels = [
        RelationLabel("member of", "member of", frozenset({"member"})),
        RelationLabel("sibling", "sibling", frozenset({"sibling"})),
    ]
    link = linker.link("brother of", ["brother", "of"], labels)
    assert link is not None and link.label == "sibling"
    near["brother"] = Related(broader=frozenset({"member", "sibling"}))  # no sense says which: a tie, unread
    assert (
        LabelLinker(silent, lambda lemma: near.get(lemma, Related()), min_score=0.5).link(
            "brother of", ["brother", "of"], labels
        )
        is None
    )


def test_two_names_said_to_be_plural_nouns_of_each_other() -> None:
    [r] = read("Are Vell Orin and Dask Orin cousins?", [["Vell Orin", "cousin", "Dask Orin"]])
    assert (r.subject, r.relation, r.object) == ("Vell Orin", "cousin", "Dask Orin")


def test_a_question_the_parser_splits_is_one_sentence() -> None:
    # spaCy may end a sentence after a name with no end mark ("Is Mirela Dunne | the author of ...")
    question = "Is Mirela Dunne the author of The Glass Orchard?"
    assert asked_text(nlp()(question)) == question


@pytest.mark.parametrize(
    ("sentence", "nothing"),
    [
        ("The question asks if it is true that Ama Reyes has the coach of Lio Marsh.", True),
        ("To decide, we need to check whether Ama Reyes coached Lio Marsh.", True),
        ("Ama Reyes coached Lio Marsh, if I recall.", False),  # a hedge: the names are asserted outside it
        ("Ama Reyes coached Lio Marsh.", False),
    ],
)
def test_a_sentence_that_only_asks_asserts_nothing(sentence: str, nothing: bool) -> None:
    assert asserts_nothing(nlp()(sentence)) is nothing
