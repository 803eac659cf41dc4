"""Evaluate a Guardian (a trained adapter, or a base model zero- / few-shot) on FactCHD-style pairs.

The prompts go through the runner (`drowzee_core.llm.runner`: cache keyed by the adapter's weights and
every generation parameter, retries) to any OpenAI-compatible endpoint; an adapter folder is served on
a private local server for the run. The answers are scored with FactCHD's metrics per pattern and
overall (`score_factchd_rows`), and the overall figures get 95 % bootstrap intervals beside the
constant baselines (`drowzee_core.oracles.stats`). The judged rows get a provenance sidecar; with
`update_manifest` the adapter's manifest records the figures under the data file's name, sha256 and slice.
"""

from __future__ import annotations

import hashlib
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from pydantic import BaseModel, Field

from drowzee_core.config import home
from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.runner import AnswerCache, CacheIdentity, RunStats, run_cases
from drowzee_core.oracles.inputs import read_rows
from drowzee_core.oracles.score import score_factchd_rows
from drowzee_core.oracles.stats import Figures, evaluate_rows
from drowzee_core.records.jsonl import write_jsonl
from drowzee_core.records.provenance import Provenance, provenance, write_sidecar
from finetune.data import MODES, build_example, check_pair, few_shot_prompt, pattern_of, pick_shots
from finetune.loop_data import data_files
from finetune.manifest import file_sha256, metrics_key, record_metrics

# A base model given the alpaca-style prompt tends to write the next "### Instruction" or "#Question#".
STOP = ["\n### ", "\n#Question#"]


def eval_cases(
    pairs: Sequence[dict[str, Any]], mode: str = "guardian", shots: Sequence[dict[str, Any]] = ()
) -> list[dict[str, Any]]:
    """One runner case per pair: the pair's fields plus `prompt` (zero-shot, few-shot or trained format)."""
    cases = []
    for i, pair in enumerate(pairs, 1):
        check_pair(pair, f"pair {i}")
        prompt = few_shot_prompt(pair, shots) if shots else build_example(pair, mode)["prompt"]
        cases.append(pair | {"prompt": prompt, "pattern": pattern_of(pair)})
    return cases


def evaluate(
    cases: Sequence[dict[str, Any]],
    model: BaseChatModel,
    identity: CacheIdentity,
    model_name: str,
    cache: AnswerCache,
    out: Path,
    meta: Provenance,
    concurrency: int = 1,
    on_batch: Callable[[int], None] | None = None,
) -> tuple[dict[str, Any], RunStats]:
    """Answer the cases, score them; `out` gets one judged row per case. Returns (summary, run stats)."""
    stats = run_cases(cases, model, identity, model_name, cache, out, meta, concurrency=concurrency, on_batch=on_batch)
    answered = read_rows(out)
    judged, summary = score_factchd_rows(answered, group="pattern")
    write_jsonl(judged, out, meta)
    return summary.model_dump(), stats


@dataclass(frozen=True)
class EvalRequest:
    """What `drowzee eval guardian` was asked to do."""

    data: Path
    out: Path
    adapter: Path | None = None
    base: str | None = None
    shots: int = 0
    shots_from: Path | None = None
    mode: str = "guardian"
    max_tokens: int = 160
    limit: int | None = None
    update_manifest: bool = False

    def check(self) -> None:
        """Reject contradictory options with what to fix."""
        if self.adapter and self.base:
            raise DrowzeeError("give --adapter (a trained Guardian) or --base (a baseline), not both")
        if self.mode not in MODES[:2]:
            raise DrowzeeError(f"--mode must be guardian or judge, got {self.mode!r}")
        if self.shots and not self.shots_from:
            raise DrowzeeError("--shots needs --shots-from FILE (training pairs, never the test pairs)")
        if self.update_manifest and not self.adapter:
            raise DrowzeeError("--update-manifest records figures in an adapter's manifest; give --adapter DIR")


class EvalReport(BaseModel):
    """The outcome of one Guardian evaluation."""

    model: str = Field(description="Served model name.")
    adapter: str | None = Field(description="Adapter folder, when one was evaluated.")
    shots: int = Field(description="Few-shot examples in each prompt.")
    mode: str = Field(description="Prompt format.")
    max_tokens: int = Field(description="Completion token limit.")
    data: dict[str, Any] = Field(description="Data file: path, sha256, pairs evaluated, limit.")
    pairs: int = Field(description="Pairs evaluated.")
    metrics: dict[str, Any] = Field(description="FactCHD scoring per pattern and `all`.")
    figures: Figures = Field(description="Overall figures with 95 % intervals.")
    baselines: list[Figures] = Field(description="Constant baselines on the same pairs, with intervals.")
    failed: int = Field(description="Calls that failed (asked again on the next run).")
    prompt_tokens: int
    completion_tokens: int
    seconds: float
    out: str = Field(description="Judged rows (JSONL).")


