"""Small curated tables for domains no registry package covers (technology, mathematics).

Each row names its source in `note`; rows whose relation has year objects also carry the year as
the fact's validity (a point interval).
"""

from __future__ import annotations

import csv
import io
from importlib import resources

from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.writer import KBWriter


def build_curated(w: KBWriter, table: str, domain: str) -> None:
    """Load `data/curated_<table>.csv` into the writer under `domain`."""
    text = resources.files("drowzee_core.kb").joinpath(f"data/curated_{table}.csv").read_text("utf-8")
    src = f"curated-{table}"
    for row in csv.DictReader(io.StringIO(text)):
        spec = w.catalog.get(row["relation"])
        s = w.entity(f"{table}:{row['subject']}", row["subject"])
        if spec.object_kind is ValueKind.YEAR:
            year = int(row["object"])
            w.triple(s, spec.name, w.year(year), domain=domain, source=src, start_year=year, end_year=year)
        else:
            w.triple(s, spec.name, w.entity(f"{table}:{row['object']}", row["object"]), domain=domain, source=src)
