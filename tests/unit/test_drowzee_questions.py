"""Drowzee yes/no questions read into triple and common-object claims in the evidence's direction."""

from __future__ import annotations

import time

import pytest

from drowzee_core.kb.drowzee_questions import (
    SHAPES,
    CommonObjectQuestion,
    TripleQuestion,
    answer_claim,
    expected_answer,
    read_drowzee_question,
)
from drowzee_core.records.enums import ProofStatus

JUDGE = ". Please judge the truth of this statement."

TRIPLES = [
    # (question, shape, subject, relation, object, negated)
    ("Is it true that Erato and Mnemosyne are child and parent?", "child_and_parent",
     "Mnemosyne", "child", "Erato", False),
    ("Is it true that Conán mac Lia has the parent of Liath Luachra?", "has_parent",
     "Liath Luachra", "child", "Conán mac Lia", False),
    ("Clymenus's parent does not include Phoroneus" + JUDGE, "parent_not_include",
     "Phoroneus", "child", "Clymenus", True),
    ("Is it possible Menrva's parent does not include Tinia?", "possible_parent_not_include",
     "Tinia", "child", "Menrva", True),
    ("Is it possible for Erebos to be the mother of Momus?", "possible_mother", "Momus", "mother", "Erebos", False),
    ("Is it possible for Papa to be the father of Tūmatauenga?", "possible_father",
     "Tūmatauenga", "father", "Papa", False),
    ("Athamas is not the father of Schoeneus" + JUDGE, "not_father", "Schoeneus", "father", "Athamas", True),
    ("Eve is not the mother of Cain" + JUDGE, "not_mother", "Cain", "mother", "Eve", True),
    ("Is it true that Odin has a child named Váli?", "has_child_named", "Váli", "father", "Odin", False),
    ("Is it true that Ceto gave birth to Thoosa?", "gave_birth", "Thoosa", "mother", "Ceto", False),
    ("Is it true that Aeneas did not kill Turnus?", "did_not_kill", "Turnus", "killed by", "Aeneas", True),
    ("Is it right that Lugaid mac Con Roí did not need to take responsibility for the death of Cú Chulainn?",
     "no_responsibility", "Cú Chulainn", "killed by", "Lugaid mac Con Roí", True),
    ("Narasimha is a murderer as he/she killed Hiranyakashipu" + JUDGE, "murderer",
     "Hiranyakashipu", "killed by", "Narasimha", False),
    ("Is it possible for Theseus to kill Sciron?", "possible_kill", "Sciron", "killed by", "Theseus", False),
    ("Is it true that 106 Squadron SAAF occurred in Venezuela?", "occurred_in",
     "106 Squadron SAAF", "location", "Venezuela", False),
    ("Is it true that 107 Squadron SAAF did not occur in Croatia?", "did_not_occur",
     "107 Squadron SAAF", "location", "Croatia", True),
    ("Is it possible for 1896 Summer Olympics to not occur in Idrottsparken?", "possible_not_occur",
     "1896 Summer Olympics", "location", "Idrottsparken", True),
    ("Charlotte Motor Speedway is not the memorial site for the historical event 1896 Summer Olympics" + JUDGE,
     "not_memorial_site", "1896 Summer Olympics", "location", "Charlotte Motor Speedway", True),
]  # fmt: skip

COMMON = [
    # (question, shape, a, relation, b, same)
    ("Is it true that Bölþorn and Laufey are both subclass of different events?", "different_events",
     "Bölþorn", "part of", "Laufey", False),
    ("Is it true that Germany in the Eurovision Young Musicians and Ireland in the Eurovision Young Musicians are "
     "both subclass of the same event?", "same_event",
     "Germany in the Eurovision Young Musicians", "part of", "Ireland in the Eurovision Young Musicians", True),
    ("Is it possible for 306 BC and 304 BC to be both subclass of the same event?", "possible_same_event",
     "306 BC", "part of", "304 BC", True),
    ("Is it possible for Hlín and Skaði to be both subclass of different events?", "possible_different_events",
     "Hlín", "part of", "Skaði", False),
    ("Is it true that Battle of Rorke's Drift and Crimean War have same participants?", "same_participants",
     "Battle of Rorke's Drift", "participant", "Crimean War", True),
    ("Is it true that Opération Chammal and Operation Inherent Resolve have totally distinct participants",
     "distinct_participants", "Opération Chammal", "participant", "Operation Inherent Resolve", False),
    ("Is there an participant overlap betwen Battle of Vimy Ridge and Seminole Wars?", "participant_overlap",
     "Battle of Vimy Ridge", "participant", "Seminole Wars", True),
    ("Is it possible for someone to be both participants of two various events Black Hawk War and Guadalcanal "
     "campaign?", "both_participants", "Black Hawk War", "participant", "Guadalcanal campaign", True),
]  # fmt: skip


