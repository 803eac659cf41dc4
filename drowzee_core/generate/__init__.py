"""Test-case generators with provable ground truth, registered by name in `GENERATORS`.

Drowzee QA (rule families over the KB), temporal QA (MTL over year intervals), FactCHD Query-Response
pairs (vanilla, multi-hop, comparison, set operation) and ERBench questions (functional dependencies
and foreign keys of a relational database). `drowzee generate NAME` runs `GENERATORS.get(NAME)` and
records `generate.NAME` as the producer in the output's sidecar. Splits are by entity (`SplitPlan`).
"""

from drowzee_core.generate.drowzee_qa import DrowzeeQAConfig, DrowzeeQAGenerator
from drowzee_core.generate.erbench import ERBenchConfig, ERBenchGenerator, load_schema
from drowzee_core.generate.factchd import FactCHDConfig, FactCHDGenerator, grounding_shares, to_rows
from drowzee_core.generate.prover import EngineProver, FakeProver, Prover
from drowzee_core.generate.registry import GENERATORS, Generated, GenerateJob, GeneratorSpec, Resources
from drowzee_core.generate.splits import SPLITS, SplitPlan
from drowzee_core.generate.temporal_qa import TemporalQAConfig, generate_temporal_qa, generate_temporal_records

__all__ = [
    "GENERATORS",
    "SPLITS",
    "DrowzeeQAConfig",
    "DrowzeeQAGenerator",
    "ERBenchConfig",
    "ERBenchGenerator",
    "EngineProver",
    "FactCHDConfig",
    "FactCHDGenerator",
    "FakeProver",
    "GenerateJob",
    "Generated",
    "GeneratorSpec",
    "Prover",
    "Resources",
    "SplitPlan",
    "TemporalQAConfig",
    "generate_temporal_qa",
    "generate_temporal_records",
    "grounding_shares",
    "load_schema",
    "to_rows",
]
