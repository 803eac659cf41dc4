"""Text helpers shared by the oracles (pure): normalization and sentence splitting."""

from __future__ import annotations

import re
import unicodedata

# A sentence ends at .!? + space (not after an initial such as "J." or a title such as "Dr."), at a
# newline, or at a period glued to a capitalised word ("...director.CCH Pounder had ...").
_SENTENCE = re.compile(
    r"(?<!\b[A-Za-z])(?<!\b(?:dr|mr|st|jr|vs|ms|Dr|Mr|St|Jr|Ms|No))(?<=[.!?])\s+"
    r"|\n+"
    r"|(?<=[a-z0-9\"\)])(?<![^a-z][a-z])\.(?=[A-Z][a-z])"
)


def fold(text: str) -> str:
    """Lowercase ASCII-folded text with punctuation as spaces ("Kolašinac's" -> "kolasinac's")."""
    text = unicodedata.normalize("NFKD", str(text))
    text = "".join(c for c in text if not unicodedata.combining(c)).lower().replace("’", "'")
    text = re.sub(r"[^a-z0-9' ]+", " ", text)
    return re.sub(r"\s+", " ", text).strip()


def sentences(text: str) -> list[str]:
    """Sentences of `text`, stripped, empty ones dropped."""
    return [s.strip() for s in _SENTENCE.split(text) if s and fold(s)]
