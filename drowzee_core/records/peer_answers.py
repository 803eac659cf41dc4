"""Recorded answers: Drowzee's answered histories and our `drowzee run-llm` JSONL, as answered rows.

Drowzee's `drowzee_responses/<model>/history.json` is a JSON array of `DrowzeeAnsweredPeer` (the
question, its gold answer, the ground-truth `evidence` triples, the reasoning type and the model's
raw `llm_answer`); the model is named by the file's folder. Our runner's JSONL is the generated cases
with `llm_answer` and `model` added. Both read here as *answered rows*: dicts with an `id`, the case's
fields, `llm_answer` and `model`, which the scorers, the verifier and the closed loop all read.
"""

from __future__ import annotations

import json
import logging
import random
from pathlib import Path
from typing import Any

from drowzee_core.records.answered import DrowzeeAnsweredPeer
from drowzee_core.records.readers import RecordError, read_dicts, validate_row

log = logging.getLogger(__name__)

ANSWER_FIELDS: tuple[str, ...] = ("llm_answer", "model", "prompt_tokens", "completion_tokens")
"""Fields the runner adds to a case; the rest of an answered row is the case itself."""


def sample(n_rows: int, limit: int | None, seed: int = 0) -> list[int]:
    """Row indexes to keep: all, or a seeded random sample of `limit` of them in file order.

    Drowzee's files are ordered by reasoning type, so their first rows are not representative.
    """
    if limit is None or limit >= n_rows:
        return list(range(n_rows))
    return sorted(random.Random(seed).sample(range(n_rows), limit))


def is_drowzee_history(path: Path) -> bool:
    """Whether `path` is a JSON array of Drowzee answered questions (checked on its first item)."""
    if path.suffix.lower() != ".json":
        return False
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, json.JSONDecodeError):
        return False
    return isinstance(data, list) and bool(data) and isinstance(data[0], dict) and "llm_answer" in data[0]


def drowzee_history(
    path: Path, limit: int | None = None, seed: int = 0, model: str | None = None
) -> list[dict[str, Any]]:
    """Answered rows of one Drowzee `history.json` (all, or a seeded sample of `limit`).

    Each row: `id` (`<model>:<index>`), `question`, `answer` (`Yes.` / `No.`), `evidence` triples,
    `reasoning` (the type, e.g. `Transitive Inference`), `domain` (the category), `llm_answer`, `model`,
    and `qid`. A row's evidence is its own file's: a row that lost its triples has none (the verifier
    then has only its KB and corpus), never another model's.
    """
    try:
        rows = json.loads(path.read_text("utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise RecordError(f"{path}: not a readable JSON array ({exc})") from exc
    if not isinstance(rows, list):
        raise RecordError(f"{path}: expected a JSON array of answered questions")
    name = model or path.parent.name
    out = []
    for i in sample(len(rows), limit, seed):
        peer = validate_row(DrowzeeAnsweredPeer, rows[i], f"{path.name}: item {i}")
        out.append(
            {
                "id": f"{name}:{i}",
                "qid": peer.qid,
                "question": peer.question,
                "answer": peer.answer,
                "evidence": [list(t) for t in peer.evidence],
                "reasoning": peer.reasoning,
                "domain": peer.category,
                "entities": peer.entity,
                "llm_answer": peer.llm_answer,
                "model": name,
            }
        )
    return out


def runner_answers(path: Path, limit: int | None = None, seed: int = 0) -> list[dict[str, Any]]:
    """Answered rows of our runner's JSONL (`drowzee run-llm`): every row needs `id` and `llm_answer`."""
    rows = read_dicts(path)
    for i, row in enumerate(rows, 1):
        if not row.get("id") or not isinstance(row.get("llm_answer"), str):
            raise RecordError(f"{path.name}:{i}: an answered row needs `id` and `llm_answer` (from `drowzee run-llm`)")
        row.setdefault("model", "recorded")
    return [rows[i] for i in sample(len(rows), limit, seed)]


def read_answers(path: Path, limit: int | None = None, seed: int = 0) -> list[dict[str, Any]]:
    """Answered rows of a recorded-answers file, Drowzee's `history.json` or our runner's JSONL."""
    if is_drowzee_history(path):
        return drowzee_history(path, limit, seed)
    return runner_answers(path, limit, seed)


def case_of(row: dict[str, Any]) -> dict[str, Any]:
    """The case an answered row answers (the row without the runner's fields)."""
    return {k: v for k, v in row.items() if k not in ANSWER_FIELDS}


__all__ = [
    "ANSWER_FIELDS",
    "case_of",
    "drowzee_history",
    "is_drowzee_history",
    "read_answers",
    "runner_answers",
    "sample",
]
