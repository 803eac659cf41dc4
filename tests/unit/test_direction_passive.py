"""Which name is a "by" label's subject when the sentence is passive (`reading.questions.direction`; real spaCy)."""

from __future__ import annotations

import pytest

from agents.reading.candidates.labels import LabelLink
from agents.reading.candidates.reader import Mention, nlp
from agents.reading.questions.direction import direction
from drowzee_core.kb.model import ValueKind

LINK = LabelLink(label="made_by", score=1.0, how="lemma", text="made by", verbal=True)


def _names(doc: object, *names: str) -> list[Mention]:
    out = []
    for name in names:
        start = next(t.i for t in doc if t.text == name)  # type: ignore[attr-defined]
        out.append(Mention(start, start + 1, name, ValueKind.ENTITY))
    return out


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Velox was made by Orvin.", ("Velox", "Orvin")),  # the agent is the value
        ("Orvin made Velox.", ("Velox", "Orvin")),  # the active sentence's object is the subject
        ("Velox was made at Orvin.", None),  # a passive without its "by" names no maker
    ],
)
def test_a_by_label_takes_its_maker_from_the_agent_or_the_active_subject(
    sentence: str, expected: tuple[str, str] | None
) -> None:
    doc = nlp()(sentence)
    a, b = _names(doc, *sorted({"Velox", "Orvin"}, key=sentence.index))
    words = [t for t in doc if t.pos_ == "VERB"]
    got = direction(doc, words, a, b, LINK)
    assert (None if got is None else (got[0].text, got[1].text)) == expected
