"""A list of names read one name at a time (`agents.reading.mentions.coordination`), over real spaCy parses.

Names are invented; a scripted `Known` says which names exist.
"""

from __future__ import annotations

from agents.reading.candidates.reader import nlp
from agents.reading.mentions.coordination import all_or_nothing, distributed, pair_of, they_as
from agents.reading.mentions.finder import mentions
from agents.reading.mentions.known import Known
from agents.reading.templates.sentence_split import fragments
from drowzee_core.kb.model import ValueKind
from tests.unit.test_question_frames import NoKB

NAMES = ["Norland", "Ostria", "Vessa", "Dunmere", "Kettle Isles"]


def variants(sentence: str) -> list[str]:
    known = Known(NoKB(), [[n, "x", n] for n in NAMES])  # type: ignore[arg-type]
    doc = nlp()(sentence)
    return distributed(doc, [m for m in mentions(doc, known) if m.kind == ValueKind.ENTITY])


def test_a_list_of_names_gives_one_sentence_per_name() -> None:
    assert variants("Norland is bordered by Ostria, Vessa and the Kettle Isles.") == [
        "Norland is bordered by Ostria.",
        "Norland is bordered by Vessa.",
        "Norland is bordered by the Kettle Isles.",
    ]
    assert variants("Ostria and Vessa use the krone.") == ["Ostria use the krone.", "Vessa use the krone."]


def test_a_preposition_said_again_before_a_later_member_is_part_of_the_list() -> None:
    said = variants("Dunmere belongs to Ostria and to Vessa.")
    assert said == ["Dunmere belongs to Ostria.", "Dunmere belongs to Vessa."]
    assert variants("Dunmere trades with Ostria and to Vessa.") == []  # another preposition: no one list


def test_no_list_or_a_list_that_is_no_claim_gives_nothing() -> None:
    assert variants("Norland borders Ostria.") == []  # two names, no list
    assert variants("Norland or Ostria borders Vessa.") == []  # "or": one of them, not each
    assert variants("Norland borders Ostria and Morvale.") == []  # a member nothing knows
    # two clauses: a parse may join names across them
    assert variants("Vessa is the capital of Norland and Dunmere is the capital of Ostria.") == []


def test_a_list_reads_whole_or_not_at_all() -> None:
    assert all_or_nothing(["a", "b"], lambda t: [t.upper()]) == ["A", "B"]
    assert all_or_nothing(["a", "b"], lambda t: [t] if t == "a" else []) == []


def test_they_stands_for_the_two_names_the_question_joins() -> None:
    known = Known(NoKB(), [[n, "x", n] for n in NAMES])  # type: ignore[arg-type]
    doc = nlp()("Do Ostria and Vessa share a border?")
    pair = pair_of(doc, [m for m in mentions(doc, known) if m.kind == ValueKind.ENTITY])
    assert pair == "Ostria and Vessa"
    assert they_as(nlp()("They do not share a border."), pair) == "Ostria and Vessa do not share a border."
    assert they_as(nlp()("Ostria says they trade a lot."), pair) is None  # not the main clause's subject
    one = nlp()("Does Ostria border Vessa and Dunmere or Norland?")
    assert pair_of(one, [m for m in mentions(one, known) if m.kind == ValueKind.ENTITY]) is None


def test_a_semicolon_ends_a_clause_as_a_period_does() -> None:
    assert fragments("They do not; they differ.") == [(0, 12), (13, 25)]
    assert fragments("Scores: 3;4 and 5") == [(0, 17)]  # no space after it: no clause joined


def test_words_joined_by_a_slash_or_a_hyphen_are_one_name() -> None:
    known = Known(NoKB(), [["Orvin", "in time zone", "Europe/Orvin"], ["Velium", "in block", "s-block"]])  # type: ignore[arg-type]
    doc = nlp()("Orvin is in the Europe/Orvin time zone, and Velium is in the s-block.")
    names = [m.text for m in mentions(doc, known) if m.kind == ValueKind.ENTITY]
    assert names == ["Orvin", "Europe/Orvin", "Velium", "s-block"]


def test_a_list_the_words_say_is_read_where_the_parse_hangs_a_member_elsewhere() -> None:
    # the parse makes "group" a conjunct of "is"; the words still list two values
    known = Known(NoKB(), [["Velium", "in period", "period 3"], ["Velium", "in group", "group 1"]])  # type: ignore[arg-type]
    doc = nlp()("Velium is in period 3 and group 1.")
    names = [m for m in mentions(doc, known) if m.kind == ValueKind.ENTITY]
    assert distributed(doc, names) == ["Velium is in period 3.", "Velium is in group 1."]
    doc = nlp()("Velium is in period 3 and group 1 or group 2.")
    assert distributed(doc, [m for m in mentions(doc, known) if m.kind == ValueKind.ENTITY]) == []
