"""What a response's pronouns stand for, read from the query's question (pure but for `known`, over spaCy parses).

- `topic`: the name the question is about, which an opening "It" / "She" stands for;
- `pair`: the two names a question joins, which "they" stands for;
- `doer_and_done`: an active yes/no question's two names, which "he" / "she" and an object "it" stand for.
"""

from __future__ import annotations

from collections.abc import Callable

from agents.reading.claims.sentence_reader import parsed
from agents.reading.mentions import head_word, mentions, pair_of
from agents.reading.questions import (
    MAX_QUERY_CHARS,
    TOPIC_DEPS,
    asks_subject,
    last_question,
    question_names,
    question_text,
    says_it,
)
from drowzee_core.kb.model import ValueKind

ACTIVE_AUXILIARIES = frozenset({"do", "have"})
"""Auxiliaries that open an active yes/no question ("Did X paint Y?", "Has X painted Y?")."""


def topic(query: str, known: Callable[[str], bool], response: str = "") -> str | None:
    """The name the query's last question is about: what a response's opening pronoun stands for.

    That is a name that is a direct argument of the question's verb ("When was X born?", "Which
    continent is X on?", "Did X use ...?"), not one inside a phrase ("What is the capital of X?":
    "It" is the capital). A question that asks for its subject has none ("Who married X?",
    "Which country borders X?"): a pronoun there is the answer. Only where the question asks for a
    person ("Who proved X?") and the `response` says "it" or "its" in its first sentence, which no person
    is, does the pronoun stand for the question's name ("It was founded in 1850 by ...", "Ansel Krane
    proved it").
    """
    asked = last_question(query)
    if asked is None:
        return None
    doc = parsed((question_text(query) or asked)[:MAX_QUERY_CHARS])
    person = doc[0].lower_ in ("who", "whom")
    if doc[0].lower_ == "whose" or asks_subject(doc) or (person and not says_it(response)):
        return None
    found = mentions(doc, known)
    # names, not descriptions ("continent"); for "it", a thing the KB knows by a lowercase word too ("radium")
    things = [m for m in found if m.kind == ValueKind.ENTITY and m.linked] if person else []
    for m in things or question_names(doc, found, known):
        root = head_word(doc, m)
        if root.dep_ in TOPIC_DEPS and root.head.dep_ == "ROOT":
            return m.text
    # "it" in the answer to "Who ...?" is the one thing the question names, however the parser hangs it
    return things[0].text if len(things) == 1 else None


def doer_and_done(query: str, known: Callable[[str], bool]) -> tuple[str, str] | None:
    """The names an active yes/no question says before and after its verb: who "he" and what "it" is.

    "Did Tova Brenn paint Grey Harbour?" "Yes, she painted it in 1886.": "she" is Tova Brenn, the
    question's doer, and "it" Grey Harbour, what was done (`agents.reading.mentions.it_as`). The
    question opens with "do" or "have" (an active verb follows; "Was X painted by Y?" is passive) and
    names two things with words between them; the word order says the roles, which a parser of names it
    does not know may miss. None otherwise.
    """
    asked = last_question(query)
    if asked is None:
        return None
    doc = parsed((question_text(query) or asked)[:MAX_QUERY_CHARS])
    if len(doc) == 0 or doc[0].lemma_.lower() not in ACTIVE_AUXILIARIES:
        return None
    names = [m for m in mentions(doc, known) if m.kind == ValueKind.ENTITY]
    if len(names) != 2 or names[1].start <= names[0].end:
        return None
    return names[0].text, names[1].text


def pair(query: str, known: Callable[[str], bool]) -> str | None:
    """The two names the query's question joins ("Do X and Y share a border?"): what "they" stands for."""
    asked = question_text(query) or last_question(query)
    if asked is None:
        return None
    doc = parsed(asked[:MAX_QUERY_CHARS])
    return pair_of(doc, [m for m in mentions(doc, known) if m.kind == ValueKind.ENTITY])


__all__ = ["ACTIVE_AUXILIARIES", "doer_and_done", "pair", "topic"]
