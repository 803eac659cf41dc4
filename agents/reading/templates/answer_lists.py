"""Short answers as lists of names, and answers that decline (pure).

Shared by the query composers (`kb.questions`, `kb.set_questions`): names in a list are split at ", "
and the last " and "; where a name itself holds " and " ("Bosnia and Herzegovina"), the split that
names entities the response states is taken, else the last " and ". (`kb.wording.split_names` is
another thing: the capitalised names a question lists, also with "or".)
"""

from __future__ import annotations

import re
from collections.abc import Collection

from drowzee_core.records.answer_text import parse_answer

_ABSTAIN = re.compile(r"\s*(?:no\s+idea|nobody\s+knows|no\s+one\s+knows|it\s+is\s+not\s+known)\b", re.IGNORECASE)


def abstains(text: str) -> bool:
    """Whether a short answer declines to answer ("I don't know.", "It is unknown.", "No idea.")."""
    return parse_answer(text).label == "unsure" or bool(_ABSTAIN.match(text))


def split_answer_names(text: str, known: Collection[str] = ()) -> list[str]:
    """'A', 'A and B', 'A, B and C' (also 'A, B, and C') as names; `known` (case-folded) settles " and "."""
    parts = [p.strip() for p in re.split(r",\s+", text.strip()) if p.strip()]
    if not parts:
        return []
    last = re.sub(r"^and\s+", "", parts.pop())
    pieces = last.split(" and ")
    if len(pieces) <= 2:
        return [*parts, *pieces]
    options = [(" and ".join(pieces[:k]), " and ".join(pieces[k:])) for k in range(1, len(pieces))]
    for need in (2, 1):
        for a, b in options:
            if (a.casefold() in known) + (b.casefold() in known) >= need:
                return [*parts, a, b]
    return [*parts, *options[-1]]


__all__ = ["abstains", "split_answer_names"]
