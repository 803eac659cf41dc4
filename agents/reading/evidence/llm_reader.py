"""Read a claim against its aligned evidence sentences with an LLM (the `judge` or `seeker` role).

The model sees the question, the claim and the best-aligned sentences (ranked by the embedded
reader's bm25s + embedding alignment), each with its id, and answers one JSON object
(`ModelJudgement`): supported / refuted / not enough info, the ids of the sentences it rests on, and
a one-sentence reason. The reply is parsed with langchain's `PydanticOutputParser` and checked: a
decided claim must cite at least one sentence, and only sentences it was shown. A reply that fails
is answered with the problem and asked again, up to `ATTEMPTS` calls in all; after that
`ModelReadingError` says why, and the Seeker reads the claim with the embedded reader instead.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Literal, Protocol

from langchain_core.exceptions import OutputParserException
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage
from langchain_core.output_parsers import PydanticOutputParser
from pydantic import BaseModel, Field

from agents.reading.evidence.support import EvidenceDecision, EvidenceReading
from drowzee_core.errors import DrowzeeError
from prompts import render

log = logging.getLogger(__name__)

PROMPT = "read_evidence_claim"
ATTEMPTS = 3
"""Calls per claim: the first and two answers to a reply that did not parse or cited no shown sentence."""
SHOWN = 8
"""Aligned sentences the model reads per claim, best first."""
MAX_CLAIM_CHARS = 1_000
MAX_QUERY_CHARS = 1_000


class Numbered(Protocol):
    """An evidence sentence as the model reads it: its id (`S2.3`) and text (`matching.Sentence` is one)."""

    @property
    def id(self) -> str:
        """The sentence's id."""
        ...

    @property
    def text(self) -> str:
        """The sentence as supplied."""
        ...


class ModelReadingError(DrowzeeError):
    """The model's replies to a claim never gave a valid judgement."""


class ModelJudgement(BaseModel):
    """The model's answer for one claim."""

    decision: Literal["supported", "refuted", "not enough info"] = Field(
        description="supported, refuted, or not enough info"
    )
    sentences: list[str] = Field(
        default_factory=list, max_length=10, description="ids of the evidence sentences the decision rests on"
    )
    reason: str = Field(min_length=1, max_length=600, description="the reason, in one sentence")


def _check(judgement: ModelJudgement, shown: set[str]) -> str | None:
    """What is wrong with a parsed judgement, or None."""
    unknown = [i for i in judgement.sentences if i not in shown]
    if unknown:
        return f"the ids {unknown} are not among the evidence sentences; cite only ids from the list"
    if judgement.decision != "not enough info" and not judgement.sentences:
        return f'a "{judgement.decision}" decision must cite the sentences it rests on'
    return None


def reading_role(mode: str, judge_role: str, judge_in_process: bool) -> str | None:
    """The LLM role that reads claims against evidence, or None (the embedded reader reads alone).

    `auto` reads with the judge's model when the judge is an LLM (`judge_role` `seeker`, or the `judge`
    role pointed at an endpoint); `llm` does so always, with the `seeker` role when the judge is in-process.
    """
    if mode == "embedded":
        return None
    if judge_role == "seeker":
        return "seeker"
    if not judge_in_process:
        return "judge"
    return "seeker" if mode == "llm" else None


class ModelEvidenceReader:
    """A chat model that reads one claim at a time against its aligned sentences, with a checked answer."""

    def __init__(self, model: BaseChatModel, name: str, shown: int = SHOWN, attempts: int = ATTEMPTS) -> None:
        """Read with `model`; `name` says which model it is in findings ("judge: gpt-4o-mini")."""
        if attempts < 1:
            raise ValueError("attempts must be at least 1")
        self.model = model
        self.name = name
        self.shown = shown
        self.attempts = attempts
        self.parser = PydanticOutputParser(pydantic_object=ModelJudgement)

    def prompt(self, query: str, claim: str, aligned: Sequence[Numbered]) -> str:
        """The first message for a claim and its aligned sentences (at most `shown`)."""
        lines = "\n".join(f"[{s.id}] {s.text}" for s in aligned[: self.shown]) or "(none)"
        return render(
            PROMPT,
            query=query.strip()[:MAX_QUERY_CHARS] or "(none)",
            claim=claim.strip()[:MAX_CLAIM_CHARS],
            sentences=lines,
            format_instructions=self.parser.get_format_instructions(),
        )

    def read(self, query: str, claim: str, aligned: Sequence[Numbered]) -> EvidenceReading:
        """The model's reading of `claim` against `aligned` (best first); raises `ModelReadingError`."""
        shown = {s.id for s in aligned[: self.shown]}
        messages: list[BaseMessage] = [HumanMessage(self.prompt(query, claim, aligned))]
        problem = ""
        for _ in range(self.attempts):
            reply = self.model.invoke(messages)
            content = reply.content if isinstance(reply.content, str) else str(reply.content)
            try:
                judgement = self.parser.parse(content)
            except OutputParserException as exc:
                problem = f"the reply is not the requested JSON ({str(exc).splitlines()[0][:200]})"
            else:
                wrong = _check(judgement, shown)
                if wrong is None:
                    return EvidenceReading(
                        decision=EvidenceDecision(judgement.decision),
                        cited=tuple(dict.fromkeys(judgement.sentences)),
                        reason=judgement.reason.strip().rstrip("."),
                    )
                problem = wrong
            log.debug("model evidence reading of %r: %s", claim[:80], problem)
            messages += [AIMessage(content), HumanMessage(f"That answer cannot be used: {problem}. Answer again.")]
        raise ModelReadingError(f"{self.name} gave no valid judgement in {self.attempts} calls: {problem}")


__all__ = ["ATTEMPTS", "PROMPT", "SHOWN", "ModelEvidenceReader", "ModelJudgement", "ModelReadingError", "reading_role"]
