"""Oracles: judge answers against provable ground truth and summarize them.

Response triples (spaCy `SpacyExtractor`, or an LLM role),
semantic graphs and the Drowzee graph oracle (CO / OL / EI / EK), ERBench rationale checks, FactCHD
FactCls / ExpMatch, and the hallucination report. `SCORERS` registers the scorers behind `drowzee
score KIND` (producer `score.KIND`); `EXTRACTORS` the triple extractors. Names load on first use
(spaCy, NLTK and networkx are slow to import). Answer parsing (`parse_answer`) is in
`drowzee_core.records.answer_text`, below the KB that also reads answers.
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from drowzee_core.oracles.extract import SpacyExtractor
    from drowzee_core.oracles.factchd_metrics import exp_match, score_factchd
    from drowzee_core.oracles.graph import Equivalence, classify, graph_similarity, semantic_graph
    from drowzee_core.oracles.inputs import read_rows
    from drowzee_core.oracles.rationale import judge_rationale
    from drowzee_core.oracles.registry import EXTRACTORS, SCORERS, ScoreOptions, Scorer
    from drowzee_core.oracles.report import write_report
    from drowzee_core.oracles.score import TripleExtractor, score_drowzee, score_erbench, score_factchd_rows

_EXPORTS = {
    "SpacyExtractor": "extract",
    "exp_match": "factchd_metrics",
    "score_factchd": "factchd_metrics",
    "Equivalence": "graph",
    "classify": "graph",
    "graph_similarity": "graph",
    "semantic_graph": "graph",
    "read_rows": "inputs",
    "judge_rationale": "rationale",
    "EXTRACTORS": "registry",
    "SCORERS": "registry",
    "ScoreOptions": "registry",
    "Scorer": "registry",
    "write_report": "report",
    "TripleExtractor": "score",
    "score_drowzee": "score",
    "score_erbench": "score",
    "score_factchd_rows": "score",
}
__getattr__ = lazy_exports(__name__, {k: f"{__name__}.{m}" for k, m in _EXPORTS.items()})
__all__ = [
    "EXTRACTORS",
    "SCORERS",
    "Equivalence",
    "ScoreOptions",
    "Scorer",
    "SpacyExtractor",
    "TripleExtractor",
    "classify",
    "exp_match",
    "graph_similarity",
    "judge_rationale",
    "read_rows",
    "score_drowzee",
    "score_erbench",
    "score_factchd",
    "score_factchd_rows",
    "semantic_graph",
    "write_report",
]
