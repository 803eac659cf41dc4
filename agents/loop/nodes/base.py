"""What the loop's nodes share: file names in the run folder, reading rows back, provenance of a node's file."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agents.loop.context import LoopContext, Progress
from agents.loop.state import LoopConfig, LoopState
from drowzee_core.records.provenance import Provenance, provenance
from drowzee_core.records.readers import read_dicts

CASES, ANSWERS, VERDICTS = "cases.jsonl", "answers.jsonl", "verdicts.jsonl"
JUDGED, ROWS, SCORES = "judged.jsonl", "rows.jsonl", "scores.json"
REPORT_MD, REPORT_HTML = "report.md", "report.html"


def rows_of(path: Path | str) -> list[dict[str, Any]]:
    """The rows of a JSONL file a node wrote."""
    return read_dicts(Path(path))


def counter(done: Progress) -> Progress:
    """A progress callable that adds up increments for a display that takes the total done."""
    seen = 0

    def advance(k: int) -> None:
        nonlocal seen
        seen += k
        done(seen)

    return advance


def node_provenance(
    producer: str,
    state: LoopState,
    ctx: LoopContext,
    inputs: dict[str, str] | None = None,
    counts: dict[str, Any] | None = None,
    **extra: Any,
) -> Provenance:
    """The sidecar record of a node's file: `benchmark.<node>`, the command's and the run's parameters."""
    cfg: LoopConfig = state["config"]
    params = ctx.params | {"loop": cfg.model_dump(mode="json"), "out": str(ctx.out)} | extra
    return provenance(
        producer,
        params,
        seed=cfg.seed,
        kb_fingerprint=state.get("kb_fingerprint"),
        inputs=inputs,
        counts=counts,
    )


__all__ = [
    "ANSWERS",
    "CASES",
    "JUDGED",
    "REPORT_HTML",
    "REPORT_MD",
    "ROWS",
    "SCORES",
    "VERDICTS",
    "counter",
    "node_provenance",
    "rows_of",
]
