"""Scorers and triple extractors, registered by name: `drowzee score KIND` dispatches through `SCORERS`.

A scorer judges answer rows and summarizes them (`score.<name>` in provenance); a triple extractor
is the response oracle's pluggable part that turns reasoning text into triples (`--extractor`).
Heavy modules (spaCy, embeddings, model clients) are imported when a scorer runs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from drowzee_core.errors import DrowzeeError
from drowzee_core.oracles.graph import DEFAULT_MATCH
from drowzee_core.registry import Registry

if TYPE_CHECKING:
    from drowzee_core.oracles.score import TripleExtractor

log = logging.getLogger(__name__)

Rows = list[dict[str, Any]]
Progress = Callable[[int], None]


@dataclass(frozen=True, slots=True)
class ScoreOptions:
    """Options of the scorers (each reads the ones it needs)."""

    match_threshold: float = DEFAULT_MATCH
    """Drowzee: node/edge similarity at or above which the reasoning matches the facts."""
    extractor: str = "spacy"
    """Drowzee: name of the triple extractor (see `EXTRACTORS`)."""
    synonyms: bool = True
    """Drowzee: match nodes with WordNet synonyms; False only when asked (`--no-synonyms`), never by default."""

    def __post_init__(self) -> None:
        if not 0.0 <= self.match_threshold <= 1.0:
            raise DrowzeeError(f"`match_threshold` must be in [0, 1], got {self.match_threshold}")
        EXTRACTORS.entry(self.extractor)  # unknown names fail here, listing the known ones


Scorer = Callable[[Rows, ScoreOptions, Progress | None], tuple[Rows, dict[str, Any]]]

SCORERS: Registry[Scorer] = Registry("scorer", prefix="score")
EXTRACTORS: Registry[Callable[[], TripleExtractor]] = Registry("triple extractor")


def _spacy() -> TripleExtractor:
    from drowzee_core.oracles.extract import SpacyExtractor

    return SpacyExtractor()


def _llm() -> TripleExtractor:
    from drowzee_core.llm.extractor import LLMExtractor
    from drowzee_core.llm.roles import chat_model, load_role

    return LLMExtractor(chat_model(load_role("extractor")))


def _score_drowzee(rows: Rows, opts: ScoreOptions, progress: Progress | None) -> tuple[Rows, dict[str, Any]]:
    from drowzee_core.config import home
    from drowzee_core.kb.sources.wordnet import load_wordnet
    from drowzee_core.llm.embeddings import embedder
    from drowzee_core.oracles.graph import Equivalence
    from drowzee_core.oracles.score import score_drowzee

    if opts.synonyms:
        try:
            load_wordnet(home())
        except DrowzeeError as exc:  # synonyms change CO / EK classes: never drop them silently
            raise DrowzeeError(f"{exc}; or pass --no-synonyms to score without WordNet synonyms") from exc
    eq = Equivalence(embedder().encode, wordnet=opts.synonyms)
    extractor = EXTRACTORS.get(opts.extractor)()
    judged, summary = score_drowzee(
        rows, eq, extractor=extractor, match_threshold=opts.match_threshold, progress=progress
    )
    return judged, summary.model_dump() | {"synonyms": "wordnet-3.0" if opts.synonyms else "none (--no-synonyms)"}


def _score_erbench(rows: Rows, opts: ScoreOptions, progress: Progress | None) -> tuple[Rows, dict[str, Any]]:
    from drowzee_core.oracles.score import score_erbench

    judged, summary = score_erbench(rows)
    return judged, summary.model_dump()


def _score_factchd(rows: Rows, opts: ScoreOptions, progress: Progress | None) -> tuple[Rows, dict[str, Any]]:
    from drowzee_core.oracles.score import score_factchd_rows

    judged, summary = score_factchd_rows(rows)
    return judged, summary.model_dump()


def _score_verdicts(rows: Rows, opts: ScoreOptions, progress: Progress | None) -> tuple[Rows, dict[str, Any]]:
    from drowzee_core.llm.embeddings import embedder
    from drowzee_core.oracles.graph import Equivalence, graph_similarity, semantic_graph
    from drowzee_core.oracles.verdicts import score_verdicts

    eq = Equivalence(embedder().encode, wordnet=opts.synonyms)
    extractor = EXTRACTORS.get(opts.extractor)()

    def similarity(explanation: str, truth: list[str]) -> tuple[float, float]:
        facts = [t for text in truth for t in extractor.triples(text)]
        sim = graph_similarity(semantic_graph(extractor.triples(explanation)), semantic_graph(facts), eq)
        return round(sim.nodes, 4), round(sim.edges, 4)

    judged, summary = score_verdicts(rows, similarity, progress)
    return [r.model_dump() for r in judged], summary.model_dump()


EXTRACTORS.add("spacy", _spacy, "Dependency-parse subject-verb-object triples (spaCy en_core_web_sm).")
EXTRACTORS.add("llm", _llm, "Triples written by the `extractor` model role, validated against a schema.")

SCORERS.add("drowzee", _score_drowzee, "Drowzee answers: accuracy and graph-oracle classes CO / OL / EI / EK.")
SCORERS.add("erbench", _score_erbench, "ERBench answers and rationales: A, R, AR, H (+ R-ext / AR-ext).")
SCORERS.add(
    "verdicts",
    _score_verdicts,
    "Verifier verdicts (PAIRS VERDICTS): FactCls, accuracy, ExpMatch, graph-oracle similarity of explanations.",
)
SCORERS.add("factchd", _score_factchd, "FactCHD predictions: FactCls, ExpMatch, accuracy, macro-F1 per category.")

__all__ = ["EXTRACTORS", "SCORERS", "ScoreOptions", "Scorer"]
