"""The learned relation reader's pick (`reading.candidates.learned`) with a scripted model, and its recipe's pieces."""

from __future__ import annotations

import json

import numpy as np
import pytest

from agents.reading.candidates.learned import MODEL_PATH, RelationModel, choose, masked
from agents.reading.candidates.reader import nlp
from agents.reading.mentions.finder import Mention
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from finetune.reader import data
from finetune.reader.train import threshold
from tests.unit.statement_catalog import rel

CATALOG = Catalog.from_dict(
    {
        "relation": [
            rel("in_constellation", "{s} is in the constellation {o}.", "{s} is not in {o}.", "Is {s} in {o}?"),
            rel("located_in", "{s} is located in {o}.", "{s} is not located in {o}.", "Is {s} located in {o}?"),
        ]
    }
)
CLASSES = ("NONE", "in_constellation", "located_in")


def model(probs: list[float], tau: float = 0.8) -> RelationModel:
    """A model whose scores are `log(probs)` whatever the vector (the encoder below gives ones)."""
    logits = np.log(np.array(probs))
    return RelationModel(
        weights=np.zeros((3, 2), dtype=np.float32),
        bias=logits.astype(np.float32),
        classes=CLASSES,
        threshold=tau,
        recipe={},
    )


def encode(texts: list[str]) -> np.ndarray:
    return np.ones((len(texts), 2), dtype=np.float32)


def star_can(text: str, relation: str, end: str) -> bool:
    """Only `in_constellation` fits a star and a constellation."""
    return relation == "in_constellation"


def mentions(doc: object, *spans: tuple[int, int, ValueKind]) -> list[Mention]:
    return [Mention(a, b, doc[a:b].text, kind) for a, b, kind in spans]  # type: ignore[index]


def test_masked_puts_x_and_y_on_the_mentions() -> None:
    doc = nlp()("Canopus is found in Centaurus.")
    s, o = mentions(doc, (0, 1, ValueKind.ENTITY), (4, 5, ValueKind.ENTITY))
    assert masked(doc, s, o) == "X is found in Y."
    assert masked(doc, o, s) == "Y is found in X."


def test_masked_leaves_out_an_opening_answer_word() -> None:
    doc = nlp()("Yes, Canopus is found in Centaurus.")
    s, o = mentions(doc, (2, 3, ValueKind.ENTITY), (6, 7, ValueKind.ENTITY))
    assert masked(doc, s, o) == "X is found in Y."  # "Yes" answers a question; it says no relation


def test_two_mentions_the_types_fit_to_one_relation_are_read_when_the_model_sees_a_relation() -> None:
    doc = nlp()("Canopus is found in Centaurus.")
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (4, 5, ValueKind.ENTITY))
    choice = choose(doc, found, CATALOG, star_can, encode, model([0.05, 0.15, 0.8]))
    assert choice is not None and (choice.subject.text, choice.relation, choice.object.text) == (
        "Canopus",
        "in_constellation",
        "Centaurus",
    )
    assert not choice.negated


def test_no_reading_when_the_model_sees_no_catalog_relation() -> None:
    doc = nlp()("Canopus is found in Centaurus.")
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (4, 5, ValueKind.ENTITY))
    assert choose(doc, found, CATALOG, star_can, encode, model([0.5, 0.25, 0.25])) is None  # 1 - P(NONE) < 0.8


def test_a_rival_the_types_allow_must_be_beaten_by_a_margin() -> None:
    doc = nlp()("Canopus is found in Centaurus.")
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (4, 5, ValueKind.ENTITY))
    assert choose(doc, found, CATALOG, lambda t, r, e: True, encode, model([0.01, 0.4, 0.59])) is None
    choice = choose(doc, found, CATALOG, lambda t, r, e: True, encode, model([0.01, 0.19, 0.8]))
    assert choice is not None and choice.relation == "located_in"


def test_a_third_mention_or_no_fitting_relation_leaves_the_sentence_unread() -> None:
    doc = nlp()("Canopus and Rigel are found in Centaurus.")
    three = mentions(doc, (0, 1, ValueKind.ENTITY), (2, 3, ValueKind.ENTITY), (6, 7, ValueKind.ENTITY))
    assert choose(doc, three, CATALOG, star_can, encode, model([0.01, 0.98, 0.01])) is None
    two = mentions(doc, (0, 1, ValueKind.ENTITY), (6, 7, ValueKind.ENTITY))
    assert choose(doc, two, CATALOG, lambda t, r, e: False, encode, model([0.01, 0.98, 0.01])) is None


