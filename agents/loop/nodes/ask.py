"""`ask`: the target's answer to every case, from the model (cached) or from the recorded answers' file.

- `target` / `endpoint`: `drowzee_core.llm.runner.run_cases` sends each case's prompt to the model;
  answers are cached in SQLite under the model's identity, so a re-run (or a resumed loop) costs
  nothing for the answers already given. If any call fails the node stops the loop (a benchmark over
  part of its cases would differ silently); `--resume` then asks only the failed cases again.
- `answers`: the recorded answers, read again from the file (the same rows `generate` took).
- `pairs` (factchd): the pair's own response stands for the answer under test.
"""

from __future__ import annotations

import logging
from collections import Counter
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from agents.loop.context import LoopContext
from agents.loop.nodes.base import ANSWERS, counter, node_provenance, rows_of
from agents.loop.state import Artefact, LoopError, LoopState
from drowzee_core.llm.runner import AnswerCache, run_cases
from drowzee_core.records.jsonl import write_jsonl
from drowzee_core.records.peer_answers import read_answers
from drowzee_core.records.provenance import input_files

log = logging.getLogger(__name__)


def _from_model(state: LoopState, ctx: LoopContext, cases: list[dict[str, Any]], out: Path) -> dict[str, Any]:
    cfg = state["config"]
    target = ctx.target(cfg)
    meta = node_provenance(
        "benchmark.ask", state, ctx, inputs=input_files([Path(state["cases"].path)]), resolved_role=target.described
    )
    cache = AnswerCache(ctx.answer_cache)
    try:
        with ctx.track(f"{target.name}: answering", len(cases)) as done:
            stats = run_cases(
                cases,
                target.client,
                target.identity,
                target.name,
                cache,
                out,
                meta,
                cfg.concurrency,
                on_batch=counter(done),
            )
    finally:
        cache.close()
    if stats.failed:
        # a benchmark over part of its cases would be silently different: stop here; the answers given are
        # cached, so `--resume` asks only the failed cases again
        raise LoopError(
            f"{stats.failed} of {stats.cases} calls to {target.name} failed (first: {stats.errors[0]});"
            " check the model server or endpoint, then re-run with --resume to ask only those again"
        )
    return {"cached": stats.cached, "called": stats.called, "failed": stats.failed, "model": target.name}


def ask(state: LoopState, runtime: Runtime[LoopContext]) -> dict[str, Any]:
    """Write `answers.jsonl`: every case with the target's `llm_answer` and `model`."""
    cfg, ctx = state["config"], runtime.context
    out = ctx.out / ANSWERS
    cases = rows_of(state["cases"].path)
    if cfg.source in ("target", "endpoint"):
        tallies = _from_model(state, ctx, cases, out)
        n = len(rows_of(out))
    else:
        if cfg.source == "answers":
            answers = Path(cfg.answers or "")
            rows = read_answers(answers, cfg.limit, cfg.seed)
            inputs = input_files([answers])
        else:  # factchd pairs: the response under test is the pair's own
            rows = [
                c | {"question": c.get("query", ""), "llm_answer": c.get("response", ""), "model": "generated"}
                for c in cases
            ]
            inputs = input_files([Path(state["cases"].path)])
        tallies = {"source": cfg.source, "model": dict(Counter(str(r.get("model")) for r in rows))}
        n = write_jsonl(rows, out, node_provenance("benchmark.ask", state, ctx, inputs=inputs, counts=tallies))
    log.info("ask: %d answers -> %s", n, out)
    return {"answers": Artefact(path=str(out), rows=n, counts=tallies), "finished": ["ask"]}


__all__ = ["ask"]
