"""`generate`: the cases of the run, from a registered generator or from the recorded answers' file."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from agents.loop.context import LoopContext
from agents.loop.nodes.base import CASES, node_provenance
from agents.loop.state import Artefact, LoopState
from drowzee_core.generate.registry import GENERATORS, GenerateJob
from drowzee_core.records.jsonl import as_dict, counts, write_jsonl
from drowzee_core.records.peer_answers import case_of, read_answers
from drowzee_core.records.provenance import input_files

log = logging.getLogger(__name__)


def generate(state: LoopState, runtime: Runtime[LoopContext]) -> dict[str, Any]:
    """Write `cases.jsonl`: generated cases, or the questions the recorded answers answer."""
    cfg, ctx = state["config"], runtime.context
    out = ctx.out / CASES
    spec = GENERATORS.entry(cfg.generator)
    fingerprint, producer = None, spec.producer
    if cfg.answers:
        producer = "benchmark.recorded"  # the questions the recorded answers answer
        answers = Path(cfg.answers)
        cases = [case_of(r) for r in read_answers(answers, cfg.limit, cfg.seed)]
        inputs = input_files([answers])
    else:
        options: dict[str, Any] = {}
        if cfg.schema_path:
            options = {"schema": Path(cfg.schema_path), "data": Path(cfg.data) if cfg.data else None}
        job = GenerateJob(n=cfg.n or 0, seed=cfg.seed, rules=cfg.rules, domains=cfg.domains, options=options)
        got = ctx.generate(cfg.generator, job)
        cases = [as_dict(c) for c in got.cases][: cfg.limit]
        fingerprint, inputs = got.kb_fingerprint, got.inputs
    tallies = counts(cases, spec.value.count_keys)
    state = state | {"kb_fingerprint": fingerprint}
    meta = node_provenance(producer, state, ctx, inputs=inputs, counts=tallies)
    n = write_jsonl(cases, out, meta)
    log.info("generate: %d cases -> %s", n, out)
    return {
        "cases": Artefact(path=str(out), rows=n, counts=tallies),
        "kb_fingerprint": fingerprint,
        "finished": ["generate"],
    }


__all__ = ["generate"]
