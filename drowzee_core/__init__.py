"""Drowzee Triangulator core: knowledge base, logic engine, test generation and oracles."""

from drowzee_core.errors import (
    CatalogError,
    DrowzeeError,
    KBError,
    LoadError,
    LogicError,
    PrologUnavailableError,
)

__all__ = [
    "CatalogError",
    "DrowzeeError",
    "KBError",
    "LoadError",
    "LogicError",
    "PrologUnavailableError",
]
__version__ = "0.1.0"
