"""What kind of value a wh-question asks for, and whether a response gives one (pure, over spaCy parses).

"When was the dam finished?" asks for a time; "Who painted it?" for a name; "Where did she study?" for
a place; "How many ..." or "How tall ..." for a number; "In what decade ..." for a time. A response that
gives none of that kind (a true sentence about the same subject that says something else: "The dam
is on the river Tarn.") does not answer the question, and with evidence supplied it is not supported,
whatever else it states. A response whose main clause is negated answers by denying ("It was never
finished."). "Which sculptor" or "what actor" asks for a name too, when the noun names a person
(`person_noun`: WordNet's first sense is a person). Questions that ask for no checkable kind are left
alone: "what" and "which" over other nouns ("which position", "what trade": the answer may be
a common noun), "how" alone (a manner), and "who is <name>?" (a description).
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any

from agents.reading.evidence.conflicts import denial
from agents.reading.evidence.units import UnitKind, content_units, query_keys
from agents.reading.mentions import fold
from agents.reading.questions import choices_start, phrase_stop, question

TIME_NOUNS = frozenset({"year", "decade", "century", "date", "month", "day"})
"""Nouns after "what" / "which" that ask for a time ("in which decade"; an era or a period has a name)."""
TIME_ENTITIES = frozenset({"DATE", "TIME", "EVENT"})
"""spaCy entity types that answer "when" (a date, a time of day, or an event: "during the war")."""
COPULAS = frozenset({"be"})


class Asked(StrEnum):
    """The kind of value a question asks for."""

    TIME = "a time"
    NAME = "a name"
    PLACE = "a place"
    NUMBER = "a number"


def asked_kind(query_doc: Any, person_noun: Callable[[str], bool] | None = None) -> tuple[Asked, str] | None:
    """The kind of value the query's last question asks for, with its question word(s), or None.

    The question word must lead its question (or follow a leading preposition: "In what decade"), so a
    relative "who" or "where" inside a statement asks nothing. `person_noun` says whether a noun
    names a person (none: "which <noun>" asks only for a time).
    """
    sent = question(query_doc)
    if sent is None or choices_start(sent) is not None or _choices(sent):  # the answer is one of the choices
        return None
    words = [t for t in sent if not t.is_punct]
    if words and words[0].pos_ == "ADP":
        words = words[1:]
    if len(words) < 2:
        return None
    wh, nxt = words[0], words[1]
    word = wh.lower_
    if word == "when":
        return Asked.TIME, "when"
    if word == "where":
        return Asked.PLACE, "where"
    if word == "how" and (nxt.lower_ in ("many", "much") or nxt.pos_ == "ADJ"):
        return Asked.NUMBER, f"how {nxt.lower_}"
    if word in ("what", "which") and nxt.pos_ == "NOUN" and nxt.lemma_.lower() in TIME_NOUNS:
        return Asked.TIME, f"{word} {nxt.lower_}"
    if word in ("what", "which") and person_noun is not None:
        nouns = [t for t in sent.doc[wh.i + 1 : phrase_stop(sent.doc, wh, sent.end)] if t.pos_ == "NOUN"]
        if nouns and person_noun(nouns[-1].lemma_.lower()):
            return Asked.NAME, f"{word} {nouns[-1].lower_}"
    if word in ("who", "whom") and not _asks_description(sent, wh):
        return Asked.NAME, word
    return None


def _choices(sent: Any) -> bool:
    """Whether a question offers names to choose from ("Which sculptor, Ana Reyes or Tom Vale, ...?")."""
    return any(t.lower_ == "or" and t.head.pos_ == "PROPN" for t in sent)


def _asks_description(sent: Any, wh: Any) -> bool:
    """Whether "who" asks what someone is: "Who is Ada Lovelace?" (a name as the copula's other side)."""
    verb = wh.head if wh.head.i != wh.i else None
    if verb is None or verb.lemma_.lower() not in COPULAS:
        return False
    other = [c for c in verb.children if c.i != wh.i and c.dep_ in ("nsubj", "attr")]
    return any(c.pos_ == "PROPN" or c.ent_type_ == "PERSON" for c in other)


def gives(kind: Asked, doc: Any, query_doc: Any) -> bool:
    """Whether a response gives a value of `kind` that the query does not already say.

    A time is a number or a date, time or event entity; a name or a place, a name; a number, a number.
    A negated main clause answers by denying, so it counts as given.
    """
    if denial(doc) is not None:
        return True
    said = query_keys(query_doc)
    numbers = {u.key for u in content_units(query_doc) if u.kind == UnitKind.NUMBER}
    new = [u for u in content_units(doc, said) if not u.given and not (u.kind == UnitKind.NUMBER and u.key in numbers)]
    if kind == Asked.NUMBER:
        return any(u.kind == UnitKind.NUMBER for u in new)
    if kind == Asked.TIME:
        dates = [e for e in doc.ents if e.label_ in TIME_ENTITIES and fold(e.text) not in said]
        return bool(dates) or any(u.kind == UnitKind.NUMBER for u in new)
    return any(u.kind == UnitKind.NAME for u in new)


__all__ = ["Asked", "asked_kind", "gives"]
