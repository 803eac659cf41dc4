"""Loaders for triple files; each reports bad rows with file, line and reason and loads the rest."""

from drowzee_core.kb.loaders.tabular import load_csv, load_jsonl
from drowzee_core.kb.loaders.wikidata import load_wikidata_json

__all__ = ["load_csv", "load_jsonl", "load_wikidata_json"]
