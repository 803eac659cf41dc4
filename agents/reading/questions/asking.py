"""Where a query asks something: its last question, a yes / no question, or a question word asking for a value.

Pure string and parse helpers for `agents.reading.claims.sentence_reader`; the asked statement itself comes from
`agents.reading.questions.frames.asked_text`.
"""

from __future__ import annotations

import functools
import re
from typing import Any

from agents.reading.candidates import nlp
from agents.reading.questions.asked import asked_text

AUXILIARIES = frozenset({"is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "can", "could", "will"})
WH_FIRST = frozenset({"what", "who", "whom", "which", "when", "where", "in"})
MAX_QUERY_CHARS = 4_000
"""Longest query the question reader parses (a longer one is cut there)."""
QUOTED = re.compile(r"\"([^\"\n]{3,})\"|“([^”\n]{3,})”")
ECHO_SHARE = 0.8
"""Least share of a quotation's words the query holds for the quotation to repeat it."""
_WORD = re.compile(r"\w+")


def last_question(query: str) -> str | None:
    """The last question of a query ("Some context. Is X Y?" -> "Is X Y?"), or None."""
    text = query.strip()
    if not text.endswith("?"):
        return None
    body = text[:-1]
    for stop in ("?", ". ", ": ", "\n"):
        body = body.rsplit(stop, 1)[-1]
    return body.strip() + "?" if body.strip() else None


@functools.lru_cache(maxsize=1024)
def question_text(query: str) -> str | None:
    """What a yes / no query asks (`frames.asked_text`); cached, as the claims node and the KB check both ask.

    That is its last question when a yes / no one ("Is X Y?", "Did X ...?"), or a statement put up
    for judgement ("X is Y. Please check this statement.").
    """
    if not query.strip():
        return None
    asked = asked_text(nlp()(query[:MAX_QUERY_CHARS]))
    if asked is None or asked.split(" ", 1)[0].lower() in WH_FIRST:
        return None
    return asked


def wh_question(query: str) -> str | None:
    """The last question of a query when a question word asks for a name or value ("Who ...?", "In which ...?")."""
    q = last_question(query)
    return q if q is not None and q.split(" ", 1)[0].lower() in WH_FIRST else None


def without_echoes(query: str, response: str) -> str:
    """The response with each quotation of the query blanked out, character for character (pure).

    You asked "Is X Y?", and ... repeats what is asked; it asserts nothing. A
    quotation counts as an echo when at least `ECHO_SHARE` of its words are the query's; blanks keep
    every other character where it was, so spans stay those of the response.
    """
    asked = {w.lower() for w in _WORD.findall(query)}
    if not asked:
        return response

    def blank(m: re.Match[str]) -> str:
        words = [w.lower() for w in _WORD.findall(m.group(0))]
        echoed = len(words) >= 3 and sum(w in asked for w in words) >= ECHO_SHARE * len(words)
        return " " * len(m.group(0)) if echoed else m.group(0)

    return QUOTED.sub(blank, response)


TOPIC_DEPS = frozenset({"nsubj", "nsubjpass", "attr", "dobj"})
"""How a question's topic name stands to its verb: subject, copula's complement, object."""


IT = re.compile(r"\b(?:it|its)\b", re.IGNORECASE)
PERSONAL = re.compile(r"\b(?:he|she|his|her|him|they|their|them)\b", re.IGNORECASE)
FIRST_SENTENCE = re.compile(r"[^.!?]*")


def says_it(response: str) -> bool:
    """Whether a response's first sentence says "it" or "its", which stands for no person, and no personal pronoun.

    "Ansel Krane proved it": "it" is the thing asked about. "She proved it": "she" is the answer, and
    the sentence names no one the KB could check.
    """
    first = FIRST_SENTENCE.match(response.lstrip())
    said = first.group() if first else ""
    return bool(IT.search(said)) and not PERSONAL.search(said)


def asks_subject(doc: Any) -> bool:
    """Whether a "what / which" phrase is the subject of a verb other than "be" ("Which country borders X?")."""
    wh = next((t for t in doc if t.lower_ in ("what", "which")), None)
    if wh is None:
        return False
    head = wh.head if wh.dep_ == "det" else wh
    return bool(head.dep_ in ("nsubj", "nsubjpass") and head.head.lemma_ != "be")


__all__ = [
    "AUXILIARIES",
    "MAX_QUERY_CHARS",
    "TOPIC_DEPS",
    "WH_FIRST",
    "asks_subject",
    "last_question",
    "question_text",
    "says_it",
    "wh_question",
    "without_echoes",
]
