"""Long evidence in model-sized chunks, and responses as claims (pure; the token counter is passed in).

Evidence sentences are packed, in order, into chunks that fit the model's window beside the claim;
a sentence longer than a window is a chunk of its own (the model cuts it). Each chunk is scored and
the best one taken per claim (MiniCheck's rule: support needs one place that says it). A response
with several sentences is split into claims; the response's score is the lowest claim score (every
claim must be supported).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
SPECIAL_TOKENS = 3  # [CLS] claim [SEP] evidence [SEP]


def evidence_sentences(evidence: Any) -> list[str]:
    """Evidence as sentences: strings kept, triples written `s | r | o`, blank items dropped."""
    if isinstance(evidence, str):
        evidence = [evidence]
    out = []
    for item in evidence or []:
        text = " | ".join(str(x) for x in item) if isinstance(item, list | tuple) else str(item)
        if text.strip():
            out.append(text.strip())
    return out


def split_claims(response: str) -> list[str]:
    """The response's sentences (one claim each); a short answer is one claim."""
    parts = [p.strip() for p in SENTENCE_END.split(response.strip()) if p.strip()]
    return parts or [response.strip()]


def pack_chunks(sentences: Sequence[str], budget: int, count: Callable[[str], int], joiner: str = " ") -> list[str]:
    """Sentences joined (by `joiner`) into chunks of at most `budget` tokens each (by `count`), in order."""
    if budget < 1:
        raise ValueError(f"`budget` must be >= 1 token, got {budget}")
    chunks: list[str] = []
    current: list[str] = []
    used = 0
    for sentence in sentences:
        n = count(sentence)
        if current and used + n > budget:
            chunks.append(joiner.join(current))
            current, used = [], 0
        current.append(sentence)
        used += n
    if current:
        chunks.append(joiner.join(current))
    return chunks or [""]


def window_budget(max_length: int, claim_tokens: int, minimum: int = 32) -> int:
    """Tokens left for evidence beside a claim of `claim_tokens` in a `max_length` window."""
    return max(minimum, max_length - claim_tokens - SPECIAL_TOKENS)


class Scored:
    """The raw scores of one input: per-claim best logits, which chunk won, the response logit."""

    __slots__ = ("best_chunk", "claim_logits", "logit")

    def __init__(self, logit: float, best_chunk: int, claim_logits: list[float]) -> None:
        self.logit = logit
        self.best_chunk = best_chunk
        self.claim_logits = claim_logits


LogitFn = Callable[[Sequence[str], Sequence[str]], Iterable[float]]


def score_inputs(
    inputs: Sequence[tuple[str, str, Any]],
    logit_fn: LogitFn,
    count: Callable[[str], int],
    max_length: int,
    split: bool = True,
    joiner: str = " ",
) -> list[Scored]:
    """Score (query, response, evidence) inputs: every claim against every chunk in one batch.

    A claim's logit is its best chunk's; the response's is its lowest claim's (`best_chunk` is the
    chunk that decided that claim). With `split=False` the whole response is one claim; `joiner` joins
    a chunk's sentences (a model that reads sentences one by one splits them again on it).
    """
    firsts: list[str] = []
    seconds: list[str] = []
    plan: list[list[list[int]]] = []  # input -> claim -> indices into the flat batch
    for query, response, evidence in inputs:
        sentences = evidence_sentences(evidence)
        claims = split_claims(response) if split else [response.strip()]
        per_claim = []
        for claim in claims:
            first = f"{query.strip()} [SEP] {claim}" if query.strip() else claim
            chunks = pack_chunks(sentences, window_budget(max_length, count(first)), count, joiner)
            per_claim.append(list(range(len(firsts), len(firsts) + len(chunks))))
            firsts += [first] * len(chunks)
            seconds += chunks
        plan.append(per_claim)
    flat = list(logit_fn(firsts, seconds)) if firsts else []
    out = []
    for per_claim in plan:
        bests = [max(idx, key=lambda i: flat[i]) for idx in per_claim]
        claim_logits = [flat[i] for i in bests]
        worst = min(range(len(bests)), key=lambda c: claim_logits[c])
        out.append(Scored(claim_logits[worst], bests[worst] - per_claim[worst][0], claim_logits))
    return out


__all__ = ["LogitFn", "Scored", "evidence_sentences", "pack_chunks", "score_inputs", "split_claims", "window_budget"]
