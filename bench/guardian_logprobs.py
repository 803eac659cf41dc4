"""Old one-token reading vs label-token scoring of the Guardian (real local server), with balanced accuracy.

Run: .venv/bin/python bench/guardian_logprobs.py dev.jsonl --n 60 --out guardian.json
     .venv/bin/python bench/guardian_logprobs.py --drowzee-responses --out guardian_drowzee.json
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from agents.verifier.nodes.guardian import LABEL_TOKENS, TOP_LOGPROBS, GuardianAnswerError, label_of_token, read_answer
from drowzee_core.llm.launch import ensure_local_server, free_port, stop_server
from drowzee_core.llm.logprobs import first_token_top
from drowzee_core.llm.roles import chat_model, load_role
from drowzee_core.oracles.stats import bootstrap_bounds
from drowzee_core.records import Label, QRPair, read_records
from prompts import MODE_PROMPTS, render

log = logging.getLogger("guardian_measure")
CODE = {Label.NON_FACTUAL: 1, Label.FACTUAL: 0}


def balanced_accuracy(pred: NDArray[Any], gold: NDArray[Any], axis: int = -1) -> NDArray[np.float64]:
    """Mean per-class recall (vectorized); a pair without a label (-1) is a miss in its gold class."""
    pos = np.sum((pred == 1) & (gold == 1), axis=axis) / np.sum(gold == 1, axis=axis)
    neg = np.sum((pred == 0) & (gold == 0), axis=axis) / np.sum(gold == 0, axis=axis)
    return np.asarray((pos + neg) / 2)


def main() -> None:
    """Parse options, score every pair both ways, write the rows and print the summary."""
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs", type=Path, nargs="?")
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument(
        "--drowzee-responses",
        action="store_true",
        help="bench/verifier.py's 300 Drowzee answers (100 per model, seed 0) instead of PAIRS; one scored call"
        " per pair, the old reading taken from its generated token (greedy: the same token as without logprobs)",
    )
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO)
    if args.drowzee_responses:
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from bench.verifier import drowzee_pairs

        keys = ("id", "label", "query", "response")
        pairs = [QRPair.model_validate({k: d[k] for k in keys}) for d in drowzee_pairs(100, 0)]
    else:
        pairs = list(read_records(args.pairs, QRPair))[: args.n]
    port = free_port()
    proc = ensure_local_server(port=port)
    role = load_role("guardian", {"base_url": f"http://127.0.0.1:{port}/v1", "max_tokens": LABEL_TOKENS})
    plain = chat_model(role)
    scored = plain.bind(logprobs=True, top_logprobs=TOP_LOGPROBS)
    rows = []
    started = time.perf_counter()
    try:
        for i, pair in enumerate(pairs):
            prompt = render(MODE_PROMPTS["guardian"], query=pair.query, response=pair.response)
            reply = scored.invoke(prompt)
            old_token = str(reply.content) if args.drowzee_responses else str(plain.invoke(prompt).content)
            row: dict[str, Any] = {"id": pair.id, "gold": str(pair.label), "old_token": old_token}
            row["token"] = str(reply.content)
            try:
                row["old"] = str(label_of_token(old_token))
            except GuardianAnswerError:
                row["old"] = None
            top = first_token_top(reply.response_metadata)
            row["top"] = top
            try:
                label, conf, expl = read_answer(str(reply.content), top)
                row.update(new=str(label), confidence=conf, explanation=expl)
            except GuardianAnswerError as exc:
                row.update(new=None, confidence=None, explanation=str(exc))
            rows.append(row)
            log.info(
                "%d/%d %s old=%s new=%s %s", i + 1, len(pairs), pair.label, row["old"], row["new"], row["explanation"]
            )
    finally:
        if proc is not None:
            stop_server(proc)
    seconds = time.perf_counter() - started
    gold = np.array([CODE[Label(r["gold"])] for r in rows])
    summary: dict[str, Any] = {"pairs": len(rows), "gold_non_factual": int(gold.sum()), "seconds": round(seconds, 1)}
    for key in ("old", "new"):
        pred = np.array([CODE[Label(r[key])] if r[key] else -1 for r in rows])
        point = float(balanced_accuracy(pred, gold))
        low, high = bootstrap_bounds((pred, gold), balanced_accuracy)
        summary[key] = {
            "failures": int(np.sum(pred == -1)),
            "balanced_accuracy": round(point, 3),
            "ci95": [round(float(low[0]), 3), round(float(high[0]), 3)],
            "predicted_non_factual": int(np.sum(pred == 1)),
        }
    summary["same_token_with_and_without_logprobs"] = sum(r["old_token"] == r["token"] for r in rows)
    summary["constant_baseline_balanced_accuracy"] = 0.5
    confs = [r["confidence"] for r in rows if r["confidence"] is not None]
    summary["confidence"] = {"min": min(confs), "median": float(np.median(confs)), "max": max(confs)}
    args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=1), "utf-8")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
