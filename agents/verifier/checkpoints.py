"""SQLite checkpoints for the LangGraph graphs (the verifier's and the loop's): the one factory.

LangGraph revives only the record types it is told of; they are listed as classes, so a moved or
renamed record cannot silently come back from a checkpoint as a plain dict.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from pathlib import Path

from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from langgraph.checkpoint.sqlite import SqliteSaver


def revivable(types: Sequence[type]) -> list[tuple[str, str]]:
    """(module, name) of each type, as LangGraph's serializer lists the types it may revive."""
    return [(t.__module__, t.__name__) for t in types]


def checkpointer(types: Sequence[type], path: Path | None = None) -> SqliteSaver:
    """A SQLite checkpointer that revives `types` (in memory when `path` is None)."""
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path) if path else ":memory:", check_same_thread=False)
    return SqliteSaver(conn, serde=JsonPlusSerializer(allowed_msgpack_modules=revivable(types)))


__all__ = ["checkpointer", "revivable"]
