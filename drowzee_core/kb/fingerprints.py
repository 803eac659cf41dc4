"""KB fingerprints remembered per file state, so a process does not hash a large KB again (about 0.5 s).

The state of a KB file is its resolved path and the size and modification time of the file and of its
write-ahead log (an empty log holds nothing: SQLite makes one at each open). Any committed write
changes it. The memo is one small JSON file, `<DROWZEE_CACHE>/cache/kb-fingerprints.json`, holding
the latest `MAX_REMEMBERED` states.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path

from drowzee_core.config import home
from drowzee_core.records.provenance import atomic_write_text

log = logging.getLogger(__name__)

MEMO_FILE = "kb-fingerprints.json"
MAX_REMEMBERED = 64


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


__all__ = ["MAX_REMEMBERED", "MEMO_FILE", "file_state", "remember", "remembered"]
