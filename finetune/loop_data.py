"""Guardian and judge training data from a closed-loop run (`drowzee train guardian|judge --add-from LOOP_DIR`).

A loop run knows, from Prolog's ground truth, which of the target's answers were wrong. Those
confirmed hallucinations become NON-FACTUAL pairs (query = the question, response = the model's own
answer), and as many of the run's right answers (seeded sample) become FACTUAL pairs, so the added
data does not tilt the label balance. The label is the answer-level one when the run has it (the
Yes / No alone: a right answer with reasoning the graph oracle did not match is not called a
hallucination here), else the oracle's. The reason is FactCHD-shaped and built from the case's
ground-truth facts, never from the verifier's explanation (which may be wrong).
"""

from __future__ import annotations

import hashlib
import json
import random
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.judge import JudgeExample, Support

ROWS, CASES = "rows.jsonl", "cases.jsonl"
MAX_FACTS = 6
"""Ground-truth facts quoted in one reason."""


class LoopData(BaseModel):
    """What one loop run added to the training data (recorded in the adapter's manifest)."""

    model_config = ConfigDict(frozen=True)

    run: str = Field(description="The loop run folder.")
    rows_sha256: str = Field(description="sha256 of its rows.jsonl.")
    hallucinations: int = Field(description="NON-FACTUAL pairs added (confirmed hallucinations).")
    correct: int = Field(description="FACTUAL pairs added (a seeded sample of right answers, as many).")
    label: str = Field(description="`answer` (answer-level label) or `oracle` (the kind's own label).")


def data_files(data: Path) -> list[Path]:
    """The files an evaluation of `data` reads: the JSONL file, or a run folder's rows and cases."""
    return [data / ROWS, data / CASES] if data.is_dir() else [data]


def _read(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise DrowzeeError(f"{path} is missing: --add-from takes a finished `drowzee benchmark` run folder")
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _fact_text(fact: Any) -> str:
    if isinstance(fact, list | tuple) and len(fact) == 3:
        s, r, o = (str(x) for x in fact)
        return f"{s} {r.replace('_', ' ')} {o}."
    text = str(fact).strip()
    return text if text.endswith(".") else text + "."


def reason_for(label: str, row: dict[str, Any], facts: list[Any]) -> str:
    """A FactCHD-shaped reason: the label, what the ground truth says, the conclusion."""
    said = " ".join(_fact_text(f) for f in facts[:MAX_FACTS]) or "The knowledge base decides this question."
    gold = str(row.get("gold") or "").strip()
    if label == "NON-FACTUAL":
        end = f"So the answer is wrong: the correct answer is {gold}." if gold else "So the answer is wrong."
    else:
        end = f"So the answer ({gold}) is right." if gold else "So the answer is right."
    return f"{label}. According to the facts, {said} {end}"


def loop_pairs(run: Path, seed: int = 0) -> tuple[list[dict[str, Any]], LoopData]:
    """The run's training pairs and the record of what was taken."""
    rows = _read(run / ROWS)
    cases = {str(c["id"]): c for c in _read(run / CASES)}
    use_answer = any(r.get("answer_wrong") is not None for r in rows)
    key = "answer_wrong" if use_answer else "hallucinated"
    usable = [r for r in rows if r.get(key) is not None and str(r.get("llm_answer") or "").strip()]
    wrong = [r for r in usable if r[key]]
    right = [r for r in usable if not r[key]]
    right = random.Random(seed).sample(right, min(len(wrong), len(right)))
    pairs = []
    for label, group in (("NON-FACTUAL", wrong), ("FACTUAL", right)):
        for r in group:
            case = cases.get(str(r["id"]), {})
            facts = list(case.get("facts") or case.get("evidence") or [])
            pairs.append(
                {
                    "id": f"loop:{run.name}:{r['id']}",
                    "label": label,
                    "query": str(r.get("question") or case.get("question") or ""),
                    "response": str(r["llm_answer"]),
                    "evidence": facts,
                    "reason": reason_for(label, r, facts),
                    "pattern": f"loop:{r.get('rule') or 'unknown'}",
                }
            )
    record = LoopData(
        run=str(run),
        rows_sha256=hashlib.sha256((run / ROWS).read_bytes()).hexdigest(),
        hallucinations=len(wrong),
        correct=len(right),
        label="answer" if use_answer else "oracle",
    )
    if not wrong:
        raise DrowzeeError(f"{run} holds no confirmed hallucination to learn from ({len(usable)} labelled answers)")
    return pairs, record


def loop_judge_examples(run: Path, seed: int = 0) -> tuple[list[JudgeExample], LoopData]:
    """The run's pairs as grounded-judge examples: the model's answer against the case's ground-truth facts.

    A confirmed hallucination is NOT_SUPPORTED by its facts, a right answer SUPPORTED (the same
    balanced selection as `loop_pairs`); a case without facts gives no example. Facts are written as
    short sentences "s r o." (underscores read as spaces), much as the verifier writes supplied triples.
    """
    pairs, record = loop_pairs(run, seed)
    examples = [
        JudgeExample(
            id=p["id"],
            query=p["query"],
            response=p["response"],
            evidence=[_fact_text(f) for f in p["evidence"]],
            label=Support.NOT_SUPPORTED if p["label"] == "NON-FACTUAL" else Support.SUPPORTED,
            source=f"loop:{run.name}",
            recipe=p["pattern"],
        )
        for p in pairs
        if p["evidence"]
    ]
    if not examples:
        raise DrowzeeError(f"{run}: no labelled answer of this run has ground-truth facts to judge it against")
    return examples, record


__all__ = ["LoopData", "data_files", "loop_judge_examples", "loop_pairs", "reason_for"]
