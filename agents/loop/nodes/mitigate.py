"""`mitigate` (with `--mitigate rag`): re-ask the target with the facts the verifier used, and score again.

Each answered case whose verdict holds facts (proof leaves, retrieved or supplied evidence; see
`agents.loop.mitigation`) is asked again with those facts before its prompt (`prompts/mitigate_rag.txt`),
through the same cached runner as `ask`; the patched answers are scored by the same scorer, and
`mitigation.json` holds the before / after figures on the same cases under both oracle labels.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

from langgraph.runtime import Runtime

from agents.loop.context import LoopContext
from agents.loop.kinds import KINDS
from agents.loop.mitigation import mitigation, patch_facts, patched_prompt
from agents.loop.nodes.base import ANSWERS, JUDGED, VERDICTS, counter, node_provenance, rows_of
from agents.loop.state import Artefact, LoopError, LoopState
from drowzee_core.llm.runner import AnswerCache, run_cases
from drowzee_core.records.jsonl import write_jsonl
from drowzee_core.records.provenance import atomic_write_text, input_files, write_sidecar
from prompts import template

PATCHED, PATCHED_JUDGED, MITIGATION = "mitigated_answers.jsonl", "mitigated_judged.jsonl", "mitigation.json"


def mitigate(state: LoopState, runtime: Runtime[LoopContext]) -> dict[str, Any]:
    """Write `mitigated_answers.jsonl`, `mitigated_judged.jsonl` and `mitigation.json`."""
    cfg, ctx = state["config"], runtime.context
    spec = KINDS[cfg.kind]
    cases = rows_of(state["cases"].path)
    verdicts = {str(r["id"]): r for r in rows_of(ctx.out / VERDICTS)}
    text = template("mitigate_rag")
    patched = []
    for case in cases:
        facts = patch_facts(verdicts.get(str(case["id"])))
        if facts:
            patched.append(case | {"prompt": patched_prompt(text, str(case["prompt"]), facts), "patch_facts": facts})
    inputs = input_files([Path(state["cases"].path), ctx.out / VERDICTS, ctx.out / ANSWERS])
    out = ctx.out / PATCHED
    target = ctx.target(cfg)
    meta = node_provenance("benchmark.mitigate", state, ctx, inputs=inputs, resolved_role=target.described)
    cache = AnswerCache(ctx.answer_cache)
    try:
        with ctx.track(f"{target.name}: re-asking with facts", len(patched)) as done:
            stats = run_cases(
                patched, target.client, target.identity, target.name, cache, out, meta, cfg.concurrency,
                on_batch=counter(done),
            )  # fmt: skip
    finally:
        cache.close()
    if stats.failed:
        raise LoopError(
            f"{stats.failed} of {stats.cases} patched calls to {target.name} failed (first: {stats.errors[0]});"
            " re-run with --resume to ask only those again"
        )
    answers = rows_of(out)
    with ctx.track(f"scoring patched answers ({spec.scorer})", len(answers)) as done:
        judged, summary = ctx.score(spec.scorer, [spec.scorer_row(a, None) for a in answers], counter(done))
    write_jsonl(judged, ctx.out / PATCHED_JUDGED, node_provenance(f"score.{spec.scorer}", state, ctx, inputs, summary))
    result = mitigation(
        len(cases), rows_of(ctx.out / JUDGED), judged, [("oracle", spec.oracle), ("answer", spec.answer_oracle)]
    )
    path = ctx.out / MITIGATION
    atomic_write_text(path, json.dumps(result.model_dump(mode="json"), indent=1) + "\n")
    counts = {"patched": result.patched, "no_facts": result.no_facts, "cached": stats.cached, "called": stats.called}
    write_sidecar(path, node_provenance("benchmark.mitigate", state, ctx, inputs, counts))
    logging.getLogger(__name__).info("mitigate: %d cases re-asked -> %s", result.patched, path)
    return {"mitigation": Artefact(path=str(path), rows=result.patched, counts=counts), "finished": ["mitigate"]}


__all__ = ["MITIGATION", "PATCHED", "PATCHED_JUDGED", "mitigate"]