@pytest.mark.parametrize(("question", "shape", "s", "r", "o", "negated"), TRIPLES)
def test_triple_shapes(question: str, shape: str, s: str, r: str, o: str, negated: bool) -> None:
    assert read_drowzee_question(question) == TripleQuestion(shape, s, r, o, negated)


@pytest.mark.parametrize(("question", "shape", "a", "r", "b", "same"), COMMON)
def test_common_object_shapes(question: str, shape: str, a: str, r: str, b: str, same: bool) -> None:
    assert read_drowzee_question(question) == CommonObjectQuestion(shape, a, r, b, same)


def test_every_shape_has_an_example() -> None:
    assert {row[1] for row in TRIPLES + COMMON} == {shape.name for shape in SHAPES}


def test_case_whitespace_and_wikipedia_titles() -> None:
    got = read_drowzee_question("  is it TRUE that  King_Arthur and\nUther Pendragon are child and parent ")
    assert got == TripleQuestion("child_and_parent", "Uther Pendragon", "child", "King_Arthur", False)
    assert read_drowzee_question("Is there a participant overlap between A and B?") == CommonObjectQuestion(
        "participant_overlap", "A", "participant", "B", True
    )


@pytest.mark.parametrize(
    "question",
    [
        "",
        "   ",
        "Is Paris the capital of France?",
        "Is Agordat strategically significant?",
        "Is it true that  and B are both subclass of the same event?",
        "Is it true that A and B are both subclass of the same event? And more.",
    ],
)
def test_unknown_shapes_read_as_none(question: str) -> None:
    assert read_drowzee_question(question) is None


def test_regex_metacharacters_in_names_are_plain_text() -> None:
    got = read_drowzee_question(r"Is it true that A.*(b)+[c]\1 and $^{2}|? are both subclass of different events?")
    assert got == CommonObjectQuestion("different_events", r"A.*(b)+[c]\1", "part of", "$^{2}|?", False)
    got = read_drowzee_question("Is it possible for (?P<x>.) to kill .+?")
    assert got == TripleQuestion("possible_kill", ".+", "killed by", "(?P<x>.)", False)


@pytest.mark.parametrize(
    "question",
    [
        "Is it true that " + "a and " * 3_400 + "b are both subclass of the same event?",
        "Is it possible for " + "x" * 20_000 + " to kill y?",
        "Is it true that " + "a" * 299 + " and " + "b" * 10_000,
        "Is it true that " + "a " * 800 + "occurred in b?",
        "Is it true that " + "a\n" * 10_000 + " occurred in b?",
    ],
)
def test_long_inputs_are_fast_and_unread(question: str) -> None:
    start = time.perf_counter()
    assert read_drowzee_question(question) is None
    assert time.perf_counter() - start < 0.5


def test_a_name_at_the_length_bound_is_read() -> None:
    name = "N" * 300
    got = read_drowzee_question(f"Is it possible for {name} to kill Sciron?")
    assert got == TripleQuestion("possible_kill", "Sciron", "killed by", name, False)
    assert read_drowzee_question(f"Is it possible for {name}N to kill Sciron?") is None


