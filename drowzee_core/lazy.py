"""Lazy package exports: a package lists its public names and imports a module on first use.

Packages whose modules pull heavy dependencies (torch, spaCy, NLTK, LangChain) expose their API this
way so that `import drowzee_core.oracles` stays cheap; type checkers see the real names through
`if TYPE_CHECKING:` imports beside the mapping.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module `__getattr__` for `package` that imports `exports[name]` (a module path) on first access."""

    def getattr_(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        return getattr(importlib.import_module(module), name)

    return getattr_


__all__ = ["lazy_exports"]
