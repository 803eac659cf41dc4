"""Drowzee Triangulator core: provable test cases for fact-conflicting hallucinations, and their oracles.

The packages follow the data flow: `kb` (triples, catalog, loaders, seed sources) -> `logic`
(SWI-Prolog rules, proofs, MTL) -> `generate` (test-case generators, registered by name) -> `llm`
(model roles, local server, model-under-test runner) -> `oracles` (answer parsing, graph oracle,
metrics, reports). `records` holds the typed records that pass between them and the provenance
sidecar every written file gets; `cli` is the `drowzee` command. This package itself exports the
error hierarchy and the `Registry` the producers are registered in.
"""

from drowzee_core.errors import (
    CatalogError,
    DrowzeeError,
    KBError,
    LoadError,
    LogicError,
    PrologUnavailableError,
    RegistryError,
)
from drowzee_core.registry import Entry, Registry

__all__ = [
    "CatalogError",
    "DrowzeeError",
    "Entry",
    "KBError",
    "LoadError",
    "LogicError",
    "PrologUnavailableError",
    "Registry",
    "RegistryError",
]
__version__ = "0.1.0"
