"""A definite description standing for the name said before (`agents.reading.mentions.anaphora`, real spaCy).

`describes` is a stand-in for WordNet's word: the names are invented, and so is what each is.
"""

from __future__ import annotations

import pytest

from agents.reading.candidates.reader import nlp, with_pronoun
from agents.reading.mentions.anaphora import definite_as, it_as, subject_name, surname_as, then_as, there_as
from agents.reading.mentions.finder import Mention
from drowzee_core.kb.model import ValueKind

KINDS = {
    ("Norland", "country"),
    ("Orvin", "city"),
    ("Tova Brenn", "philosopher"),
    ("Orvin", "location"),
    ("Norland", "location"),
}


def describes(name: str, noun: str) -> bool:
    return (name, noun) in KINDS


@pytest.mark.parametrize(
    ("sentence", "name", "said"),
    [
        ("The country uses the orv.", "Norland", "Norland uses the orv."),
        ("The city has 12,000 people.", "Orvin", "Orvin has 12,000 people."),
        ("The famous philosopher died in 1650.", "Tova Brenn", "Tova Brenn died in 1650."),
        ("Orvish is spoken in the country.", "Norland", "Orvish is spoken in Norland."),
    ],
)
def test_a_description_the_name_fits_is_said_as_the_name(sentence: str, name: str, said: str) -> None:
    assert definite_as(nlp()(sentence), [name], describes) == said


@pytest.mark.parametrize(
    ("sentence", "name"),
    [
        ("The city uses the orv.", "Norland"),  # a country is no city
        ("The country of Vell uses the orv.", "Norland"),  # described by more than its noun
        ("A country uses the orv.", "Norland"),  # not definite
        ("Norland uses the orv.", "Norland"),  # no description at all
    ],
)
def test_anything_else_is_left_as_it_is(sentence: str, name: str) -> None:
    assert definite_as(nlp()(sentence), [name], describes) is None


def test_the_first_name_the_description_fits_is_taken() -> None:
    said = definite_as(nlp()("The city has 12,000 people."), ["Norland", "Orvin"], describes)
    assert said == "Orvin has 12,000 people."


def test_an_unread_sentence_is_still_about_its_subject_or_its_owner() -> None:
    known = {"Norland", "Tova Brenn"}.__contains__
    assert subject_name(nlp()("Norland's old harbour is Orvin."), known) == "Norland"
    assert subject_name(nlp()("Tova Brenn wrote many letters."), known) == "Tova Brenn"
    assert subject_name(nlp()("The Norland covers 300 km²."), known) == "Norland"  # the name, not its article
    assert subject_name(nlp()("Vell wrote many letters."), known) is None  # a name the KB does not know


def test_a_common_noun_with_no_article_names_what_the_sentence_is_about() -> None:
    known = {"graph theory", "theory", "velium"}.__contains__
    lowered = lambda name: known(name.lower())  # noqa: E731 - the KB knows names in any case
    assert subject_name(nlp()("Graph theory is old."), lowered) == "Graph theory"
    assert subject_name(nlp()("Velium glows in the dark."), lowered) == "Velium"
    assert subject_name(nlp()("The theory is old."), lowered) is None  # a description, not a name


def test_an_object_it_stands_for_the_name_said_before() -> None:
    doc = nlp()("Tova Brenn proved it in 1990.")
    found = [Mention(0, 2, "Tova Brenn", ValueKind.ENTITY)]
    with_it = with_pronoun(doc, found, "Ansel's Last Theorem")
    assert [(m.start, m.text) for m in with_it] == [(0, "Tova Brenn"), (3, "Ansel's Last Theorem")]
    she = with_pronoun(nlp()("She proved it."), [], "Tova Brenn")  # the subject pronoun first, as before
    assert [(m.start, m.text) for m in she] == [(0, "Tova Brenn")]


def test_a_surname_alone_is_the_full_name_said_before() -> None:
    said = ["Velox", "Tova Brenn"]
    assert surname_as(nlp()("Brenn also founded Orvin."), said) == "Tova Brenn also founded Orvin."
    assert surname_as(nlp()("Orvin was founded by Brenn."), said) == "Orvin was founded by Tova Brenn."
    assert surname_as(nlp()("Lena Brenn founded Orvin."), said) is None  # another Brenn, named in full
    assert surname_as(nlp()("Velox founded Orvin."), said) is None  # no full name ends with it


def test_there_is_the_one_place_said_before() -> None:
    assert there_as(nlp()("About 9,000 people live there."), ["Orvin", "Tova Brenn"], describes) == (
        "About 9,000 people live in Orvin."
    )
    assert (
        there_as(nlp()("She died there in 1650."), ["Tova Brenn", "Orvin"], describes) == "She died in Orvin in 1650."
    )
    # two places said before: "there" could be either
    assert there_as(nlp()("About 9,000 people live there."), ["Norland", "Orvin"], describes) is None
    assert there_as(nlp()("About 9,000 people live there."), ["Tova Brenn"], describes) is None  # no place
    assert there_as(nlp()("There is a harbour in Orvin."), ["Orvin"], describes) is None  # the expletive


def test_he_and_it_are_the_doer_and_what_was_done() -> None:
    assert it_as(nlp()("She charted it in 1736."), "Vell Reef", "Tova Brenn") == "Tova Brenn charted Vell Reef in 1736."
    assert it_as(nlp()("It was charted in 1736."), "Vell Reef", "Tova Brenn") is None  # no "he" / "she"
    assert it_as(nlp()("She charted the reef."), "Vell Reef", "Tova Brenn") is None  # no "it"


def test_a_phrase_that_points_back_to_a_time_is_the_year_said_before() -> None:
    assert then_as("before that it used the orv.", 1999) == "before 1999 it used the orv."
    assert then_as("Back then, Norland used the orv.", 1901) == "In 1901, Norland used the orv."
    assert then_as("It has used the orv since then.", 1950) == "It has used the orv since 1950."
    assert then_as("In that year Orvin became the capital.", 1820) == "In 1820 Orvin became the capital."
    assert then_as("Back then, Norland used the orv.", None) is None  # no year said before
    assert then_as("Norland used the orv.", 1901) is None
