"""Question shapes as logic (`reading.questions.frames`, `reading.questions.yes_no`) with a scripted label linker.

The sentences and names are written for these tests. The linker scores by lemma only (a fake
embedding says nothing), so what is tested here is the parse: the asked clause, the frame, the
shape, the direction.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest
from numpy.typing import NDArray

from agents.reading.candidates.labels import LabelLinker, Related, RelationLabel, entity_labels, label_lemmas
from agents.reading.candidates.lexicon import Lexicon
from agents.reading.candidates.reader import Reading, nlp
from agents.reading.claims.referents import doer_and_done, topic
from agents.reading.mentions.known import Known
from agents.reading.questions import question_text
from agents.reading.questions.asked import asked_text, is_request
from agents.reading.questions.frames import Span, quantity, sameness
from agents.reading.questions.yes_no import read_question
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind

CONVERSE = {"parent": Related(converse=frozenset({"child"})), "child": Related(converse=frozenset({"parent"}))}


_AXES: dict[str, int] = {}
"""Each text's own axis, given in the order texts are first seen (not by `hash`, which is salted per process:
two texts on one axis had cosine 1.0 and an embedding link, in about one run in 64)."""


def silent(texts: Sequence[str]) -> NDArray[np.float32]:
    """An embedding that relates nothing (every text orthogonal to every other)."""
    out = np.zeros((len(texts), 4096), dtype=np.float32)
    for i, t in enumerate(texts):
        out[i, _AXES.setdefault(t, len(_AXES))] = 1.0
    return out


class NoKB:
    def resolve(self, name: str, k: int) -> list[int]:
        return []


def ask(question: str, triples: list[list[str]]) -> list[Reading]:
    lexicon = Lexicon.from_catalog(Catalog.from_toml(), nlp())
    linker = LabelLinker(silent, lambda lemma: CONVERSE.get(lemma, Related()), min_score=0.5)
    asked = question_text(question)
    assert asked is not None
    known = Known(NoKB(), triples)  # type: ignore[arg-type]
    return read_question(nlp()(asked), lexicon, known, entity_labels(triples, nlp()), linker)


def test_the_asked_statement_is_the_question_or_the_statement_before_a_request() -> None:
    assert asked_text(nlp()("Some context here. Is Lio the coach of Ama?")) == "Is Lio the coach of Ama?"
    assert asked_text(nlp()("Lio is not the coach of Ama. Please check whether this holds.")) == (
        "Lio is not the coach of Ama"
    )
    assert asked_text(nlp()("Lio coaches Ama.")) is None  # a bare statement asks nothing
    assert is_request(next(iter(nlp()("Verify this claim.").sents)))
    assert not is_request(next(iter(nlp()("Lio verified this claim.").sents)))


def test_shape_words_need_two_coordinated_names() -> None:
    doc = nlp()("Do Lio Marsh and Ama Reyes have the same coach?")
    assert sameness(doc, [Span(1, 3), Span(4, 6)]) is True
    doc = nlp()("Do Lio Marsh and Ama Reyes have different coaches?")
    assert sameness(doc, [Span(1, 3), Span(4, 6)]) is False
    assert sameness(doc, [Span(1, 3)]) is None
    assert quantity(nlp()("Were more than two races held at Fenby?")) is not None
    assert quantity(nlp()("Were at least three races held at Fenby?"))[1] == 3  # type: ignore[index]
    assert quantity(nlp()("Was one race held at Fenby?")) is None


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # a relational noun's "of" name is the subject of a noun label
        ("Is it true that Lio Marsh is the coach of Ama Reyes?", ("Ama Reyes", "coach", "Lio Marsh", False)),
        ("Lio Marsh is not the coach of Ama Reyes. Please check it.", ("Ama Reyes", "coach", "Lio Marsh", True)),
        ("Is it possible for Lio Marsh to be the coach of Ama Reyes?", ("Ama Reyes", "coach", "Lio Marsh", False)),
        # a possessive owns the noun; "has a N named Y" makes the subject the owner
        ("Is it true that Ama Reyes's coach is Lio Marsh?", ("Ama Reyes", "coach", "Lio Marsh", False)),
        ("Does Ama Reyes have a coach named Lio Marsh?", ("Ama Reyes", "coach", "Lio Marsh", False)),
    ],
)  # fmt: skip
def test_triples_take_their_direction_from_the_grammar(question: str, expected: tuple[str, str, str, bool]) -> None:
    (r,) = ask(question, [["Ama Reyes", "coach", "Lio Marsh"]])
    assert (r.subject, r.relation, r.object, r.negated) == expected and r.kind == "triple"


def test_a_description_in_apposition_says_what_a_name_is_not_the_relation() -> None:
    # "team" is a label too: were "the team captain" predicate words, "coach" and "team" would tie
    triples = [["Ama Reyes", "coach", "Lio Marsh"], ["Ama Reyes", "team", "Fenby Club"]]
    (r,) = ask("Is Lio Marsh the coach of the team captain Ama Reyes?", triples)
    assert (r.subject, r.relation, r.object) == ("Ama Reyes", "coach", "Lio Marsh")


def test_a_converse_noun_swaps_the_direction() -> None:
    triples = [["Ama Reyes", "child", "Lio Marsh"]]  # Lio is a child of Ama
    (r,) = ask("Is it true that Lio Marsh's parent is Ama Reyes?", triples)
    assert (r.subject, r.relation, r.object) == ("Ama Reyes", "child", "Lio Marsh")
    (both,) = ask("Is it true that Lio Marsh and Ama Reyes are child and parent?", triples)
    assert (both.subject, both.relation, both.object) == ("Ama Reyes", "child", "Lio Marsh")


def test_ambiguous_or_unlinked_predicates_stay_unread() -> None:
    triples = [["Ama Reyes", "coach", "Lio Marsh"]]
    assert ask("Is it true that Ama Reyes admires Lio Marsh?", triples) == []  # no label says "admire"
    assert ask("Did Lio Marsh train Ama Reyes?", triples) == []  # a verb for a noun label: which way?


def test_common_and_count_shapes() -> None:
    triples = [["Ama Reyes", "coach", "Lio Marsh"], ["Tam Oduya", "coach", "Lio Marsh"]]
    (same,) = ask("Is it true that Ama Reyes and Tam Oduya have the same coach?", triples)
    assert (same.kind, same.subject, same.relation, same.object, same.negated) == (
        "common", "Ama Reyes", "coach", "Tam Oduya", False,
    )  # fmt: skip
    (diff,) = ask("Do Ama Reyes and Tam Oduya have totally different coaches?", triples)
    assert diff.kind == "common" and diff.negated
    races = [["Fenby Cup", "venue", "Fenby"], ["Fenby Trophy", "venue", "Fenby"]]
    (n,) = ask("Is Fenby busy because more than one race had this town as its venue?", races)
    assert (n.kind, n.subject, n.relation, n.object, n.negated) == ("count", "Fenby", "venue", "2", False)


def test_label_lemmas_and_value_labels() -> None:
    assert label_lemmas("killed by", nlp()) == frozenset({"kill"})
    labels = entity_labels([["A", "point in time", "1901"], ["A", "venue", "B"], ["A", "founded", "1901-05-02"]], nlp())
    assert [x.relation for x in labels] == ["venue"]


def test_the_linker_needs_a_margin() -> None:
    same_vector = lambda texts: np.full((len(texts), 4), 0.4, dtype=np.float32)  # noqa: E731
    linker = LabelLinker(same_vector, min_score=0.5, margin=0.05)
    two = [RelationLabel("a", "alpha", frozenset({"alpha"})), RelationLabel("b", "beta", frozenset({"beta"}))]
    assert linker.link("gamma", ["gamma"], two) is None  # two labels equally near: unread
    found = linker.link("alpha thing", ["alpha", "thing"], two)
    assert found is not None and (found.label, found.how) == ("a", "lemma")


def test_the_type_of_the_shared_thing_is_not_the_relation() -> None:
    clubs = [["Ama Reyes", "member", "Red Club"], ["Tam Oduya", "member", "Blue Club"]]
    (r,) = ask("Are Ama Reyes and Tam Oduya members of different clubs?", clubs)
    assert (r.kind, r.relation, r.negated) == ("common", "member", True)


PLACES: dict[str, tuple[str, ...]] = {"Norlandic": ("Norland",), "Ostrian": ("Ostria",)}
"""Scripted pertainyms: invented place adjectives and the places they pertain to."""

HOLDS = {
    ("resident", "Tova Brenn", "Norland"),
    ("lives in", "Tova Brenn", "Norland"),
    ("lives in", "Tova Brenn", "Ostria"),
    ("mint", "Norland", "krone"),
    ("seat", "Norland", "Vessa"),
    ("lives in", "Dunmere", "Norland"),
}
"""Which (label, subject, object) a scripted KB types: the names that can fill each label's ends."""


