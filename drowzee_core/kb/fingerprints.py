"""A KB's fingerprint: a short hash of what decides its proofs, remembered per file state.

`content_fingerprint` covers the relation specs and rules (they decide what Prolog derives) and every
triple as (subject key, relation name, object key, negated, start year, end year), in sorted order, so
it does not depend on row ids or load order; labels, domains and sources are left out. Hashing the
seed KB takes about half a second, so `kb_fingerprint` remembers it per file state.

The state of a KB file is its resolved path and the size and modification time of the file and of its
write-ahead log (an empty log holds nothing: SQLite makes one at each open). Any committed write
changes it. The memo is one small JSON file, `<DROWZEE_CACHE>/cache/kb-fingerprints.json`, holding
the latest `MAX_REMEMBERED` states.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
from pathlib import Path

from drowzee_core.config import home
from drowzee_core.records.provenance import atomic_write_text

log = logging.getLogger(__name__)

MEMO_FILE = "kb-fingerprints.json"
MAX_REMEMBERED = 64


def content_fingerprint(db: sqlite3.Connection) -> str:
    """The hash of a KB's relations, rules and triples (module docstring), 16 hex digits."""
    h = hashlib.sha256()
    for name, spec in db.execute("SELECT name, spec FROM relation ORDER BY name"):
        h.update(f"R\x1f{name}\x1f{spec}\n".encode())
    for kind, spec in db.execute("SELECT kind, spec FROM rule ORDER BY kind, spec"):
        h.update(f"U\x1f{kind}\x1f{spec}\n".encode())
    cur = db.execute(
        "SELECT es.key, r.name, eo.key, t.negated, t.start_year, t.end_year FROM triple t"
        " JOIN relation r ON r.id = t.r JOIN entity es ON es.id = t.s JOIN entity eo ON eo.id = t.o"
        " ORDER BY 1, 2, 3, 4, 5, 6"
    )
    while rows := cur.fetchmany(100_000):
        for row in rows:
            h.update(("T\x1f" + "\x1f".join("" if v is None else str(v) for v in row) + "\n").encode())
    return h.hexdigest()[:16]


def kb_fingerprint(db: sqlite3.Connection, path: Path | None) -> str:
    """`content_fingerprint(db)`, remembered per state of the file at `path` (None: an in-memory KB, hashed).

    Writes this connection has not committed are not in the file's state: the KB is hashed then too.
    """
    if path is None or db.in_transaction:
        return content_fingerprint(db)
    state = file_state(path)
    if (known := remembered(state)) is not None:
        return known
    fp = content_fingerprint(db)
    if state == file_state(path):  # unchanged while hashing
        remember(state, fp)
    return fp


def file_state(path: Path) -> str:
    """The identity and state of a KB file: path, and size and mtime of the file and its write-ahead log."""
    parts = [str(path.resolve())]
    for p in (path, path.with_name(path.name + "-wal")):
        try:
            st = p.stat()
        except OSError:
            st = None
        parts.append(f"{st.st_size}:{st.st_mtime_ns}" if st is not None and st.st_size > 0 else "-")
    return "|".join(parts)


def _memo_path() -> Path:
    return home() / "cache" / MEMO_FILE


def _memo() -> dict[str, str]:
    try:
        data = json.loads(_memo_path().read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def remembered(state: str) -> str | None:
    """The fingerprint remembered for a file state, if any."""
    return _memo().get(state)


def remember(state: str, fingerprint: str) -> None:
    """Remember a file state's fingerprint (the oldest states go past `MAX_REMEMBERED`)."""
    memo = _memo()
    memo.pop(state, None)
    memo[state] = fingerprint
    try:
        atomic_write_text(_memo_path(), json.dumps(dict(list(memo.items())[-MAX_REMEMBERED:]), indent=1))
    except OSError as exc:
        log.info("KB fingerprint not remembered (%s): it is hashed again next time", exc)


__all__ = [
    "MAX_REMEMBERED",
    "MEMO_FILE",
    "content_fingerprint",
    "file_state",
    "kb_fingerprint",
    "remember",
    "remembered",
]
