"""Alignment features of a (claim, evidence sentences) pair: which parts of the claim the evidence holds.

The judge's model (c) reads a claim against evidence the way an alignment checker does: which content
words, numbers and names of the claim the evidence holds, how closely each claim word piece matches
some evidence word piece in context (MiniLM token embeddings), whether the best-matching sentence has
the claim's polarity and word order, and, for a bare answer ("Lyon.", "No."), whether the answer and
the question both meet in one evidence sentence. Everything here is pure: embeddings come in as
arrays (`drowzee_core.llm.judge.align` computes them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

WORD = re.compile(r"\d[\d,.]*\d|\d|[^\W_]+(?:['’][^\W_]+)?")
NUMBER = re.compile(r"^\d[\d,.]*$")
STOP = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "in",
        "on",
        "at",
        "to",
        "for",
        "by",
        "with",
        "from",
        "as",
        "is",
        "are",
        "was",
        "were",
        "be",
        "been",
        "being",
        "has",
        "have",
        "had",
        "do",
        "does",
        "did",
        "and",
        "or",
        "but",
        "if",
        "then",
        "than",
        "that",
        "this",
        "these",
        "those",
        "it",
        "its",
        "it's",
        "he",
        "she",
        "they",
        "them",
        "his",
        "her",
        "their",
        "there",
        "here",
        "what",
        "which",
        "who",
        "whom",
        "whose",
        "when",
        "where",
        "why",
        "how",
        "can",
        "could",
        "would",
        "should",
        "will",
        "shall",
        "may",
        "might",
        "must",
        "you",
        "your",
        "i",
        "me",
        "my",
        "we",
        "our",
        "us",
        "know",
        "tell",
        "think",
        "far",
        "please",
        "yes",
        "no",
        "not",
        "never",
        "none",
        "nor",
        "also",
        "so",
        "just",
        "very",
        "about",
        "into",
        "over",
        "under",
        "after",
        "before",
        "between",
        "during",
        "through",
    ]
)
NEGATION = frozenset(
    [
        "not",
        "no",
        "never",
        "none",
        "nor",
        "neither",
        "cannot",
        "can't",
        "isn't",
        "wasn't",
        "aren't",
        "weren't",
        "doesn't",
        "didn't",
        "don't",
    ]
)
NO_WORDS = frozenset(["no", "not", "wrong", "false", "incorrect", "nope", "untrue"])
YES_WORDS = frozenset(["yes", "yeah", "yep", "correct", "right", "true", "indeed"])

FEATURES: tuple[str, ...] = (
    "sent_cos_max",
    "chunk_cos",
    "tok_align_mean",
    "tok_align_min",
    "tok_align_p25",
    "content_in_best",
    "content_in_chunk",
    "numbers_in_claim",
    "numbers_missing_best",
    "numbers_missing_chunk",
    "names_missing_best",
    "names_missing_chunk",
    "claim_negated",
    "best_negated",
    "negation_mismatch",
    "order_agreement",
    "short_answer",
    "answer_yes",
    "answer_no",
    "answer_in_best",
    "answer_in_chunk",
    "query_in_best",
    "claim_words",
)
"""The feature vector's columns, in order (the shipped manifest records them)."""


def words(text: str) -> list[str]:
    """Lower-cased words and numbers of `text` (thousands separators kept inside numbers)."""
    return [w.lower() for w in WORD.findall(text)]


def content(ws: Sequence[str]) -> list[str]:
    """The words that carry content (stop words dropped)."""
    return [w for w in ws if w not in STOP]


def names(text: str) -> list[str]:
    """Capitalised words that do not start a sentence (a rough stand-in for names), lower-cased."""
    out = []
    for i, m in enumerate(WORD.finditer(text)):
        w = m.group(0)
        start = m.start()
        at_start = i == 0 or text[:start].rstrip().endswith((".", "!", "?", "|", "[SEP]"))
        if w[:1].isupper() and not at_start and w.lower() not in STOP:
            out.append(w.lower())
    return out


def _share(items: Sequence[str], pool: set[str]) -> float:
    return sum(w in pool for w in items) / len(items) if items else 1.0


def _missing(items: Sequence[str], pool: set[str]) -> float:
    return float(sum(w not in pool for w in items))


