"""Evaluate a Guardian (a trained adapter, or a base model zero- / few-shot) on FactCHD-style pairs.

The prompts go through the runner (`drowzee_core.llm.runner`: cache, concurrency, retries) to any
OpenAI-compatible endpoint, and the answers are scored with FactCHD's metrics per pattern and overall
(`drowzee_core.oracles.score.score_factchd_rows`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel

from drowzee_core.llm.runner import AnswerCache, RunStats, run_cases
from drowzee_core.oracles.inputs import read_rows
from drowzee_core.oracles.score import score_factchd_rows
from drowzee_core.records.jsonl import write_jsonl
from drowzee_core.records.provenance import Provenance
from finetune.data import build_example, check_pair, few_shot_prompt, pattern_of

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
    model_id: str,
    model_name: str,
    cache: AnswerCache,
    out: Path,
    meta: Provenance,
    concurrency: int = 1,
    on_batch: Callable[[int], None] | None = None,
) -> tuple[dict[str, Any], RunStats]:
    """Answer the cases, score them; `out` gets one judged row per case. Returns (summary, run stats)."""
    stats = run_cases(cases, model, model_id, model_name, cache, out, meta, concurrency=concurrency, on_batch=on_batch)
    answered = read_rows(out)
    judged, summary = score_factchd_rows(answered, group="pattern")
    write_jsonl(judged, out, meta.model_copy(update={"counts": summary}))
    return summary, stats
