"""Reading a label from the first generated token's top logprobs (OpenAI's format, as ChatOpenAI reports it).

A model asked for a label in one token (`max_tokens=1`, `logprobs=True`, `top_logprobs=k`) answers
with a next-token distribution, not just its top token. `first_token_top` reads the top-k alternatives
of the first generated token from a message's `response_metadata["logprobs"]["content"][0]`, and
`label_mass` adds up the probability of the alternatives that name each label, so a top token such as
"The" does not hide the label tokens just below it. The LLM judge (SUPPORTED vs NOT...) and the Truth
Guardian (FACTUAL vs NON-FACTUAL) both read their labels this way.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar

K = TypeVar("K", bound=Hashable)

TopLogprobs = list[tuple[str, float]]
"""(token text, logprob) alternatives of one generated token, most probable first."""


def first_token_top(metadata: Mapping[str, Any]) -> TopLogprobs | None:
    """The first generated token's top alternatives, from a message's `response_metadata`.

    Args:
        metadata: `AIMessage.response_metadata` of a completion asked for `logprobs=True`.

    Returns:
        The `top_logprobs` of the first generated token as (token, logprob) pairs; the generated token
        alone when the endpoint listed no alternatives; None when it returned no logprobs at all (an
        endpoint that ignores `logprobs`, or an answer of no tokens).

    """
    content = (metadata.get("logprobs") or {}).get("content") or []
    if not content:
        return None
    first = content[0]
    top = first.get("top_logprobs") or [first]
    return [(str(t["token"]), float(t["logprob"])) for t in top]


def label_mass(top: Sequence[tuple[str, float]], label_of: Callable[[str], K | None]) -> dict[K, float]:
    """Probability mass per label among the top alternatives.

    Args:
        top: (token, logprob) alternatives of one generated token.
        label_of: The label a token names, or None for a token that names none (it is ignored).

    Returns:
        Label -> the summed probability of the alternatives that name it (labels with none are absent).

    """
    mass: dict[K, float] = {}
    for token, logprob in top:
        label = label_of(token)
        if label is not None:
            mass[label] = mass.get(label, 0.0) + math.exp(logprob)
    return mass


def prefix_labeller(words: Mapping[K, str]) -> Callable[[str], K | None]:
    """A `label_of` for `label_mass`: the label whose word the token begins, if exactly one.

    A token names a label when, stripped of whitespace and compared case-insensitively, it is a
    non-empty prefix of that label's word and of no other: with "FACTUAL" and "NON-FACTUAL", "F",
    "FACT", "factual", "N", "NO", "Non", "NON-" and "NON-FACTUAL" each name one label; a whitespace-only
    token (a prefix of every word), "The", "NOT", "FACTS" or "NONSENSE" (a prefix of neither) name none.

    Args:
        words: Label -> the word that labels it in the model's answer.

    """
    upper = {label: word.upper() for label, word in words.items()}

    def label_of(token: str) -> K | None:
        t = token.strip().upper()
        hits = [label for label, word in upper.items() if t and word.startswith(t)]
        return hits[0] if len(hits) == 1 else None

    return label_of


__all__ = ["TopLogprobs", "first_token_top", "label_mass", "prefix_labeller"]
