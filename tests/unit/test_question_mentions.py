"""Names a question mentions that nothing knows (`reading.mentions.finder`, `unlinked=True`), and where they stand.

Invented names: a known name inside a longer proper name is a neighbour, not what is named; a
parenthesis that qualifies a name is part of it.
"""

from __future__ import annotations

from agents.reading.candidates.reader import nlp
from agents.reading.mentions.finder import Mention, mentions
from agents.reading.mentions.known import Known
from agents.reading.questions.direction import _locative
from drowzee_core.kb.model import ValueKind


class NoKB:
    def resolve(self, name: str, k: int) -> list[int]:
        return []


def names(question: str, supplied: list[str], unlinked: bool = True) -> list[str]:
    known = Known(NoKB(), [[n, "x", "y"] for n in supplied])  # type: ignore[arg-type]
    return [m.text + ("" if m.linked else "*") for m in mentions(nlp()(question), known, unlinked=unlinked)]


def test_a_known_name_inside_a_longer_unknown_proper_name_gives_way_to_it() -> None:
    found = names("Did the Quillon Regatta take place in the Republic of Ostria?", ["Quillon Regatta", "Ostria"])
    assert found == ["Quillon Regatta", "Republic of Ostria*"]  # unlinked, never "Ostria"
    # a statement's reader keeps to known names, as before
    assert names("The Quillon Regatta took place in the Republic of Ostria.", ["Ostria"], unlinked=False) == ["Ostria"]


def test_a_parenthesis_qualifying_a_name_is_part_of_it() -> None:
    found = names("Did the Quillon Regatta take place at Brisk Arena (Ostria)?", ["Quillon Regatta", "Ostria"])
    assert found == ["Quillon Regatta", "Brisk Arena (Ostria)*"]


def test_a_place_name_with_a_possessor_hangs_on_its_preposition() -> None:
    doc = nlp()("Did the regatta not take place in Norland's Free State of Ostria?")
    assert _locative(doc, Mention(7, 13, "Norland's Free State of Ostria", ValueKind.ENTITY))  # not on "'s"


def test_a_title_that_is_a_pronoun_is_a_name_where_written_as_the_triples_write_it() -> None:
    assert names("Do Frozen Meadow and Her share a genre?", ["Frozen Meadow", "Her"]) == ["Frozen Meadow", "Her"]
    # a pronoun that starts the sentence, or is written otherwise, stays a pronoun
    assert names("Her genre is drama.", ["Her"], unlinked=False) == []
    assert names("Is it true that Frozen Meadow is a drama?", ["Frozen Meadow", "It"]) == ["Frozen Meadow"]
