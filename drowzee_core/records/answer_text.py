r"""Yes / No / unsure answers out of free model text (pure).

Models wrap the answer in many ways: "Sure! Here is my answer to the question "...":\\n\\nNO, because",
"\\n    Answer:\\n    Yes", "Yes, it is true that there are no ...", "No, it is not possible ...",
"I'm not sure". The parser reads the *surface* answer the model commits to, as the seed papers' labels
do: for "X is not Y. Please judge the truth of this statement", a reply "No, because ..." parses as No.

The search, in order:
1. drop echoes of the question (quoted text, "Question: ..." lines) and chatty preambles that end with
   ":" ("Sure! Here is my answer ...:");
2. after an "Answer:" marker, else at the start of the text, the first yes / no / unsure word;
3. otherwise a whole-text scan for the first committed phrase ("the answer is no", "it is not true that",
   "it is possible", ...);
4. nothing found -> `None` (no answer; scorers count it as a failure, never as a guess).

A text that commits to both answers ("Yes, because ...\n No, because ..." or a second "Answer: No"
further down) is *hedged*: label None, `how="conflict"`, as the Drowzee authors' labels treat it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

AnswerLabel = Literal["yes", "no", "unsure"]

_YES = r"yes|yeah|yep|correct|true|right|affirmative"
_NO = r"no|nope|false|incorrect|wrong|negative"
_UNSURE = (
    r"i\s+don'?t\s+know|i\s+do\s+not\s+know|unsure|not\s+sure|uncertain|unknown|cannot\s+(?:be\s+)?determined?"
    r"|can'?t\s+(?:be\s+)?determined?|i\s+cannot\s+(?:say|answer|determine|confirm)|i\s+can'?t\s+(?:say|answer|determine)"
    r"|insufficient\s+information|not\s+enough\s+information|i\s+am\s+not\s+able\s+to|i'?m\s+not\s+able\s+to"
)
_LEAD = re.compile(
    rf"^[\s\"'*_`>#\-\[(]*(?:(?P<unsure>{_UNSURE})|(?P<yes>{_YES})|(?P<no>{_NO}))\b",
    re.IGNORECASE,
)
# a committed line: "Yes, because", "No.", "NO, it is not" - not "No information is given"
_COMMIT = re.compile(
    rf"^[\s\"'*_`>#\-]*(?:(?P<yes>{_YES})|(?P<no>{_NO}))\s*(?:[,.!:;]|because\b|$)",
    re.IGNORECASE | re.MULTILINE,
)
_MARKER = re.compile(r"(?:^|\n|\s)(?:final\s+)?answer\s*[:：]", re.IGNORECASE)
_QUOTED = re.compile(r"\"[^\"\n]{3,}\"|“[^”\n]{3,}”")
_QUESTION_LINE = re.compile(r"^\s*question\s*[:：].*$", re.IGNORECASE | re.MULTILINE)
_PREAMBLE = re.compile(
    r"^\s*(?:sure|certainly|of course|okay|ok|great|absolutely|here(?:'s| is)|based on|i(?:'d| would) be happy)"
    r"[^\n]*?[:：]\s*",
    re.IGNORECASE,
)
_PHRASES: tuple[tuple[AnswerLabel, re.Pattern[str]], ...] = (
    ("unsure", re.compile(rf"\b(?:{_UNSURE})\b", re.IGNORECASE)),
    ("no", re.compile(r"\bthe\s+answer\s+(?:is|would\s+be)\s*[:\"']*\s*no\b", re.IGNORECASE)),
    ("yes", re.compile(r"\bthe\s+answer\s+(?:is|would\s+be)\s*[:\"']*\s*yes\b", re.IGNORECASE)),
    ("no", re.compile(r"\b(?:it\s+is|it's)\s+(?:not|impossible)\s+(?:true|possible|correct|likely)?", re.IGNORECASE)),
    ("no", re.compile(r"\bthis\s+(?:statement\s+)?is\s+(?:false|incorrect|not\s+true)\b", re.IGNORECASE)),
    ("yes", re.compile(r"\b(?:it\s+is|it's)\s+(?:true|possible|correct)\b", re.IGNORECASE)),
    ("yes", re.compile(r"\bthis\s+(?:statement\s+)?is\s+(?:true|correct)\b", re.IGNORECASE)),
)


@dataclass(frozen=True, slots=True)
class ParsedAnswer:
    """The answer a text commits to, and where it was found (`how`: marker, lead, phrase or none)."""

    label: AnswerLabel | None
    how: str
    span: str = ""


def _strip_echo(text: str) -> str:
    text = _QUESTION_LINE.sub(" ", text)
    text = _QUOTED.sub(" ", text)
    for _ in range(2):  # "Sure! Here is my answer: Based on my knowledge:" has two preambles
        stripped = _PREAMBLE.sub("", text, count=1)
        if stripped == text:
            break
        text = stripped
    return text


def _lead(text: str) -> tuple[AnswerLabel, str] | None:
    m = _LEAD.match(text)
    if not m:
        return None
    label: AnswerLabel = "unsure" if m.group("unsure") else "yes" if m.group("yes") else "no"
    return label, m.group(0).strip()


def parse_answer(text: str) -> ParsedAnswer:
    """The Yes / No / unsure answer of `text`; label None when it commits to none."""
    if not text or not text.strip():
        return ParsedAnswer(None, "empty")
    body = _strip_echo(text)
    committed = {"yes" if m.group("yes") else "no" for m in _COMMIT.finditer(body)}
    committed |= {
        found[0] for m in _MARKER.finditer(body) if (found := _lead(body[m.end() :])) and found[0] != "unsure"
    }
    if len(committed) > 1:
        return ParsedAnswer(None, "conflict")
    markers = list(_MARKER.finditer(body))
    for marker in markers:
        found = _lead(body[marker.end() :])
        if found:
            return ParsedAnswer(found[0], "marker", found[1])
    found = _lead(body)
    if found:
        return ParsedAnswer(found[0], "lead", found[1])
    # each line start: "Sure! Here is my answer to the question\n\nNO, because ..." with no colon
    for line in body.splitlines():
        found = _lead(line)
        if found and line.strip():
            return ParsedAnswer(found[0], "line", found[1])
    first: tuple[int, AnswerLabel, str] | None = None
    for label, pattern in _PHRASES:
        m = pattern.search(body)
        if m and (first is None or m.start() < first[0]):
            first = (m.start(), label, m.group(0))
    if first:
        return ParsedAnswer(first[1], "phrase", first[2])
    return ParsedAnswer(None, "none")


def gold_label(answer: str) -> AnswerLabel | None:
    """A gold answer such as "Yes.", "No", "yes" or "I don't know" as a label (None if unreadable)."""
    return parse_answer(answer).label
