"""Input formats of `drowzee kb load`, registered by name (`--format NAME` dispatches through `LOADERS`).

The registry sits in `logic`, not in `kb`: one format (Prolog facts) is read by the Prolog engine, and
the KB layer never imports the logic above it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from drowzee_core.kb.writer import KBWriter, LoadReport
from drowzee_core.registry import Registry


@dataclass(frozen=True, slots=True)
class LoadOptions:
    """Options of the loaders (each reads the ones it needs)."""

    domain: str = "general"
    """Domain of rows that name none."""
    relation: str | None = None
    """wikidata-json: the relation when the query has no `?p` variable."""


Loader = Callable[[Path, KBWriter, LoadOptions], LoadReport]

LOADERS: Registry[Loader] = Registry("KB input format")


def _csv(path: Path, writer: KBWriter, opts: LoadOptions) -> LoadReport:
    from drowzee_core.kb.loaders.tabular import load_csv

    return load_csv(path, writer, opts.domain)


def _jsonl(path: Path, writer: KBWriter, opts: LoadOptions) -> LoadReport:
    from drowzee_core.kb.loaders.tabular import load_jsonl

    return load_jsonl(path, writer, opts.domain)


def _wikidata_json(path: Path, writer: KBWriter, opts: LoadOptions) -> LoadReport:
    from drowzee_core.kb.loaders.wikidata import load_wikidata_json

    return load_wikidata_json(path, writer, opts.relation, opts.domain)


def _prolog(path: Path, writer: KBWriter, opts: LoadOptions) -> LoadReport:
    from drowzee_core.logic.engine import PrologEngine
    from drowzee_core.logic.prolog_facts import load_prolog_facts

    return load_prolog_facts(path, writer, PrologEngine(), opts.domain)


LOADERS.add("csv", _csv, "CSV with a header row: subject, relation, object (+ domain, source, negated, years, keys).")
LOADERS.add("jsonl", _jsonl, "JSON Lines: one object per triple, with the CSV's field names.")
LOADERS.add("prolog", _prolog, "Prolog facts: rel(s, o)., negated \\+ rel(s, o)., Drowzee's begin/end temporal facts.")
LOADERS.add("wikidata-json", _wikidata_json, "SPARQL JSON results from the Wikidata query service.")

__all__ = ["LOADERS", "LoadOptions", "Loader"]
