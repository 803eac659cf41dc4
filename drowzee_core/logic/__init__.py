"""Logic: the catalog compiled to Prolog rules, derivation with proofs, `prove`, and MTL over years.

`PrologEngine` is the only janus user; `Reasoner` loads a whole KB into it and proves claims
(supported / contradicted with a proof, or unknown); `TemporalEngine` decides Metric Temporal Logic
queries over year intervals of events.
"""

from drowzee_core.logic.engine import FamilyRun, PrologEngine, ProveResult
from drowzee_core.logic.events import Event, EventTable, events_from_kb, load_fact_file
from drowzee_core.logic.mtl import MTLQuery, MTLSyntaxError
from drowzee_core.logic.mtl_syntax import parse_formula, parse_query
from drowzee_core.logic.reasoner import ProofAnswer, Reasoner
from drowzee_core.logic.rules import MATERIALIZED, CompiledRules, Family, compile_catalog
from drowzee_core.logic.temporal import (
    AUTHORS_HORIZON,
    TemporalAnswer,
    TemporalEngine,
    default_horizon,
    kb_horizon,
)

__all__ = [
    "AUTHORS_HORIZON",
    "MATERIALIZED",
    "CompiledRules",
    "Event",
    "EventTable",
    "Family",
    "FamilyRun",
    "MTLQuery",
    "MTLSyntaxError",
    "PrologEngine",
    "ProofAnswer",
    "ProveResult",
    "Reasoner",
    "TemporalAnswer",
    "TemporalEngine",
    "compile_catalog",
    "default_horizon",
    "events_from_kb",
    "kb_horizon",
    "load_fact_file",
    "parse_formula",
    "parse_query",
]
