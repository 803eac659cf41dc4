"""Logic: the catalog compiled to Prolog rules, derivation with proofs, and `prove`."""

from drowzee_core.logic.engine import FamilyRun, PrologEngine, ProveResult
from drowzee_core.logic.rules import MATERIALIZED, CompiledRules, Family, compile_catalog

__all__ = [
    "MATERIALIZED",
    "CompiledRules",
    "Family",
    "FamilyRun",
    "PrologEngine",
    "ProveResult",
    "compile_catalog",
]
