"""Reading a user's relations from their declaration: comparisons by value kind, descriptions, generic labels."""

from __future__ import annotations

import pytest

from agents.reading.candidates.comparatives import read_comparative
from agents.reading.candidates.lexicon import AGENT, SLOT_O, SLOT_S, Lexicon
from agents.reading.candidates.reader import nlp
from agents.reading.mentions.descriptions import Hop, resolve_descriptions
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import RelationSpec, ValueKind
from drowzee_core.kb.writer import label_from_name

NAMES = {"Orla Pym", "Quince Row", "Bellmead", "Hollin Yard", "Tansy Ferrow"}


def known(text: str) -> bool:
    return text in NAMES


def _spec(name: str, label: str, positive: str, kind: ValueKind = ValueKind.ENTITY, **more: object) -> RelationSpec:
    said = {"positive": positive, "negative": positive, "question": positive}
    return RelationSpec.model_validate(
        {"name": name, "label": label, "category": "active_verb"} | said | more | {"object_kind": kind}
    )


CATALOG = Catalog(
    [
        _spec("opened_in", "opened in", "{s} opened in {o}.", ValueKind.YEAR, category="passive_verb"),
        _spec("seats", "seats", "{s} seats {o}.", ValueKind.QUANTITY),
        _spec(
            "staff_count", "staff count", "The staff count of {s} is {o}.", ValueKind.QUANTITY, category="noun_phrase"
        ),
        _spec(
            "landlord", "landlord", "The landlord of {s} is {o}.", category="noun_phrase", phrase="the landlord of {s}"
        ),
        _spec("trains", "trains", "{s} trains {o}."),
    ]
)


@pytest.fixture(scope="module")
def lexicon() -> Lexicon:
    return Lexicon.from_catalog(CATALOG, nlp())


@pytest.mark.parametrize(
    ("sentence", "want"),
    [
        ("Quince Row opened before Bellmead.", ("Quince Row", "Bellmead", "opened_in", "least")),
        ("Bellmead opened after Quince Row.", ("Bellmead", "Quince Row", "opened_in", "most")),
        ("Quince Row is older than Bellmead.", ("Quince Row", "Bellmead", "opened_in", "least")),
        ("Quince Row seats more people than Bellmead.", ("Quince Row", "Bellmead", "seats", "most")),
        ("Bellmead has a smaller staff count than Quince Row.", ("Bellmead", "Quince Row", "staff_count", "least")),
        ("Quince Row has fewer staff than Bellmead.", ("Quince Row", "Bellmead", "staff_count", "least")),
    ],
)
def test_two_names_compared_by_a_declared_year_or_number(
    lexicon: Lexicon, sentence: str, want: tuple[str, str, str, str]
) -> None:
    got = read_comparative(nlp()(sentence), known, CATALOG, lexicon)
    assert got is not None and (got.subject, got.other, got.relation, got.direction) == want


@pytest.mark.parametrize(
    "sentence",
    [
        "Quince Row did not open before Bellmead.",  # negated: left to the other readers
        "Quince Row is larger than Bellmead.",  # two number relations, no word says which
        "Quince Row opened in 1990 and Bellmead later.",  # one name only before the comparative
        "Orla Pym trains Tansy Ferrow and Bellmead.",  # no comparative
    ],
)
def test_no_comparison_where_the_sentence_does_not_say_which(lexicon: Lexicon, sentence: str) -> None:
    assert read_comparative(nlp()(sentence), known, CATALOG, lexicon) is None


def objects(name: str, relation: str) -> list[str]:
    stored = {("Quince Row", "landlord"): ["Orla Pym"], ("Bellmead", "landlord"): ["Orla Pym", "Tansy Ferrow"]}
    return stored.get((name, relation), [])


@pytest.mark.parametrize(
    ("sentence", "want", "hops"),
    [
        ("The landlord of Quince Row trains Tansy Ferrow.", "Orla Pym trains Tansy Ferrow.", 1),
        ("Quince Row's landlord trains Tansy Ferrow.", "Orla Pym trains Tansy Ferrow.", 1),
        ("Tansy Ferrow trains the landlord of Quince Row.", "Tansy Ferrow trains Orla Pym.", 1),
        # the predicate itself is the claim, not a description to resolve
        ("The landlord of Quince Row is Tansy Ferrow.", "The landlord of Quince Row is Tansy Ferrow.", 0),
        # two stored values: the description names no one thing
        ("The landlord of Bellmead trains Tansy Ferrow.", "The landlord of Bellmead trains Tansy Ferrow.", 0),
    ],
)
def test_descriptions_resolve_to_the_one_stored_value(sentence: str, want: str, hops: int) -> None:
    text, found = resolve_descriptions(sentence, nlp(), known, CATALOG, objects)
    assert text == want and len(found) == hops
    if hops:
        assert found[0] == Hop("Quince Row", "landlord", "Orla Pym")


def test_an_active_verb_relation_is_also_read_in_the_passive(lexicon: Lexicon) -> None:
    trains = [p.items for p in lexicon.patterns if p.relation == "trains" and p.passive]
    assert (SLOT_O, "train", AGENT, SLOT_S) in trains


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("has_director", "director"),
        ("partnerOf", "partner of"),
        ("is_member_of", "member of"),
        ("founded_in", "founded in"),
        ("place of birth", "place of birth"),
        ("has", "has"),
    ],
)
def test_a_relation_named_in_data_is_said_in_words(name: str, label: str) -> None:
    assert label_from_name(name) == label
