"""A small persistent key -> JSON cache in SQLite, keyed by a tool name and its parameters.

Generic on purpose: web search results and the verifier's model, judge and proof calls
(`agents/verifier/accounting.py`) share it. Several processes may share one file: SQLite's WAL journal lets readers
run beside a writer, and a writer waits up to `BUSY_TIMEOUT_S` for another's lock before failing.
A key is the sha256 of the tool name and the parameters as canonical JSON (sorted keys), so the same
call with its arguments in another order hits the same entry. Each entry keeps its creation time,
and a reader may ask for entries no older than a given age.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from drowzee_core.errors import DrowzeeError

_DDL = (
    "CREATE TABLE IF NOT EXISTS cache (key TEXT PRIMARY KEY, tool TEXT NOT NULL, params TEXT NOT NULL,"
    " value TEXT NOT NULL, created REAL NOT NULL)"
)
BUSY_TIMEOUT_S = 30.0
"""How long a call waits for another process's lock on the file before it fails."""


class CacheError(DrowzeeError):
    """A value or parameter set cannot be stored as JSON, or the cache file cannot be opened."""


@dataclass(frozen=True)
class CachedValue:
    """A cache entry: the stored JSON value and when it was written (Unix seconds)."""

    value: Any
    created: float


def cache_key(tool: str, params: Mapping[str, Any]) -> str:
    """The entry key of `tool` called with `params` (sha256 of canonical JSON)."""
    if not tool:
        raise CacheError("`tool` must be a non-empty name, got ''")
    try:
        canon = json.dumps({"tool": tool, "params": params}, sort_keys=True, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise CacheError(f"parameters of {tool!r} must be JSON values (str, number, bool, list, dict): {exc}") from exc
    return hashlib.sha256(canon.encode("utf-8")).hexdigest()


class JsonCache:
    """SQLite file of JSON values by (tool, parameters); safe to share between threads and processes."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        if str(path) != ":memory:":
            self.path.parent.mkdir(parents=True, exist_ok=True)
        try:
            self._db = sqlite3.connect(str(path), timeout=BUSY_TIMEOUT_S, check_same_thread=False)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_DDL)
            self._db.commit()
        except sqlite3.Error as exc:
            raise CacheError(f"cannot open the cache at {self.path}: {exc}; check the path is writable") from exc
        self._lock = threading.Lock()

    def get(self, tool: str, params: Mapping[str, Any], max_age_s: float | None = None) -> CachedValue | None:
        """The entry of (tool, params), or None when absent or older than `max_age_s` seconds."""
        if max_age_s is not None and max_age_s < 0:
            raise CacheError(f"`max_age_s` must be >= 0 or None, got {max_age_s}")
        key = cache_key(tool, params)
        try:
            with self._lock:
                row = self._db.execute("SELECT value, created FROM cache WHERE key = ?", (key,)).fetchone()
        except sqlite3.Error as exc:
            raise CacheError(f"cannot read the cache at {self.path}: {exc}") from exc
        if row is None:
            return None
        created = float(row[1])
        if max_age_s is not None and time.time() - created > max_age_s:
            return None
        return CachedValue(json.loads(row[0]), created)

    def put(self, tool: str, params: Mapping[str, Any], value: Any) -> None:
        """Store `value` (any JSON value) for (tool, params), replacing an older entry."""
        key = cache_key(tool, params)
        try:
            payload = json.dumps(value, ensure_ascii=False, allow_nan=False)
        except (TypeError, ValueError) as exc:
            raise CacheError(f"value for {tool!r} must be a JSON value: {exc}") from exc
        params_json = json.dumps(params, sort_keys=True, ensure_ascii=False)
        with self._lock:
            try:
                self._db.execute(
                    "INSERT OR REPLACE INTO cache(key, tool, params, value, created) VALUES (?, ?, ?, ?, ?)",
                    (key, tool, params_json, payload, time.time()),
                )
                self._db.commit()
            except sqlite3.Error as exc:
                self._db.rollback()  # leave no open transaction holding the file's lock
                raise CacheError(f"cannot write the cache at {self.path}: {exc}; another process may hold it") from exc

    def __len__(self) -> int:
        with self._lock:
            return int(self._db.execute("SELECT count(*) FROM cache").fetchone()[0])

    def close(self) -> None:
        """Close the database file."""
        with self._lock:
            self._db.close()

    def __enter__(self) -> JsonCache:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["BUSY_TIMEOUT_S", "CacheError", "CachedValue", "JsonCache", "cache_key"]
