"""Drowzee Triangulator entry point.

The Gradio UI and REST API arrive with the triangulation issue; until then `python app.py` runs
the knowledge-base demo that `make run` runs: build the seed KB if missing, derive, prove claims.
"""

from __future__ import annotations

import logging
import sys

from drowzee_core.config import default_kb_path
from drowzee_core.kb.build import build_seed_kb
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.reasoner import Reasoner

log = logging.getLogger("drowzee.app")

DEMO_CLAIMS = (
    ("Paris", "located_in", "Europe"),
    ("Berlin", "capital_of", "France"),
    ("Lyon", "uses_currency", "Euro"),
    ("Helium", "discovery_year", "1900"),
)


def main() -> int:
    """Build (if needed), derive and prove the demo claims; log each verdict with its proof."""
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    path = default_kb_path()
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        log.info("building the seed KB at %s", path)
        build_seed_kb(path)
    reasoner = Reasoner(KBStore(path))
    for run in reasoner.derive():
        log.info("derived %-10s %9d facts in %.2fs", run.family, run.facts, run.seconds)
    for claim in DEMO_CLAIMS:
        verdict = reasoner.prove(*claim)
        log.info("%s: %s", verdict.status.upper(), " ".join(claim))
        for line in verdict.lines():
            log.info("    %s", line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