def test_a_pronoun_in_a_third_place_leaves_the_sentence_unread() -> None:
    # "it" is what was found: the two mentions are not the ends of what the sentence relates
    doc = nlp()("Canopus found it in Centaurus.")
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (4, 5, ValueKind.ENTITY))
    assert choose(doc, found, CATALOG, star_can, encode, model([0.05, 0.9, 0.05])) is None
    # the same sentence with the pronoun as one of the two mentions is read
    doc = nlp()("It is found in Centaurus.")
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (4, 5, ValueKind.ENTITY))
    assert choose(doc, found, CATALOG, star_can, encode, model([0.05, 0.9, 0.05])) is not None


def test_a_negated_sentence_gives_a_negated_choice() -> None:
    doc = nlp()("Canopus is not found in Centaurus.")
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (5, 6, ValueKind.ENTITY))
    choice = choose(doc, found, CATALOG, star_can, encode, model([0.05, 0.9, 0.05]))
    assert choice is not None and choice.negated


def test_the_training_rows_mask_whole_words_only() -> None:
    assert data.masked("Paris is the capital of France.", "France", "Paris") == "Y is the capital of X."
    assert data.masked("Parisian food is in France.", "France", "Paris") is None  # "Paris" is no word there
    assert data.masked("Lyon is in France.", "France", "France") is None


def test_the_threshold_weighs_none_rows_as_many_as_relation_rows() -> None:
    classes = ["NONE", "r"]
    # 10 relation rows at P(NONE) 0.1, 100 NONE rows: 5 at P(NONE) 0.1, 95 at 0.9
    probs = np.array([[0.1, 0.9]] * 10 + [[0.1, 0.9]] * 5 + [[0.9, 0.1]] * 95)
    y = ["r"] * 10 + ["NONE"] * 100
    tau, figures = threshold(probs, y, classes)
    # weighed, the 5 NONE rows count 0.5: precision 10 / 10.5 >= 0.95 at the first threshold tried
    assert tau == pytest.approx(0.30) and figures["recall"] == 1.0 and figures["precision"] > 0.95


def test_the_shipped_model_says_what_made_it() -> None:
    m = RelationModel.load()
    assert m.classes[0] == "NONE" and m.weights.shape[0] == len(m.classes)
    assert m.recipe["produced_by"] == "finetune.reader.train" and 0.5 <= m.threshold < 1.0
    assert MODEL_PATH.stat().st_size < 2**20 and json.dumps(m.recipe)


@pytest.mark.parametrize(
    ("text", "spans"),
    [
        ("Camden, New Jersey is a town.", ((0, 1), (2, 4))),  # both inside the subject's phrase
        ("Port of Spain is a town.", ((2, 3), (5, 6))),  # "Spain" is no subject
        ("the mascot is in Vietnam.", ((1, 2), (4, 5))),  # a common noun is no subject name
    ],
)
def test_only_the_subject_and_a_mention_outside_its_phrase_are_paired(
    text: str, spans: tuple[tuple[int, int], tuple[int, int]]
) -> None:
    doc = nlp()(text)
    found = mentions(doc, *((a, b, ValueKind.ENTITY) for a, b in spans))
    assert choose(doc, found, CATALOG, lambda t, r, e: True, encode, model([0.01, 0.01, 0.98])) is None


def test_a_common_noun_with_no_article_is_a_subject_name() -> None:
    doc = nlp()("helium is in Norland.")  # a substance named by a common noun, as prose writes it
    assert doc[0].pos_ == "NOUN"
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (3, 4, ValueKind.ENTITY))
    choice = choose(doc, found, CATALOG, lambda t, r, e: True, encode, model([0.01, 0.01, 0.98]))
    assert choice is not None and (choice.subject.text, choice.relation) == ("helium", "located_in")