def order_agreement(claim: Sequence[str], sentence: Sequence[str]) -> float:
    """How the claim's shared content words are ordered in the sentence: +1 the same order, -1 reversed.

    Kendall's tau over the first positions of the words both hold; 0 when fewer than two are shared.
    """
    pos = {w: i for i, w in reversed(list(enumerate(sentence)))}
    seq = [pos[w] for w in dict.fromkeys(claim) if w in pos]
    if len(seq) < 2:
        return 0.0
    pairs = [(a, b) for i, a in enumerate(seq) for b in seq[i + 1 :]]
    return sum(1.0 if a < b else -1.0 if a > b else 0.0 for a, b in pairs) / len(pairs)


@dataclass(frozen=True, slots=True)
class PairText:
    """One scored pair: the question (may be empty), the claim and the evidence sentences."""

    query: str
    claim: str
    sentences: Sequence[str]

    @property
    def short(self) -> bool:
        """A bare answer ("Lyon.", "Yes.", "No, that is wrong."): it needs the question to mean anything."""
        return bool(self.query) and len(content(words(self.claim))) <= 3 and len(words(self.claim)) <= 5

    @property
    def statement(self) -> str:
        """The text to check: the claim, or question and answer together for a bare answer."""
        return f"{self.query} {self.claim}" if self.short else self.claim


def features(
    pair: PairText,
    statement_vec: NDArray[np.float32],
    sentence_vecs: NDArray[np.float32],
    chunk_vec: NDArray[np.float32],
    statement_tokens: NDArray[np.float32],
    chunk_tokens: NDArray[np.float32],
) -> list[float]:
    """The pair's feature vector in `FEATURES` order.

    Args:
        pair: The texts.
        statement_vec: Unit sentence embedding of `pair.statement`.
        sentence_vecs: Unit embeddings of the evidence sentences, one row each (may be empty).
        chunk_vec: Unit embedding of all the sentences joined.
        statement_tokens: Unit contextual embeddings of the statement's content word pieces (rows).
        chunk_tokens: Unit contextual embeddings of the evidence's word pieces (rows).

    """
    sents = [words(s) for s in pair.sentences]
    stmt_words = words(pair.statement)
    stmt_content = content(stmt_words)
    sims = sentence_vecs @ statement_vec if len(sentence_vecs) else np.zeros(0, dtype=np.float32)
    best = int(np.argmax(sims)) if len(sims) else -1
    best_words = set(sents[best]) if best >= 0 else set()
    chunk_words = set().union(*map(set, sents)) if sents else set()
    if len(statement_tokens) and len(chunk_tokens):
        align = (statement_tokens @ chunk_tokens.T).max(axis=1)
        tok = [float(align.mean()), float(align.min()), float(np.percentile(align, 25))]
    else:
        tok = [0.0, 0.0, 0.0]
    nums = [w for w in stmt_words if NUMBER.match(w)]
    stmt_names = names(pair.statement)
    negated = any(w in NEGATION for w in words(pair.claim if not pair.short else pair.query))
    best_neg = bool(best_words & NEGATION)
    answer = words(pair.claim)
    answer_content = content(answer)
    return [
        float(sims.max()) if len(sims) else 0.0,
        float(chunk_vec @ statement_vec),
        *tok,
        _share(stmt_content, best_words),
        _share(stmt_content, chunk_words),
        float(len(nums)),
        _missing(nums, best_words),
        _missing(nums, chunk_words),
        _missing(stmt_names, best_words),
        _missing(stmt_names, chunk_words),
        float(negated),
        float(best_neg),
        float(negated != best_neg),
        order_agreement(stmt_content, sents[best]) if best >= 0 else 0.0,
        float(pair.short),
        float(pair.short and bool(answer) and answer[0] in YES_WORDS),
        float(pair.short and any(w in NO_WORDS for w in answer)),
        _share(answer_content, best_words) if pair.short else 1.0,
        _share(answer_content, chunk_words) if pair.short else 1.0,
        _share(content(words(pair.query)), best_words) if pair.short else 1.0,  # a full claim stands alone
        float(min(len(stmt_words), 64)),
    ]


__all__ = ["FEATURES", "PairText", "content", "features", "names", "order_agreement", "words"]
