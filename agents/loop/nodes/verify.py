"""`verify`: the triangulation on every answer as a Query-Response pair, durably, row by row.

The pairs go through the batch engine (`agents.batch.engine`): `plan` turns them into tasks (or error records
for rows that cannot be checked, e.g. an empty answer), `run_local` checks them and the `Ledger` appends
each record to `verdicts.jsonl`, fsynced, as soon as it is final. The ledger always resumes: a verify
node killed mid-way checks only the rows not yet in the file when the loop is resumed.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

from langgraph.runtime import Runtime

from agents.batch.engine import Ledger, parse_columns, plan, run_local
from agents.loop.context import LoopContext
from agents.loop.kinds import ground_truth
from agents.loop.nodes.base import ANSWERS, VERDICTS, node_provenance, rows_of
from agents.loop.state import Artefact, LoopState
from drowzee_core.records.provenance import input_files, write_sidecar

log = logging.getLogger(__name__)


def pairs(answers: list[dict[str, Any]], with_facts: bool) -> Iterator[tuple[str, dict[str, Any]]]:
    """(`answers.jsonl:N`, pair) per answer: query = the question, response = the answer, evidence = the facts."""
    for n, a in enumerate(answers, 1):
        pair: dict[str, Any] = {
            "id": str(a["id"]),
            "query": str(a.get("question", "")),
            "response": str(a.get("llm_answer", "")),
        }
        if with_facts:
            pair["evidence"] = ground_truth(a) or None
        yield f"{ANSWERS}:{n}", pair


def verify(state: LoopState, runtime: Runtime[LoopContext]) -> dict[str, Any]:
    """Write `verdicts.jsonl` (one `{row, id, verdict|error}` per answer, as `drowzee batch` writes)."""
    cfg, ctx = state["config"], runtime.context
    out = ctx.out / VERDICTS
    answers = rows_of(state["answers"].path)
    facts = cfg.evidence == "facts"
    columns = parse_columns(None, "evidence" if facts else None)
    with Ledger(out, resume=True) as ledger, ctx.verifier(cfg) as check, ctx.track("verifying", len(answers)) as done:
        if ledger.resumed:
            log.info(
                "verify: %d rows already in %s (%d bytes of a torn line cut)", ledger.resumed, out, ledger.repaired
            )
        done(len(ledger.done.rows))
        items = plan(pairs(answers, facts), ledger.done, columns)
        run_local(items, check, ledger.write, cfg.concurrency, lambda: done(len(ledger.done.rows)))
        tally = dict(ledger.tally.counts) | {"resumed_rows": ledger.resumed}
    meta = node_provenance(
        "benchmark.verify",
        state,
        ctx,
        inputs=input_files([ctx.out / ANSWERS]),
        counts=tally | {"rows": len(ledger.done.rows)},
        evidence=cfg.evidence,
    )
    write_sidecar(out, meta)
    return {"verdicts": Artefact(path=str(out), rows=len(ledger.done.rows), counts=tally), "finished": ["verify"]}


__all__ = ["pairs", "verify"]
