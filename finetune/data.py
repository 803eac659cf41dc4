"""Instruction data for the Truth Guardian (and the Seeker and Verdict Manager) from FactCHD-style pairs.

Pure: records in, records out. A pair is a generated (or FactCHD) record with `id`, `label`
(FACTUAL / NON-FACTUAL), `query`, `response`, `evidence` and `reason` (the gold explanation, starting
with its label). Three modes:

- `guardian`: query + response -> label + explanation (FactCHD's fallacy-finder prompt, no retrieval);
- `judge`: query + response + evidence -> label + explanation (the Seeker judging with evidence);
- `arbitration`: query + response + two opinions + evidence -> verdict (the Fact Verdict Manager).
  Opinions are the gold explanation and a contrary one built from the pair; the pairings are seeded:
  disagreeing opinions in either order, both right, or both wrong (the evidence must overrule them).

Every example carries `prompt` (the user message), `completion` (the gold text), and the pair's
`label`, `pattern`, `reason` and `id`, so the same file feeds training, the runner and the scorer.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from drowzee_core.errors import DrowzeeError
from prompts import MODE_PROMPTS, render

MODES = ("guardian", "judge", "arbitration")
LABELS = ("FACTUAL", "NON-FACTUAL")
MAX_FIELD_CHARS = 4000
FEW_SHOT_PROMPT = "factchd_fallacy_finder_few_shot"


def check_pair(pair: dict[str, Any], where: str) -> None:
    """A usable pair: the fields present, a known label, texts of bounded size."""
    for key in ("id", "label", "query", "response", "reason"):
        if key not in pair or pair[key] in (None, ""):
            raise DrowzeeError(f"{where}: missing `{key}`; pairs come from `drowzee generate factchd`")
    if pair["label"] not in LABELS:
        raise DrowzeeError(f"{where}: label must be FACTUAL or NON-FACTUAL, got {pair['label']!r}")
    for key in ("query", "response", "reason"):
        if len(str(pair[key])) > MAX_FIELD_CHARS:
            raise DrowzeeError(f"{where}: `{key}` is longer than {MAX_FIELD_CHARS} characters")


def pattern_of(pair: dict[str, Any]) -> str:
    """The FactCHD pattern: ours in `pattern`, FactCHD's in `subgraph_type` (text pairs: `text`)."""
    return str(pair.get("pattern") or pair.get("subgraph_type") or pair.get("type") or "unknown")


def format_evidence(evidence: Any) -> str:
    """Evidence as prompt lines: one `subject | relation | object` per triple, or the text itself."""
    if isinstance(evidence, str):
        return evidence.strip()[:MAX_FIELD_CHARS] or "(none)"
    lines = []
    for item in evidence or []:
        if isinstance(item, list | tuple):
            lines.append(" | ".join(str(x) for x in item))
        else:
            lines.append(str(item))
    return "\n".join(lines)[:MAX_FIELD_CHARS] or "(none)"


def contrary_opinion(pair: dict[str, Any]) -> str:
    """An opinion with the wrong label for `pair`, phrased like a FactCHD explanation."""
    claim = str(pair["response"]).strip().rstrip(".")
    if pair["label"] == "FACTUAL":
        return (
            f"NON-FACTUAL.\nThe answer that {claim} is incorrect. It is not supported by what is known."
            " Therefore, the answer contains an incorrect conclusion."
        )
    return (
        f"FACTUAL.\nThe answer that {claim} is correct. It agrees with what is known."
        " Therefore, there are no fallacies, faulty reasoning, or incorrect conclusions."
    )


def _rng(seed: int, pair_id: str) -> random.Random:
    digest = hashlib.sha256(f"{seed}\x00{pair_id}".encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def build_example(pair: dict[str, Any], mode: str, seed: int = 0) -> dict[str, Any]:
    """One instruction example of `mode` from one pair."""
    if mode not in MODES:
        raise DrowzeeError(f"unknown mode {mode!r}; modes are {list(MODES)}")
    values = {"query": str(pair["query"]), "response": str(pair["response"])}
    if mode in ("judge", "arbitration"):
        values["evidence"] = format_evidence(pair.get("evidence"))
    extra: dict[str, Any] = {}
    if mode == "arbitration":
        rng = _rng(seed, str(pair["id"]))
        gold, wrong = str(pair["reason"]), contrary_opinion(pair)
        draw = rng.random()
        kind = "disagree" if draw < 0.6 else "both_right" if draw < 0.85 else "both_wrong"
        a, b = {"disagree": (gold, wrong), "both_right": (gold, gold), "both_wrong": (wrong, wrong)}[kind]
        if kind == "disagree" and rng.random() < 0.5:
            a, b = b, a
        values |= {"opinion_a": a, "opinion_b": b}
        extra["opinions"] = kind
    return {
        "id": f"{pair['id']}:{mode}",
        "pair_id": pair["id"],
        "mode": mode,
        "label": pair["label"],
        "pattern": pattern_of(pair),
        "reason": pair["reason"],
        "prompt": render(MODE_PROMPTS[mode], **values),
        "completion": str(pair["reason"]).strip(),
    } | extra


def build_examples(
    pairs: Iterable[dict[str, Any]], modes: Sequence[str] = ("guardian",), seed: int = 0
) -> list[dict[str, Any]]:
    """Examples of every mode for every pair, checked; in input order, mode by mode within a pair."""
    out = []
    for i, pair in enumerate(pairs, 1):
        check_pair(pair, f"pair {i}")
        out += [build_example(pair, mode, seed) for mode in modes]
    if not out:
        raise DrowzeeError("no pairs: the data file is empty")
    return out


def few_shot_prompt(pair: dict[str, Any], shots: Sequence[dict[str, Any]]) -> str:
    """FactCHD's fallacy-finder prompt with worked examples before the pair."""
    examples = "\n\n".join(
        render(
            "factchd_fallacy_finder_example",
            query=str(s["query"]),
            response=str(s["response"]),
            reason=str(s["reason"]).strip(),
        )
        for s in shots
    )
    return render(FEW_SHOT_PROMPT, examples=examples, query=str(pair["query"]), response=str(pair["response"]))


def pick_shots(pool: Sequence[dict[str, Any]], k: int, seed: int = 0) -> list[dict[str, Any]]:
    """`k` examples from `pool`, alternating labels and spread over patterns, seeded."""
    if k <= 0:
        return []
    rng = random.Random(seed)
    by_label = {lab: [p for p in pool if p.get("label") == lab] for lab in LABELS}
    for group in by_label.values():
        rng.shuffle(group)
        group.sort(key=lambda p: pattern_of(p))  # stable: one per pattern first after the shuffle
    if any(len(g) < (k + 1) // 2 for g in by_label.values()):
        raise DrowzeeError(f"the few-shot pool needs at least {(k + 1) // 2} pairs of each label")
    shots: list[dict[str, Any]] = []
    used: Counter[str] = Counter()
    for i in range(k):
        group = by_label[LABELS[(i + 1) % 2]]  # NON-FACTUAL first
        choice = min(group, key=lambda p: (used[pattern_of(p)], group.index(p)))
        group.remove(choice)
        used[pattern_of(choice)] += 1
        shots.append(choice)
    return shots


def fingerprint(records: Iterable[dict[str, Any]]) -> str:
    """sha256 of the records' canonical JSON, in order: names the exact training data."""
    h = hashlib.sha256()
    for r in records:
        h.update(json.dumps(r, sort_keys=True, ensure_ascii=False).encode())
        h.update(b"\n")
    return h.hexdigest()
