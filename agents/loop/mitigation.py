"""The retrieval patch's arithmetic (pure): which facts go into the prompt, and the before / after figures.

The patch re-asks the target with the facts the verifier used to decide: the leaves of its Prolog
proofs first (they decided a claim), then the evidence it retrieved or was given (KB, corpus,
supplied; web results are left out), at most `MAX_FACTS`, without repeats. A case whose verdict holds
no such fact is not re-asked. The figures compare the same cases before and after, under both
oracle labels (the kind's own and the answer-level one): rates with 95 % paired-bootstrap intervals,
their difference, and how many answers the patch fixed or broke.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np
from numpy.typing import NDArray
from pydantic import BaseModel, ConfigDict, Field

from agents.loop.metrics import figures
from drowzee_core.oracles.stats import Figure

MAX_FACTS = 8
"""Facts put into one patched prompt."""
PATCH_SOURCES = ("kb", "corpus", "supplied")
"""Evidence sources the patch takes (not the web: it is not ground the loop can vouch for)."""

Row = Mapping[str, Any]
Oracle = Callable[[Row], bool | None]


def patch_facts(record: Row | None, limit: int = MAX_FACTS) -> list[str]:
    """The facts of a verdict record for the patched prompt: proof leaves, then retrieved evidence."""
    verdict = (record or {}).get("verdict") or {}
    found: list[str] = []

    def leaves(node: Mapping[str, Any]) -> None:
        premises = node.get("premises") or []
        if not premises:
            found.append(str(node.get("text", "")))
        for p in premises:
            leaves(p)

    for proof in verdict.get("proofs") or []:
        leaves(proof)
    found += [str(e.get("text", "")) for e in verdict.get("evidence") or [] if e.get("source") in PATCH_SOURCES]
    unique = list(dict.fromkeys(f.strip() for f in found if f.strip()))
    return unique[:limit]


def patched_prompt(template: str, prompt: str, facts: Sequence[str]) -> str:
    """The case's prompt with the facts before it (`template` has `{facts}` and `{prompt}`)."""
    return template.format(facts="\n".join(f"- {f}" for f in facts), prompt=prompt)


class Change(BaseModel):
    """Before / after under one oracle label, on the cases that have it both times."""

    model_config = ConfigDict(frozen=True)

    label: str = Field(description="`oracle` (the kind's label) or `answer` (the answer-level label).")
    n: int = Field(description="Re-asked cases with the label before and after.")
    before: Figure | None = Field(description="Hallucination rate of the first answers.")
    after: Figure | None = Field(description="Hallucination rate of the patched answers.")
    difference: Figure | None = Field(description="after - before (negative: the patch helped).")
    fixed: int = Field(description="Hallucinated before, not after.")
    broken: int = Field(description="Not hallucinated before, hallucinated after.")


class Mitigation(BaseModel):
    """What the retrieval patch did."""

    model_config = ConfigDict(frozen=True)

    cases: int = Field(description="Answered cases.")
    patched: int = Field(description="Cases re-asked (their verdict held facts to give).")
    no_facts: int = Field(description="Cases not re-asked: the verifier found no fact to give.")
    changes: list[Change] = Field(description="Per oracle label.")


def _rates(before: NDArray[Any], after: NDArray[Any], axis: int = -1) -> NDArray[np.float64]:
    b, a = before.mean(axis), after.mean(axis)
    return np.stack([b, a, a - b])


def change(label: str, before: Sequence[Row], after: Mapping[str, Row], oracle: Oracle) -> Change:
    """Before / after figures of `oracle` over the cases of `before` that were re-asked (`after` by id)."""
    pairs: list[tuple[bool, bool]] = []
    for row in before:
        patched = after.get(str(row["id"]))
        first, second = oracle(row), (oracle(patched) if patched is not None else None)
        if first is not None and second is not None:
            pairs.append((first, second))
    if not pairs:
        return Change(label=label, n=0, before=None, after=None, difference=None, fixed=0, broken=0)
    b = np.array([int(x) for x, _ in pairs], dtype=np.float64)
    a = np.array([int(y) for _, y in pairs], dtype=np.float64)
    figs = figures([float(v) for v in _rates(b, a)], (b, a), _rates)
    return Change(
        label=label,
        n=len(pairs),
        before=figs[0],
        after=figs[1],
        difference=figs[2],
        fixed=int(((b == 1) & (a == 0)).sum()),
        broken=int(((b == 0) & (a == 1)).sum()),
    )


def mitigation(
    cases: int, before: Sequence[Row], after: Sequence[Row], oracles: Sequence[tuple[str, Oracle]]
) -> Mitigation:
    """The patch's figures: `before` = every judged first answer, `after` = the judged patched answers."""
    by_id = {str(r["id"]): r for r in after}
    return Mitigation(
        cases=cases,
        patched=len(by_id),
        no_facts=cases - len(by_id),
        changes=[change(name, before, by_id, oracle) for name, oracle in oracles],
    )


__all__ = [
    "MAX_FACTS",
    "PATCH_SOURCES",
    "Change",
    "Mitigation",
    "change",
    "mitigation",
    "patch_facts",
    "patched_prompt",
]
