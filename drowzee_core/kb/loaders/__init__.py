"""Loaders for triple files (CSV, JSONL, Wikidata SPARQL JSON; Prolog facts via `logic`), by format name.

Each loader reports bad rows with file, line and reason and loads the rest. `LOADERS` registers them
under the `drowzee kb load --format` names.
"""

from drowzee_core.kb.loaders.registry import LOADERS, Loader, LoadOptions
from drowzee_core.kb.loaders.tabular import load_csv, load_jsonl
from drowzee_core.kb.loaders.wikidata import load_wikidata_json

__all__ = ["LOADERS", "LoadOptions", "Loader", "load_csv", "load_jsonl", "load_wikidata_json"]
