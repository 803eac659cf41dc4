"""Truth Guardian: the `guardian` role (the trained adapter by default), no retrieval.

It reads FactCHD's detector prompt and answers with its label. Only the label is needed here, so it
generates a single token (one forward pass): "NON..." means NON-FACTUAL, "FACT..." FACTUAL; anything
else is an unparseable answer and is recorded as such (the verdict is then degraded), never guessed.
"""

from __future__ import annotations

from typing import Any

from agents.context import VerifierContext
from agents.nodes.base import node
from agents.state import VerifierState
from drowzee_core.errors import DrowzeeError
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Opinion, OpinionSource
from finetune.data import PROMPTS
from prompts import render

LABEL_TOKENS = 1


class GuardianAnswerError(DrowzeeError):
    """The Guardian's first token names no label."""


def label_of_token(token: str) -> Label:
    """The label a first token starts (`NON` -> NON-FACTUAL, `FACT` -> FACTUAL)."""
    t = token.strip().upper()
    if t.startswith("NON"):
        return Label.NON_FACTUAL
    if t.startswith("FACT"):
        return Label.FACTUAL
    raise GuardianAnswerError(f"the Guardian answered {token!r}, which starts no label")


@node("guardian", OpinionSource.GUARDIAN)
def guardian(state: VerifierState, ctx: VerifierContext) -> dict[str, Any]:
    """Ask the Guardian for its label in one forward pass."""
    if not ctx.settings.use_guardian:
        return {}
    prompt = render(PROMPTS["guardian"], query=state.get("query", ""), response=state["response"])
    model = ctx.services.chat("guardian", max_tokens=LABEL_TOKENS)
    reply = model.invoke(prompt)
    content = reply.content if isinstance(reply.content, str) else str(reply.content)
    label = label_of_token(content)
    name = ctx.services.role("guardian").model
    return {
        "opinions": [
            Opinion(
                source=OpinionSource.GUARDIAN, label=label, model=name, explanation=f"first token {content.strip()!r}"
            )
        ]
    }
