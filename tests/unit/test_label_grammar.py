"""The grammar of supplied relation labels: agent nouns, passives, values, and names as triples write them.

Pure parts with a scripted linker (lemmas and scripted WordNet neighbours only; the embedding relates
nothing). Names and sentences are written for these tests.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.reading.candidates.labels import LabelLinker, Related, RelationLabel, entity_labels
from agents.reading.candidates.lexicon import Lexicon
from agents.reading.candidates.reader import Reading, nlp
from agents.reading.mentions.finder import mentions
from agents.reading.mentions.known import Known
from agents.reading.mentions.spans import fold_same_length
from agents.reading.questions import question_text
from agents.reading.questions.yes_no import read_question
from drowzee_core.kb.catalog import Catalog
from tests.unit.test_question_frames import NoKB, silent

NEAR = {
    "direct": Related(agents=frozenset({"director"})),
    "publish": Related(agents=frozenset({"publisher"})),
    "train": Related(same=frozenset({"trainee"})),
}


def ask(question: str, triples: list[list[str]]) -> list[Reading]:
    lexicon = Lexicon.from_catalog(Catalog.from_toml(), nlp()).merged(
        Lexicon.from_labels([t[1] for t in triples], nlp())
    )
    linker = LabelLinker(silent, lambda lemma: NEAR.get(lemma, Related()), min_score=0.5)
    asked = question_text(question)
    assert asked is not None
    known = Known(NoKB(), triples)  # type: ignore[arg-type]
    return read_question(nlp()(asked), lexicon, known, entity_labels(triples, nlp()), linker)


def said(readings: list[Reading]) -> tuple[str, str, str, bool, str] | None:
    if not readings:
        return None
    r = readings[0]
    return (r.subject, r.relation, r.object, r.negated, r.kind)


FILM = [["Orchid Tide", "director", "Ansel Krane"], ["Orchid Tide", "publisher", "Brightreed"]]


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # the verb's agent noun: the doer is its value, active or passive
        ("Did Ansel Krane direct Orchid Tide?", ("Orchid Tide", "director", "Ansel Krane", False, "triple")),
        ("Was Orchid Tide directed by Ansel Krane?", ("Orchid Tide", "director", "Ansel Krane", False, "triple")),
        (
            "Is it true that Brightreed never published Orchid Tide?",
            ("Orchid Tide", "publisher", "Brightreed", True, "triple"),
        ),
    ],
)
def test_an_agent_noun_label_takes_the_doer_as_its_value(question: str, expected: tuple[str, ...]) -> None:
    assert said(ask(question, FILM)) == expected


def test_a_verb_label_said_in_the_passive_takes_the_agent_as_subject() -> None:
    series = [["Orchid Tide", "follows", "The Pale Choir"]]
    got = said(ask("Is it true that The Pale Choir was followed by Orchid Tide?", series))
    assert got == ("Orchid Tide", "follows", "The Pale Choir", False, "triple")
    got = said(ask("Does Orchid Tide follow The Pale Choir?", series))
    assert got == ("Orchid Tide", "follows", "The Pale Choir", False, "triple")


def test_a_noun_that_is_no_agent_noun_gives_no_direction() -> None:
    # "trainee" is what one trains, not who: a noun label linked only as a synonym stays ambiguous
    assert ask("Did Ama Reyes train Lio Marsh?", [["Lio Marsh", "trainee", "Ama Reyes"]]) == []


def test_the_shared_things_noun_is_the_label_when_it_names_one() -> None:
    works = [["Orchid Tide", "language of work", "French"], ["The Pale Choir", "language of work", "Danish"]]
    got = said(ask("Is it true that Orchid Tide and The Pale Choir are written in different languages?", works))
    assert got == ("Orchid Tide", "language of work", "The Pale Choir", True, "common")


def test_a_bare_copula_takes_the_one_label_its_value_has() -> None:
    works = [["Orchid Tide", "genre", "drama film"], ["The Pale Choir", "genre", "thriller film"]]
    got = said(ask("Is it true that The Pale Choir is not a drama film?", works))
    assert got == ("The Pale Choir", "genre", "drama film", True, "triple")
    # a value two labels take says no relation
    both = [*works, ["Orchid Tide", "based on", "drama film"]]
    assert ask("Is it true that The Pale Choir is a drama film?", both) == []


def test_names_are_found_as_the_triples_write_them() -> None:
    triples = [["Ysolde Borr", "child", "Kalán Borr"], ["1804", "part of", "1800s"], ["1805", "part of", "1800s"]]
    known = Known(NoKB(), triples)  # type: ignore[arg-type]
    for sentence in ("Is Kalan Borr a child?", "Is Kal_n_Borr a child?", "Is KALÁN BORR a child?"):
        found = mentions(nlp()(sentence), known)
        assert [m.text for m in found] == ["Kalán Borr"], sentence
    got = said(ask("Do 1804 and 1805 lie in the same decade, as parts of it?", triples))
    assert got == ("1804", "part of", "1805", False, "common")
    # a number no triple says anything about stays a number
    found = mentions(nlp()("Was it built in 1800s or 1900?"), known)
    assert all(m.text != "1900" or m.kind.value != "entity" for m in found)


def test_folding_keeps_offsets() -> None:
    text = "Kalán Østby ﬁx"
    assert len(fold_same_length(text)) == len(text)
    assert fold_same_length("Kalán") == "kalan"


def test_a_passive_agent_never_fills_a_pattern_without_one() -> None:
    # the catalog's "developed at" pattern has no doer; "developed by" names one
    triples = [["Gloam Harbor", "developer", "Tinmoth Studio"]]
    got = said(ask("Is it true that Gloam Harbor was developed by Tinmoth Studio?", triples))
    assert got is None or got[1] == "developer"


def test_a_supposition_asserts_nothing() -> None:
    triples = [["Lio Marsh", "child", "Ama Reyes"]]
    assert ask("If Lio Marsh was the parent of Ama Reyes, the record would say so. Please check it.", triples) == []
    lexicon = Lexicon.from_catalog(Catalog.from_toml(), nlp())
    known = Known(NoKB(), [["Germany", "capital", "Berlin"]])  # type: ignore[arg-type]
    from agents.reading.candidates.reader import read

    assert read(nlp()("If Berlin is the capital of Germany, the map is right."), lexicon, known) == []
    assert read(nlp()("Berlin is the capital of Germany."), lexicon, known)


def test_an_indefinite_common_noun_names_no_one_thing() -> None:
    class Everything:
        def resolve(self, name: str, k: int) -> list[int]:
            return [1]  # a KB that knows every word as a name

    known = Known(Everything(), [])  # type: ignore[arg-type]
    found = [m.text for m in mentions(nlp()("One event is a more specific instance of another event."), known)]
    assert "event" not in found and "another event" not in found
    found = [m.text for m in mentions(nlp()("Iron is a metal."), known)]
    assert "a metal" in found or "metal" in found  # a copula's predicate says what its subject is
    found = [m.text for m in mentions(nlp()("In this case, both battles are part of the Ostrian War."), known)]
    assert "case" not in found and "this case" not in found  # a demonstrative points back, it names nothing


def test_sharing_a_symmetric_relations_noun_is_the_relation_itself() -> None:
    # the catalog's symmetric "shares a border with": "X and Y share a border" says they border each other
    got = said(
        ask(
            "Do Norland and Westland share a border?", [["Norland", "capital", "Orvin"], ["Westland", "capital", "Vel"]]
        )
    )
    assert got is not None and got[4] == "triple" and {got[0], got[2]} == {"Norland", "Westland"}
    # "the same" keeps the common-object reading
    got = said(ask("Do Norland and Westland border the same country?", [["Norland", "borders", "Asel"]]))
    assert got is None or got[4] == "common"


def test_a_relation_and_its_inverse_are_no_ambiguity() -> None:
    # "seat" and "seat of" say the same facts both ways: the tie goes to the relational noun
    pair = [
        RelationLabel("has_seat", "seat", frozenset({"seat"}), inverse="seat_of"),
        RelationLabel("seat_of", "seat of", frozenset({"seat"}), inverse="has_seat"),
    ]
    linker = LabelLinker(silent, min_score=0.5)
    link = linker.link("seat", ["seat"], pair)
    assert link is not None and link.label == "has_seat"
    unrelated = [
        RelationLabel("has_seat", "seat", frozenset({"seat"})),
        RelationLabel("seat_of", "seat of", frozenset({"seat"})),
    ]
    assert linker.link("seat", ["seat"], unrelated) is None  # two relations that are not inverses still tie


def test_the_label_whose_words_the_predicate_says_most_fully_is_linked() -> None:
    # "seat" says all of the label "seat" and half of "keeps the seat"
    labels = [
        RelationLabel("seat", "seat", frozenset({"seat"})),
        RelationLabel("keeps seat", "keeps the seat", frozenset({"keep", "seat"})),
    ]
    linker = LabelLinker(silent, min_score=0.5)
    link = linker.link("seat", ["seat"], labels)
    assert link is not None and link.label == "seat"
    assert linker.link("keep", ["keep"], labels) is not None  # only "keeps the seat" says "keep"


def test_a_name_under_the_linked_phrase_of_a_supplied_label_is_no_part() -> None:
    # the linker judged "brought about the fall of" to say "overthrown by" (a scripted embedding)
    def near(texts: list[str]) -> np.ndarray:  # type: ignore[type-arg]
        out = silent(texts)
        for i, t in enumerate(texts):
            if "fall" in t or t == "overthrown by":
                out[i] = 0.0
                out[i, 0] = 1.0
        return out

    triples = [["Orvin", "overthrown by", "Ansel Krane"]]
    lexicon = Lexicon.from_catalog(Catalog.from_toml(), nlp()).merged(Lexicon.from_labels(["overthrown by"], nlp()))
    known = Known(NoKB(), triples)  # type: ignore[arg-type]
    asked = "Ansel Krane brought about the fall of Orvin."
    [r] = read_question(nlp()(asked), lexicon, known, entity_labels(triples, nlp()), LabelLinker(near, min_score=0.5))
    assert (r.subject, r.relation, r.object, r.partial) == ("Orvin", "overthrown by", "Ansel Krane", False)


def test_a_name_compounded_with_the_labels_noun_is_its_value() -> None:
    # "the Fauvism movement" is a movement named Fauvism, not Fauvism's movement
    got = said(
        ask("Is it true that Vell Orin is a member of the Fauvism movement?", [["Vell Orin", "movement", "Cubism"]])
    )
    assert got == ("Vell Orin", "movement", "Fauvism", False, "triple")