def test_a_common_noun_fills_only_a_class_slot() -> None:
    catalog = Catalog.from_dict(
        {
            "relation": [
                rel("located_in", "{s} is located in {o}.", "{s} is not located in {o}.", "Is {s} in {o}?"),
                rel("occupation", "{s} was a {o}.", "{s} was not a {o}.", "Was {s} a {o}?"),
            ]
        }
    )
    doc = nlp()("Corsica is a mountain.")
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (3, 4, ValueKind.ENTITY))
    only = {"located_in": [0.01, 0.98, 0.01], "occupation": [0.01, 0.01, 0.98]}
    for relation, probs in only.items():
        m = RelationModel(
            weights=np.zeros((3, 2), dtype=np.float32),
            bias=np.log(np.array(probs)).astype(np.float32),
            classes=("NONE", "located_in", "occupation"),
            threshold=0.8,
            recipe={},
        )
        choice = choose(doc, found, catalog, lambda t, r, e, want=relation: r == want, encode, m)
        assert (choice is not None) == (relation == "occupation")


def test_a_word_of_the_relations_antonym_keeps_the_sentence_unread() -> None:
    doc = nlp()("Lyon lies outside France.")
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (3, 4, ValueKind.ENTITY))
    denials = {"located_in": frozenset({"outside"})}
    m = model([0.01, 0.01, 0.98])
    assert choose(doc, found, CATALOG, lambda t, r, e: r == "located_in", encode, m, denials=denials) is None
    assert choose(doc, found, CATALOG, lambda t, r, e: r == "located_in", encode, m) is not None


def test_a_main_verb_of_other_relations_that_fit_the_pair_leaves_the_sentence_unread() -> None:
    sighted = rel("sighted_by", "{s} was sighted by {o}.", "{s} was not sighted by {o}.", "Was {s} sighted by {o}?")
    catalog = Catalog.from_dict({"relation": [*(CATALOG.get(n).model_dump() for n in CLASSES[1:]), sighted]})
    wording = {
        "in_constellation": frozenset({"be", "in", "constellation"}),
        "located_in": frozenset({"locate", "in"}),
        "sighted_by": frozenset({"sight", "by"}),
    }
    doc = nlp()("Canopus sighted Centaurus.")
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (2, 3, ValueKind.ENTITY))
    sure = model([0.05, 0.9, 0.05])

    def sights_too(text: str, relation: str, end: str) -> bool:
        return relation in ("in_constellation", "sighted_by")

    # "sight" is declared by `sighted_by`, which could hold the pair: the sentence says that, not a constellation
    assert choose(doc, found, catalog, sights_too, encode, sure, wording=wording) is None
    # where the verb's own relation cannot hold the pair, it says nothing against the model
    assert choose(doc, found, catalog, star_can, encode, sure, wording=wording) is not None
    found_in = nlp()("Canopus is found in Centaurus.")
    spans = mentions(found_in, (0, 1, ValueKind.ENTITY), (4, 5, ValueKind.ENTITY))
    assert choose(found_in, spans, catalog, sights_too, encode, sure, wording=wording) is not None  # no verb says it


def test_a_noun_the_main_verb_takes_that_neither_mention_holds_leaves_the_sentence_unread() -> None:
    sure = model([0.05, 0.9, 0.05])
    doc = nlp()("Canopus carries the lamp in Centaurus.")
    found = mentions(doc, (0, 1, ValueKind.ENTITY), (5, 6, ValueKind.ENTITY))
    assert choose(doc, found, CATALOG, star_can, encode, sure) is None  # "the lamp" is a third thing
    plain = nlp()("Canopus shines in Centaurus.")
    two = mentions(plain, (0, 1, ValueKind.ENTITY), (3, 4, ValueKind.ENTITY))
    assert choose(plain, two, CATALOG, star_can, encode, sure) is not None


def test_an_article_is_the_mentions_own_only_where_it_heads_it() -> None:
    from agents.reading.candidates.learned import _classed

    doc = nlp()("Velium is an x-block element.")
    block = Mention(3, 6, "x-block", ValueKind.ENTITY)
    assert doc[3:6].text == "x-block" and not _classed(doc, block)  # "an" is the element's
    doc = nlp()("Orvin is a mountain.")
    assert _classed(doc, Mention(3, 4, "mountain", ValueKind.ENTITY))
