"""Truth Guardian: the `guardian` role (the trained adapter by default), no retrieval.

It reads FactCHD's detector prompt and is asked for one token (one forward pass) with its top 20
alternatives and their logprobs (`logprobs=True, top_logprobs=20`). The label is scored from that
next-token distribution, not from the one token generated: P(FACTUAL) and P(NON-FACTUAL) are the
probability mass of the top tokens that begin each label word, renormalised over the two, and the
opinion's label is the more probable one (a tie goes to NON-FACTUAL), its confidence that probability.

A token begins a label when, stripped of whitespace and compared case-insensitively, it is a non-empty
prefix of that label's word and not of the other (`drowzee_core.llm.logprobs.prefix_labeller`): "F",
"FACT", "factual" vote FACTUAL; "N", "NO", "NON", "NON-" vote NON-FACTUAL; "The", "Answer", "NOT",
"NONSENSE" and whitespace-only tokens vote for neither and are ignored. So a top token "The" with
"FACT" and "NON" just below it still gives a label. Only when no top token begins either label is the
answer unparseable (`GuardianAnswerError`, recorded and the verdict degraded), never guessed.

An endpoint that returns no logprobs at all is read the old way, from the generated token ("NON..."
NON-FACTUAL, "FACT..." FACTUAL, anything else an error); the opinion then has no confidence and its
explanation says that the label came from the generated token.
"""

from __future__ import annotations

from typing import Any

from agents.verifier.context import VerifierContext
from agents.verifier.nodes.base import node
from agents.verifier.state import VerifierState
from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.logprobs import first_token_top, label_mass, prefix_labeller
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Opinion, OpinionSource
from prompts import MODE_PROMPTS, render

LABEL_TOKENS = 1
TOP_LOGPROBS = 20
"""Alternatives asked for per token (OpenAI's maximum)."""

label_of_prefix = prefix_labeller({label: label.value for label in Label})
"""The label a token begins ("F", "FACT" -> FACTUAL; "N", "NON" -> NON-FACTUAL), or None."""


class GuardianAnswerError(DrowzeeError):
    """The Guardian's answer names no label."""


def label_of_token(token: str) -> Label:
    """The label a generated token starts (`NON` -> NON-FACTUAL, `FACT` -> FACTUAL): the no-logprobs reading."""
    t = token.strip().upper()
    if t.startswith("NON"):
        return Label.NON_FACTUAL
    if t.startswith("FACT"):
        return Label.FACTUAL
    raise GuardianAnswerError(f"the Guardian answered {token!r}, which starts no label")


def score_labels(top: list[tuple[str, float]]) -> tuple[Label, float, float]:
    """The label from the first token's top alternatives.

    Args:
        top: (token, logprob) alternatives of the first generated token.

    Returns:
        (label, its renormalised probability, the label tokens' share of the first token's probability).

    Raises:
        GuardianAnswerError: No alternative begins either label.

    """
    mass = label_mass(top, label_of_prefix)
    fact, non = mass.get(Label.FACTUAL, 0.0), mass.get(Label.NON_FACTUAL, 0.0)
    if fact + non == 0:
        raise GuardianAnswerError(f"the Guardian's top tokens begin no label: {[t for t, _ in top]}")
    p_fact = fact / (fact + non)
    label = Label.FACTUAL if p_fact > 0.5 else Label.NON_FACTUAL
    return label, max(p_fact, 1.0 - p_fact), fact + non


def read_answer(content: str, top: list[tuple[str, float]] | None) -> tuple[Label, float | None, str]:
    """(label, confidence, explanation) of a Guardian answer: its top logprobs, or its token when it has none."""
    if top is None:
        label = label_of_token(content)
        return label, None, f"first token {content.strip()!r} (the endpoint returned no logprobs to score the labels)"
    label, confidence, share = score_labels(top)
    p_fact = confidence if label == Label.FACTUAL else 1.0 - confidence
    explanation = (
        f"P(FACTUAL) {p_fact:.2f} from the label tokens' probabilities"
        f" ({share:.2f} of the first token's probability; top token {max(top, key=lambda t: t[1])[0].strip()!r})"
    )
    return label, confidence, explanation


def guardian_opinion(query: str, response: str, ctx: VerifierContext) -> Opinion:
    """The Guardian's label for the pair in one forward pass, scored from the label tokens' probabilities."""
    prompt = render(MODE_PROMPTS["guardian"], query=query, response=response)
    model = ctx.services.chat("guardian", max_tokens=LABEL_TOKENS).bind(logprobs=True, top_logprobs=TOP_LOGPROBS)
    reply = model.invoke(prompt)
    content = reply.content if isinstance(reply.content, str) else str(reply.content)
    label, confidence, explanation = read_answer(content, first_token_top(reply.response_metadata))
    name = ctx.services.role("guardian").model
    return Opinion(
        source=OpinionSource.GUARDIAN, label=label, confidence=confidence, model=name, explanation=explanation
    )


def ask_guardian(state: VerifierState, ctx: VerifierContext) -> str | None:
    """Start the Guardian's request in the background (`prepare` does); its ticket, None when it is off."""
    if not ctx.settings.use_guardian:
        return None
    query, response = state.get("query", ""), state["response"]
    return ctx.services.background.start(lambda: guardian_opinion(query, response, ctx))


COLLECT_TIMEOUTS = 4
"""A backstop: the request is given up after this many role timeouts (each model call has its own deadline)."""


@node("guardian", OpinionSource.GUARDIAN)
def guardian(state: VerifierState, ctx: VerifierContext) -> dict[str, Any]:
    """The Guardian's opinion: the request `prepare` started, or one asked now when there is none."""
    if not ctx.settings.use_guardian:
        return {}
    ticket = state.get("guardian_ticket")
    if ticket is None:
        opinion = guardian_opinion(state.get("query", ""), state["response"], ctx)
    else:
        opinion = ctx.services.background.collect(ticket, timeout=COLLECT_TIMEOUTS * ctx.settings.timeout_s)
    return {"opinions": [opinion]}