def read_pairs(data: Path, limit: int | None) -> list[dict[str, Any]]:
    """The first `limit` pairs of a JSONL file (all without a limit); an empty file is an error.

    A `drowzee benchmark` run folder reads as its loop pairs (`finetune.loop_data.loop_pairs`: its
    confirmed hallucinations and as many right answers, labelled as the Guardian trains on them).
    """
    if data.is_dir():
        from finetune.loop_data import loop_pairs

        rows = loop_pairs(data)[0][:limit]
    else:
        rows = read_rows(data)[:limit]
    if not rows:
        raise DrowzeeError(f"{data} has no pairs")
    return rows


def data_sha256(data: Path) -> str:
    """sha256 of the data: the file's, or for a run folder, of its rows' and cases' hashes joined."""
    hashes = [file_sha256(f) for f in data_files(data)]
    return hashes[0] if len(hashes) == 1 else hashlib.sha256(" ".join(hashes).encode()).hexdigest()


def run_guardian_eval(req: EvalRequest, on_batch: Callable[[int], None] | None = None) -> EvalReport:
    """Evaluate one Guardian; write judged rows + sidecar; optionally record the figures in the adapter."""
    from drowzee_core.llm.launch import ensure_local_server, free_port, stop_server
    from drowzee_core.llm.local import read_adapter
    from drowzee_core.llm.roles import chat_model, load_role
    from drowzee_core.llm.runner import role_identity

    req.check()
    pairs = read_pairs(req.data, req.limit)
    pool = pick_shots(read_pairs(req.shots_from, None), req.shots) if req.shots and req.shots_from else []
    cases = eval_cases(pairs, req.mode, pool)
    overrides: dict[str, Any] = {"max_tokens": req.max_tokens, "model": req.base}
    proc: subprocess.Popen[bytes] | None = None
    try:
        if req.adapter:
            port = free_port()
            proc = ensure_local_server(port=port, adapters=[req.adapter])
            overrides |= {"base_url": f"http://127.0.0.1:{port}/v1", "model": read_adapter(req.adapter).name}
        cfg = load_role("guardian", overrides)
        client = chat_model(cfg, stop=STOP)
        identity = role_identity(cfg, client, adapter=req.adapter)
        cache = AnswerCache(home() / "cache" / "answers.sqlite")
        try:
            started = provenance("eval.guardian", {"model": cfg.model, "mode": req.mode, "shots": req.shots})
            summary, stats = evaluate(cases, client, identity, cfg.model, cache, req.out, started, on_batch=on_batch)
        finally:
            cache.close()
    finally:
        if proc is not None:
            stop_server(proc)
    judged = read_rows(req.out)
    figs, base = evaluate_rows(cfg.model + (f" {req.shots}-shot" if req.shots else ""), judged)
    data_sha = data_sha256(req.data)
    data = {"path": str(req.data), "sha256": data_sha, "pairs": len(cases), "limit": req.limit}
    report = EvalReport(
        model=cfg.model,
        adapter=str(req.adapter) if req.adapter else None,
        shots=req.shots,
        mode=req.mode,
        max_tokens=req.max_tokens,
        data=data,
        pairs=len(cases),
        metrics=summary,
        figures=figs,
        baselines=base,
        failed=stats.failed,
        prompt_tokens=stats.prompt_tokens,
        completion_tokens=stats.completion_tokens,
        seconds=round(stats.seconds, 1),
        out=str(req.out),
    )
    params = {
        "model": cfg.model,
        "mode": req.mode,
        "shots": req.shots,
        "max_tokens": req.max_tokens,
        "limit": req.limit,
    }
    params |= {"cache_identity": identity.model_dump(mode="json"), "stop": STOP}
    inputs = {str(f): file_sha256(f) for f in data_files(req.data)} | (
        {str(req.shots_from): file_sha256(req.shots_from)} if pool and req.shots_from else {}
    )
    counts = {"rows": len(judged), "failed": stats.failed, "unlabelled": figs.unlabelled}
    write_sidecar(req.out, provenance("eval.guardian", params, inputs=inputs, counts=counts))
    if req.update_manifest and req.adapter:
        if stats.failed:
            raise DrowzeeError(
                f"{stats.failed} calls failed, so the manifest was not updated; run again (answers so far are cached)"
            )
        entry = {
            "data": data,
            "mode": req.mode,
            "shots": req.shots,
            "max_tokens": req.max_tokens,
            "stop": STOP,
            "metrics": summary,
            "figures": figs.model_dump(mode="json"),
            "baselines": [b.model_dump(mode="json") for b in base],
        }
        record_metrics(req.adapter, metrics_key(req.data.name, data_sha, req.limit, req.shots), entry)
    return report
