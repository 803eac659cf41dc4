"""Two choices compared in time, decided from the years the evidence gives each (pure, over spaCy parses).

"Which film came out first, A or B?" answered "B" (or "B came out first."): the evidence's first
sentence naming A alone and its first naming B alone each give a year (the first year in the
sentence: "A is a 1996 film", "B (born 3 May 1942) ..."); the answer is supported when it names the
earlier (for first / earlier / older ...) or the later (later / younger / newer ...), refuted when it
names the other, and left to the rest of the reading when a year is missing, the years are equal, or
the answer names both or neither choice. Comparisons of other measures (more, longer, larger) are
not read here: a sentence's first number is too often another measure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from agents.reading.evidence.conflicts import Conflict
from agents.reading.evidence.sentences import Sentence
from agents.reading.evidence.support import EvidenceDecision, EvidenceReading
from agents.reading.mentions import as_year, fold
from agents.reading.questions import choices_start, question

EARLIER = frozenset({"first", "earlier", "earliest", "older", "oldest", "before", "sooner"})
LATER = frozenset({"later", "latest", "last", "younger", "youngest", "newer", "newest", "recent", "after"})
ORDINALS = frozenset({"first", "last"})
"""Words that compare only when they do not modify a noun ("which opened first", not "its first ship")."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """A question that asks which of two choices comes earlier (or later) in time."""

    choices: tuple[str, str]
    earlier: bool


def comparison(query_doc: Any) -> Comparison | None:
    """The time comparison the query's last question asks between two listed choices, or None."""
    sent = question(query_doc)
    if sent is None:
        return None
    comma = choices_start(sent)
    if comma is None:
        return None
    doc = sent.doc
    tail = doc[comma + 1 : sent.end].text.strip().rstrip("?").strip()
    parts = [p.strip(" ,") for p in tail.replace(", or ", " or ").split(" or ")]
    if len(parts) != 2 or not all(parts):
        return None
    head = [t for t in doc[sent.start : comma] if not (t.lower_ in ORDINALS and t.dep_ == "amod")]
    early = any(t.lower_ in EARLIER for t in head)
    late = any(t.lower_ in LATER for t in head)
    if early == late:
        return None
    return Comparison((parts[0], parts[1]), early)


def _key(name: str) -> str:
    key = fold(name)
    return key[4:] if key.startswith("the ") else key


def _year(key: str, other: str, sentences: Sequence[Sentence]) -> tuple[int, Sentence] | None:
    """The first year of the first sentence that names the choice and not the other one."""
    for s in sorted(sentences, key=lambda s: s.position):
        text = f" {fold(s.text)} "
        if f" {key} " not in text or f" {other} " in text:
            continue
        years = [y for y in (as_year(t.text) for t in s.doc if t.like_num) if y is not None]
        if years:
            return years[0], s
    return None


def compared(c: Comparison, claim: str, sentences: Sequence[Sentence]) -> EvidenceReading | None:
    """The reading of an answer to a time comparison, or None when the evidence or the answer cannot tell."""
    keys = (_key(c.choices[0]), _key(c.choices[1]))
    said = f" {fold(claim)} "
    named = [k for k in keys if f" {k} " in said]
    if len(named) != 1:
        return None
    picked = keys.index(named[0])
    a, b = _year(keys[0], keys[1], sentences), _year(keys[1], keys[0], sentences)
    if a is None or b is None or a[0] == b[0]:
        return None
    (y0, s0), (y1, s1) = a, b
    first = 0 if y0 < y1 else 1
    right = first if c.earlier else 1 - first
    dated = f"the evidence dates {c.choices[0]} to {y0} [{s0.id}] and {c.choices[1]} to {y1} [{s1.id}]"
    cited = (s0.id, s1.id)
    word = "earlier" if c.earlier else "later"
    if picked == right:
        why = f"{dated}: {c.choices[right]} is the {word}"
        return EvidenceReading(EvidenceDecision.SUPPORTED, cited, (c.choices[picked],), reason=why, units=1)
    why = f"{dated}: the {word} is {c.choices[right]}, not {c.choices[picked]}"
    conflict = Conflict(c.choices[picked], c.choices[right], (s0, s1)[right].id, "comparison")
    return EvidenceReading(EvidenceDecision.REFUTED, cited, conflict=conflict, reason=why, units=1)


__all__ = ["EARLIER", "LATER", "Comparison", "compared", "comparison"]