class ScriptedTypes:
    """A type check over `HOLDS`: a name fits an end of a label where a held triple has it there."""

    def __call__(self, relation: str, subject: str, obj: str, strict: bool = False) -> bool:
        return (relation, subject, obj) in HOLDS

    def can(self, text: str, relation: str, end: str, strict: bool = False) -> bool:
        """Like `TypeCheck.can`: a relation no held triple has says nothing (True unless `strict`)."""
        held = [(s, o) for r, s, o in HOLDS if r == relation]
        return any((s if end == "s" else o) == text for s, o in held) or (not held and not strict)


typed = ScriptedTypes()


def ask_typed(sentence: str, labels: list[str], lowercase: tuple[str, ...] = ()) -> list[Reading]:
    lexicon = Lexicon.from_catalog(Catalog.from_toml(), nlp())
    linker = LabelLinker(silent, min_score=0.5, pertains=lambda adjective: PLACES.get(adjective, ()))
    names = [
        ["Tova Brenn", "x", "Norland"],
        ["Ostria", "x", "Tova Brenn"],
        ["Dunmere", "x", "Vessa"],
        *[["Norland", "x", w] for w in lowercase],
    ]
    known = Known(NoKB(), names)  # type: ignore[arg-type]
    found = [RelationLabel(x, x, label_lemmas(x, nlp())) for x in labels]
    return read_question(nlp()(sentence), lexicon, known, found, linker, typed)