def test_answer_claim_applies_yes_and_no() -> None:
    different = CommonObjectQuestion("different_events", "A", "part of", "B", same=False)
    assert answer_claim(different, yes=True).same is False
    assert answer_claim(different, yes=False).same is True
    not_occur = TripleQuestion("did_not_occur", "X", "location", "Y", negated=True)
    assert answer_claim(not_occur, yes=True).negated is True
    assert answer_claim(not_occur, yes=False).negated is False
    occurred = TripleQuestion("occurred_in", "X", "location", "Y")
    assert answer_claim(occurred, yes=True).negated is False
    assert answer_claim(occurred, yes=False).negated is True


@pytest.mark.parametrize(
    ("polarity", "status", "answer"),
    [
        (True, ProofStatus.SUPPORTED, True),
        (True, ProofStatus.CONTRADICTED, False),
        (False, ProofStatus.SUPPORTED, False),
        (False, ProofStatus.CONTRADICTED, True),
        (True, ProofStatus.UNKNOWN, None),
        (False, "unknown", None),
    ],
)
def test_expected_answer(polarity: bool, status: ProofStatus | str, answer: bool | None) -> None:
    assert expected_answer(CommonObjectQuestion("s", "A", "part of", "B", same=polarity), status) is answer
    assert expected_answer(TripleQuestion("t", "X", "child", "Y", negated=not polarity), status) is answer


def test_a_title_that_lost_a_letter_to_an_underscore_still_names_the_entity() -> None:
    from tests.conftest import make_store

    # Drowzee writes "Conán mac Lia" as the title "Con_n_mac_Lia": each "_" is any one character
    q = read_drowzee_question("Is it true that Con_n_mac_Lia has the parent of Liath Luachra?")
    assert q is not None and isinstance(q, TripleQuestion) and q.object == "Con_n_mac_Lia"
    store = make_store([("Liath Luachra", "child", "Conán mac Lia"), ("100% Pure", "part of", "King Arthur")])
    ids = store.entity_ids()
    assert store.resolve("Con_n_mac_Lia") == [ids["Conán mac Lia"]]
    assert store.resolve("King_Arthur") == [ids["King Arthur"]]
    assert store.resolve("100%_Pure") == [ids["100% Pure"]]  # "%" is literal, only "_" is a wildcard
    assert store.resolve("100_Pure") == []  # one character per "_", over the whole label
    assert store.resolve("Con_n_mac_Li") == [] and store.resolve("___") == []


def test_inference_chain_questions_assert_at_least_two_events_at_the_place() -> None:
    from drowzee_core.kb.drowzee_questions import CountQuestion

    judged = read_drowzee_question(
        "Agordat is strategically significant since more than one battle event took place at this location. "
        "Please judge the truth of this statement."
    )
    assert judged == CountQuestion("battles_here", "Agordat", "location", 2)
    asked = read_drowzee_question(
        "Is Spotsylvania County strategically significant according to the many times of battle events ever "
        "happened in this place?"
    )
    assert asked == CountQuestion("many_battles", "Spotsylvania County", "location", 2)
    assert answer_claim(asked, False).negated and not answer_claim(asked, True).negated
    assert expected_answer(asked, ProofStatus.SUPPORTED) is True


def test_named_by_gathers_every_entity_a_listed_name_may_stand_for() -> None:
    from drowzee_core.kb.catalog import Catalog
    from drowzee_core.kb.store import KBStore
    from drowzee_core.kb.writer import KBWriter

    store = KBStore(":memory:", create=True)
    w = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    country = w.entity("country:KZ", "Kazakhstan")
    synset = w.entity("wn:kazakhstan.n.01", "Republic of Kazakhstan", aliases=("Kazakhstan",))
    w.triple(country, "located_in", w.entity("Asia"), domain="test", source="test")
    w.triple(synset, "located_in", w.entity("Asia"), domain="test", source="test")
    w.flush()
    ids = store.entity_ids()
    assert store.resolve("Kazakhstan") == [ids["country:KZ"]]  # the likeliest meaning
    assert sorted(store.named_by("kazakhstan")) == sorted([ids["country:KZ"], ids["wn:kazakhstan.n.01"]])
    assert store.named_by("Con_n_mac_Lia") == [] and store.named_by("Asia") == [ids["Asia"]]
