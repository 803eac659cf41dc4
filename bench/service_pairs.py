"""The load benchmark's pairs: Drowzee's recorded answers (or a file) as distinct `/api/verify` bodies."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any


def recorded_pairs(evidence: bool) -> tuple[list[dict[str, Any]], list[Path]]:
    """Every recorded answer to Drowzee's questions as a request, and the files read."""
    from verifier import PEERS, drowzee_pairs  # bench/verifier.py: reads them with `peer_answers`

    rows = drowzee_pairs(None)
    files = sorted((PEERS / "drowzee_responses").glob("*/history.json"))
    return [request_of(r, evidence) for r in rows], files


def file_pairs(path: Path, evidence: bool) -> list[dict[str, Any]]:
    """Requests from a recorded-answers file (Drowzee history or `drowzee run-llm` JSONL) or a pairs JSONL."""
    from drowzee_core.records.peer_answers import is_drowzee_history, read_answers

    if is_drowzee_history(path):
        rows = read_answers(path)
    else:
        rows = [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()]
    out = []
    for i, row in enumerate(rows):
        if "llm_answer" in row:  # an answered row: the question and the model's answer
            q, a = row.get("question", ""), row["llm_answer"]
            row = {"id": row.get("id"), "query": q, "response": a, "evidence": row.get("evidence")}
        if not isinstance(row.get("response"), str) or not row["response"].strip():
            raise SystemExit(f"{path}: row {i + 1} has no `response` (or `llm_answer`)")
        out.append(request_of(row | {"id": str(row.get("id") or i)}, evidence))
    return out


def request_of(row: dict[str, Any], evidence: bool) -> dict[str, Any]:
    """The `/api/verify` body of a pair: id, query, response and (optionally) its evidence."""
    body = {"id": str(row["id"]), "query": str(row.get("query") or ""), "response": row["response"].strip()}
    if evidence and row.get("evidence"):
        body["evidence"] = row["evidence"]
    return body


def distinct(pairs: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """The pairs without repeated content (same query, response and evidence: a cache hit), shuffled."""
    seen: set[str] = set()
    out = []
    for p in pairs:
        key = json.dumps([p["query"], p["response"], p.get("evidence")], sort_keys=True)
        if key not in seen:
            seen.add(key)
            out.append(p)
    random.Random(seed).shuffle(out)
    return out


__all__ = ["distinct", "file_pairs", "recorded_pairs", "request_of"]