def test_a_place_adjective_is_read_as_the_place_it_pertains_to() -> None:
    [r] = ask_typed("Tova Brenn is a Norlandic resident.", ["resident", "mint"])  # the adjective is the value
    assert (r.subject, r.relation, r.object) == ("Tova Brenn", "resident", "Norland")


def test_only_the_labels_both_names_can_fill_are_linked() -> None:
    # both labels say only the lemma "live": untyped, they tie and the sentence stays unread
    both = ["lives in", "lives at"]
    assert ask_typed("Tova Brenn lives in Ostria.", both)[0].relation == "lives in"
    assert (
        read_question(
            nlp()("Tova Brenn lives in Ostria."),
            Lexicon.from_catalog(Catalog.from_toml(), nlp()),
            Known(NoKB(), [["Tova Brenn", "x", "Ostria"]]),  # type: ignore[arg-type]
            [RelationLabel(x, x, label_lemmas(x, nlp())) for x in both],
            LabelLinker(silent, min_score=0.5),
        )
        == []
    )


def test_a_copulas_place_preposition_says_the_relation_when_nothing_else_does() -> None:
    [r] = ask_typed("Tova Brenn is in Ostria.", ["in"])
    assert (r.subject, r.relation, r.object) == ("Tova Brenn", "in", "Ostria")
    assert ask_typed("Tova Brenn is near Ostria.", ["in"]) == []  # "near" says no label's word


def test_an_adjective_owns_the_noun_where_only_it_can_be_the_subject() -> None:
    # Norland has a seat (Vessa); Dunmere has none: "the Norlandic seat" is Norland's, not Dunmere's value
    [r] = ask_typed("The Norlandic seat is Vessa.", ["seat", "lives in"])
    assert (r.subject, r.relation, r.object) == ("Norland", "seat", "Vessa")
    [r] = ask_typed("The Norlandic seat is Dunmere.", ["seat", "lives in"])  # a false claim is read the same way
    assert (r.subject, r.relation, r.object) == ("Norland", "seat", "Dunmere")


def test_a_label_the_words_say_is_linked_though_the_names_never_filled_it() -> None:
    # typed, only "lives in" fits Norland and Dunmere; the sentence says "seat", so "seat" is the relation
    [r] = ask_typed("Norland's seat is Dunmere.", ["seat", "lives in"])
    assert (r.subject, r.relation, r.object) == ("Norland", "seat", "Dunmere")


def test_has_the_noun_name_makes_the_subject_the_owner() -> None:
    [r] = ask_typed("Norland has the seat Vessa.", ["seat", "lives in"])
    assert (r.subject, r.relation, r.object) == ("Norland", "seat", "Vessa")


