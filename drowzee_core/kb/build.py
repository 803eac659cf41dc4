"""Build the bundled seed KB from registry packages, offline."""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Callable
from pathlib import Path

from drowzee_core.config import home
from drowzee_core.kb import sources as seed_sources
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.sources import Source
from drowzee_core.kb.store import KBStore, Stats
from drowzee_core.kb.writer import KBWriter

log = logging.getLogger(__name__)


def build_seed_kb(
    out: Path,
    *,
    sources: tuple[Source, ...] | None = None,
    on_source: Callable[[str, int, float], None] | None = None,
    cache: Path | None = None,
) -> Stats:
    """Write a fresh seed KB to `out` (replacing it atomically) and return its stats.

    Args:
        out: Path of the SQLite file to write.
        sources: Which sources to build, in order; default `drowzee_core.kb.sources.SOURCES`, read at call time.
        on_source: Called after each source with (name, new triples, seconds).
        cache: Folder for derived copies of package data (WordNet); default the Drowzee home.

    """
    cache = cache or home()
    sources = seed_sources.SOURCES if sources is None else sources
    tmp = out.with_name(out.name + ".tmp")
    for stale in (tmp, tmp.with_name(tmp.name + "-wal"), tmp.with_name(tmp.name + "-shm")):
        stale.unlink(missing_ok=True)
    store = KBStore(tmp, create=True)
    catalog = Catalog.from_toml()
    store.save_catalog(catalog)
    for src in sources:
        t0 = time.perf_counter()
        writer = KBWriter(store, catalog)
        src.build(writer, cache)
        new = writer.flush()
        store.add_source(src.name, src.licence, src.url, src.note)
        seconds = time.perf_counter() - t0
        log.info("source %s: %d new triples in %.1fs", src.name, new, seconds)
        if on_source:
            on_source(src.name, new, seconds)
    store.set_meta("built_at", time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()))
    store.set_meta("kind", "seed")
    store.db.execute("ANALYZE")
    stats = store.stats()
    store.close()
    os.replace(tmp, out)
    return stats
