"""Loaders for triple files (CSV, JSONL, Wikidata SPARQL JSON), each reporting bad rows and loading the rest.

Each loader reports bad rows with file, line and reason and loads the rest. The `drowzee kb load
--format` names are registered in `drowzee_core.logic.kb_formats`, beside the Prolog-facts loader
(which needs the Prolog engine, a layer above the KB).
"""

from drowzee_core.kb.loaders.tabular import load_csv, load_jsonl
from drowzee_core.kb.loaders.wikidata import load_wikidata_json

__all__ = ["load_csv", "load_jsonl", "load_wikidata_json"]