def test_a_people_in_the_plural_is_read_as_its_place() -> None:
    [r] = ask_typed("Norlandics pay with the krone.", ["pays with", "seat"], lowercase=("krone",))
    assert (r.subject, r.relation, r.object) == ("Norland", "pays with", "krone")


def test_an_opening_pronoun_stands_for_the_name_the_question_asks_about() -> None:
    known = Known(NoKB(), [["Tova Brenn", "x", "Norland"]])  # type: ignore[arg-type]
    assert topic("When was Tova Brenn born?", known) == "Tova Brenn"
    assert topic("Some context first. Did Tova Brenn found Norland?", known) == "Tova Brenn"
    assert topic("Which country is Tova Brenn from?", known) == "Tova Brenn"
    assert topic("Who married Tova Brenn?", known) is None  # "She ..." is the answer, not Tova Brenn
    assert topic("Who founded Norland?", known, "She founded it.") is None  # "She" is the answer
    # no person is "it": the question's name is, where the question asks for a person
    assert topic("Who founded Norland?", known, "It was founded in 1850.") == "Norland"
    assert topic("Who founded Norland?", known, "Tova Brenn founded it in 1850.") == "Norland"  # "it" anywhere
    assert topic("Who founded Norland?", known, "He founded it in 1850.") is None  # "He" is the answer
    possessed = Known(NoKB(), [["Ansel's Last Theorem", "x", "Norland"]])  # type: ignore[arg-type]
    # the name's head is "Theorem", the object of "proved", not its possessor "Ansel"
    assert topic("Who proved Ansel's Last Theorem?", possessed, "It was proved in 1990.") == "Ansel's Last Theorem"
    odd = Known(NoKB(), [["twin orbit theorem", "x", "Norland"]])  # type: ignore[arg-type]
    # however the parser hangs the one thing a "Who ...?" question names ("theorem" as a predicate), "it" is it
    assert topic("Who proved the twin orbit theorem?", odd, "It was proved in 1990.") == "twin orbit theorem"
    assert topic("Who proved the twin orbit theorem?", odd, "She proved it.") is None  # "She" is the answer
    pair = Known(NoKB(), [["Tova Brenn", "x", "Vell Reef"]])  # type: ignore[arg-type]
    assert doer_and_done("Did Tova Brenn chart Vell Reef?", pair) == ("Tova Brenn", "Vell Reef")
    assert doer_and_done("Was Vell Reef charted by Tova Brenn?", pair) is None  # passive: no word order
    assert doer_and_done("Did Tova Brenn die?", pair) is None
    assert topic("Which city borders Norland?", known) is None  # "It ..." is the answer
    assert topic("What is the capital of Norland?", known) is None  # "It ..." is the capital
    assert topic("Tell me about Tova Brenn.", known) is None


def test_one_name_and_one_value_link_a_value_label() -> None:
    lexicon = Lexicon.from_catalog(Catalog.from_toml(), nlp())
    known = Known(NoKB(), [["Orvin", "x", "Norland"]])  # type: ignore[arg-type]
    labels = [
        RelationLabel(
            "year of coronation", "year of coronation", label_lemmas("year of coronation", nlp()), kind=ValueKind.YEAR
        ),
        RelationLabel(
            "year of abdication", "year of abdication", label_lemmas("year of abdication", nlp()), kind=ValueKind.YEAR
        ),
        RelationLabel("mayor", "mayor", label_lemmas("mayor", nlp())),
    ]
    linker = LabelLinker(silent, min_score=0.5)
    [r] = read_question(nlp()("Orvin's coronation year is 1203."), lexicon, known, labels, linker)
    assert (r.subject, r.relation, r.object) == ("Orvin", "year of coronation", "1203")
    # two values, or a year no label's words say: nothing is read
    assert (
        read_question(
            nlp()("Orvin's coronation year is 1203, its abdication year 1544."), lexicon, known, labels, linker
        )
        == []
    )
    assert read_question(nlp()("Orvin's best year was 1203."), lexicon, known, labels, linker) == []


def test_a_quantified_relational_noun_names_no_pair() -> None:
    triples = [["Ama Reyes", "coach", "Lio Marsh"]]
    assert ask("Is it true that Ama Reyes had any other coaches besides Lio Marsh?", triples) == []
    assert ask("Is it true that Lio Marsh was the coach of Ama Reyes?", triples)  # one pair: read
