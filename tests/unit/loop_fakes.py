"""Scripted fakes for the closed loop: a generator without Prolog, a target chat model, a verifier, a scorer."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult

from agents.batch.engine import Verify
from agents.loop import LoopConfig, LoopContext, Target
from drowzee_core.generate.registry import Generated, GenerateJob
from drowzee_core.llm.runner import client_identity
from drowzee_core.records.answer_text import gold_label, parse_answer
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import EvidenceItem, EvidenceSource, Verdict, VerifyRequest
from tests.unit.verifier_fakes import decided

# (rule, gold answer, the target's answer): c1 and c4 are wrong (hallucinations), c5 says it does not know
SCRIPT = [
    ("inverse", "Yes", "Yes, A is part of B."),
    ("inverse", "No", "Yes, it is."),
    ("negation", "No", "No, it is not."),
    ("negation", "Yes", "Yes, because B holds."),
    ("transitive", "Yes", "No, they are unrelated."),
    ("transitive", "No", "I don't know."),
]


def cases(n: int) -> list[dict[str, Any]]:
    return [
        {
            "id": f"c{i}",
            "kind": "drowzee-qa",
            "domain": "geography",
            "rule": rule,
            "question": f"Question {i}?",
            "answer": gold,
            "prompt": f"prompt {i}",
            "facts": [[f"A{i}", "part_of", f"B{i}"]],
        }
        for i, (rule, gold, _) in enumerate(SCRIPT[:n])
    ]


def pairs(n: int) -> list[dict[str, Any]]:
    """FactCHD-shaped pairs: even ones FACTUAL, odd ones NON-FACTUAL (their responses start with "No")."""
    return [
        {
            "id": f"p{i}",
            "label": "NON-FACTUAL" if i % 2 else "FACTUAL",
            "query": f"Is A{i} in B{i}?",
            "response": "No, A is elsewhere." if i % 2 else "Yes, A is in B.",
            "evidence": [[f"A{i}", "located_in", f"B{i}"]],
            "reason": ("NON-FACTUAL. " if i % 2 else "FACTUAL. ") + f"A{i} is located in B{i}.",
            "pattern": "vanilla",
        }
        for i in range(n)
    ]


class ScriptedTarget(BaseChatModel):
    """Answers `prompt i` with the scripted answer i; counts its calls."""

    calls: int = 0
    fail_on: int | None = None
    """Case index whose first call fails."""

    @property
    def _llm_type(self) -> str:
        return "scripted"

    def _generate(self, messages: list[BaseMessage], stop: list[str] | None = None, **kw: Any) -> ChatResult:
        self.calls += 1
        content = str(messages[-1].content)
        i = int(content.split()[-1])
        if i == self.fail_on:
            self.fail_on = None
            raise ConnectionError("server went away")
        # given facts (the retrieval patch), the target answers right, except case 3, which it now gets wrong
        answer = SCRIPT[i][2]
        if content.startswith("Facts from a knowledge base"):
            answer = "No, the facts say otherwise." if i == 3 else f"{SCRIPT[i][1]}, by the facts."
        return ChatResult(generations=[ChatGeneration(message=AIMessage(content=answer))])


@dataclass
class Fakes:
    """The services with counters; `fail_verify_at` makes the n-th verify call (1-based) raise once."""

    tmp: Path
    generated: int = 0
    verified: int = 0
    fail_verify_at: int | None = None
    target_model: ScriptedTarget = field(default_factory=ScriptedTarget)
    scored: list[str] = field(default_factory=list)

    def generate(self, name: str, job: GenerateJob) -> Generated:
        self.generated += 1
        return Generated(pairs(job.n) if name == "factchd" else cases(job.n), kb_fingerprint="fp")

    def target(self, cfg: LoopConfig) -> Target:
        return Target(self.target_model, client_identity(self.target_model, "fake://", "scripted"), "scripted")

    @contextmanager
    def verifier(self, cfg: LoopConfig) -> Iterator[Verify]:
        def check(req: VerifyRequest) -> Verdict:
            self.verified += 1
            if self.fail_verify_at is not None and self.verified == self.fail_verify_at:
                self.fail_verify_at = None
                raise RuntimeError("verifier died")
            wrong = req.response.startswith("No") or "it is." in req.response
            label = Label.NON_FACTUAL if wrong else Label.FACTUAL
            facts = " ".join(" ".join(t) for t in req.evidence or [] if isinstance(t, list))
            # the KB fact the verifier retrieved (none for the last case: it is not re-asked by the patch)
            found = [] if req.id == "c5" else [EvidenceItem(id="K1", source=EvidenceSource.KB, text=f"{req.id} fact.")]
            return Verdict(
                id=req.id,
                decision=decided(label),
                label=label,
                confidence=0.9,
                explanation=f"{label}. {facts}",
                evidence=found,
            )

        yield check

    def score(self, name: str, rows: list[dict[str, Any]], progress: Any) -> tuple[list[dict[str, Any]], Any]:
        self.scored.append(name)
        if name == "factchd":
            from drowzee_core.oracles.score import score_factchd_rows

            judged, summary = score_factchd_rows(rows, group="pattern")
            return judged, summary.model_dump()
        out = []
        for r in rows:
            parsed = parse_answer(r["llm_answer"]).label
            correct = parsed is not None and parsed == gold_label(r["answer"])
            cls = "CO" if correct or parsed == "unsure" else "EK"
            sim = 0.9 if "part_of" in r["llm_answer"] else 0.2
            out.append(
                r
                | {
                    "parsed_answer": parsed,
                    "parse_how": "lead",
                    "answer_correct": correct,
                    "class": cls,
                    "node_similarity": sim,
                    "edge_similarity": sim,
                }
            )
            if progress:
                progress(1)
        return out, {"n": len(out)}

    def context(self, out: Path) -> LoopContext:
        return LoopContext(
            out=out,
            generate=self.generate,
            target=self.target,
            verifier=self.verifier,
            score=self.score,
            answer_cache=self.tmp / "answers.sqlite",
        )
