"""The catalog's lexicon from a saved state: parsing its ~190 templates with spaCy takes 0.6-1 s a process.

A lexicon is saved under `<DROWZEE_CACHE>/cache/lexicon-<key>.pickle`, where the key covers all that
decides it: the catalog's relations, the spaCy version and pipeline, and the code that builds it (the
reader's and the KB's sources, `code_digest`). A file that does not load is rebuilt and saved again. The
file lives in the user's own cache folder, beside the call cache and the KB it describes.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import tempfile
from functools import cache
from importlib.metadata import version
from pathlib import Path
from typing import Any

from agents.reading.candidates.lexicon import Lexicon
from drowzee_core.config import home
from drowzee_core.kb.catalog import Catalog
from drowzee_core.records.provenance import code_digest

log = logging.getLogger(__name__)

SAVED_FORMAT = 1
"""Bumped when a saved lexicon's layout changes (older files are then ignored)."""


ROOT = Path(__file__).resolve().parents[3]
CODE_FOLDERS = (ROOT / "agents" / "reading", ROOT / "drowzee_core" / "kb")
"""The code that builds a lexicon: a change there makes every saved lexicon stale."""


@cache
def _code() -> str:
    return code_digest(ROOT, list(CODE_FOLDERS))


def lexicon_key(catalog: Catalog, pipeline: Any) -> str:
    """What decides a catalog's lexicon: its relations, the spaCy pipeline, and the code that builds it."""
    h = hashlib.sha256(f"{SAVED_FORMAT}|{version('spacy')}|{_code()}".encode())
    h.update(f"|{pipeline.meta.get('name')}|{pipeline.meta.get('version')}|{pipeline.pipe_names}".encode())
    for rel in catalog:
        h.update(rel.model_dump_json().encode())
    return h.hexdigest()[:20]


def saved_lexicon(catalog: Catalog, pipeline: Any) -> Lexicon:
    """`Lexicon.from_catalog(catalog, pipeline)`, read from its saved state when there is one (else saved)."""
    path = home() / "cache" / f"lexicon-{lexicon_key(catalog, pipeline)}.pickle"
    try:
        with path.open("rb") as fh:
            found = pickle.load(fh)
        if isinstance(found, Lexicon):
            return found
        log.warning("saved lexicon %s holds a %s: rebuilding", path, type(found).__name__)
    except FileNotFoundError:
        pass
    except Exception as exc:  # a damaged or truncated file: rebuild it
        log.warning("saved lexicon %s unreadable (%s): rebuilding", path, exc)
    lexicon = Lexicon.from_catalog(catalog, pipeline)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".lexicon.", dir=path.parent)
        with os.fdopen(fd, "wb") as fh:
            pickle.dump(lexicon, fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError as exc:
        log.info("lexicon not saved to %s (%s): it is parsed again next time", path, exc)
    return lexicon


__all__ = ["CODE_FOLDERS", "SAVED_FORMAT", "lexicon_key", "saved_lexicon"]
