"""The `judge` role: does the evidence support the response? One calibrated probability per input.

Two implementations behind one call, `Judge.score(inputs)`:
- `LocalJudge` (the embedded default: the `judge` role left at its default model on the local base
  URL): the shipped cross-encoder adapter `finetune/adapters/judge/` run in-process on the CPU,
  evidence chunked, the best chunk per claim, the lowest claim for the response, calibrated with the
  Platt parameters and not-enough-evidence band of its manifest;
- `LLMJudge` (the role pointed at any OpenAI-compatible model): the prompt `prompts/judge_evidence.txt`,
  one completion token, and P(SUPPORTED) from that token's logprobs (SUPPORTED vs NOTSUPPORTED,
  renormalised). It is not calibrated on our data: the threshold is 0.5 and there is no band.
"""

from __future__ import annotations

import hashlib
import logging
import math
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.roles import RoleConfig, chat_model, load_role
from drowzee_core.records.judge import JudgeScore, Support

if TYPE_CHECKING:
    from langchain_core.callbacks import BaseCallbackHandler

    from finetune.judge.model import CrossEncoder

log = logging.getLogger(__name__)

JudgeIn = tuple[str, str, Any]
"""(query, response, evidence): evidence is a list of sentences or triples, or one text."""

LOCAL_MODEL = "judge"
PROMPT = "judge_evidence"


class Judge(Protocol):
    """Scores (query, response, evidence) inputs."""

    threshold: float
    """P(SUPPORTED) at or above which the answer is SUPPORTED (outside any abstention band)."""

    def score(self, inputs: Sequence[JudgeIn]) -> list[JudgeScore]:
        """One JudgeScore per input, in order."""
        ...


class LocalJudge:
    """The shipped (or a given) cross-encoder adapter, loaded offline, with its calibration.

    The manifest (checked against the weights) and the calibration are read at once; the model itself
    is loaded on the first `score`, so a run whose scores all come from a cache never loads it.
    """

    def __init__(self, adapter: Path | None = None, batch_size: int = 64) -> None:
        from finetune.judge.calibrate import Calibration
        from finetune.judge.export import read_manifest, shipped_judge_dir

        self.path = adapter or shipped_judge_dir()
        self.manifest = read_manifest(self.path)
        self.calibration = Calibration.model_validate(self.manifest["calibration"])
        self.max_length = int(self.manifest["max_length"])
        self.threshold = self.calibration.threshold
        self.batch_size = batch_size
        self._encoder: CrossEncoder | None = None
        self._load_lock = threading.Lock()

    @property
    def encoder(self) -> CrossEncoder:
        """The cross-encoder, loaded on first use."""
        with self._load_lock:
            if self._encoder is None:
                from finetune.judge.model import CrossEncoder

                self._encoder = CrossEncoder.load(self.path, self.max_length)
            return self._encoder

    @property
    def input_tokens(self) -> int:
        """Tokens the cross-encoder has read so far (every scored claim-chunk pair, padding excluded)."""
        return 0 if self._encoder is None else int(self._encoder.tokens_read)

    @property
    def cache_params(self) -> dict[str, Any]:
        """What besides the adapter weights and the input decides a score (one half of a cache key)."""
        return {"calibration": self.calibration.model_dump(mode="json"), "max_length": self.max_length}

    def raw(self, inputs: Sequence[JudgeIn]) -> list[Any]:
        """Uncalibrated scores (`finetune.judge.chunk.Scored`) of the inputs."""
        from finetune.judge.chunk import score_inputs

        enc = self.encoder
        return score_inputs(
            inputs,
            lambda a, b: enc.logits(a, b, self.batch_size).tolist(),
            enc.token_count,
            enc.max_length,
        )

    def score(self, inputs: Sequence[JudgeIn]) -> list[JudgeScore]:
        """Calibrated JudgeScores (None decision inside the not-enough-evidence band)."""
        cal = self.calibration
        out = []
        for s in self.raw(inputs):
            p = float(cal.prob([s.logit])[0])
            claims = [round(float(x), 6) for x in cal.prob(s.claim_logits)] if len(s.claim_logits) > 1 else []
            out.append(JudgeScore(p_supported=p, decision=cal.decide(p), best_chunk=s.best_chunk, claim_scores=claims))
        return out


def label_probability(top: Sequence[tuple[str, float]]) -> float:
    """P(SUPPORTED) from a first token's top logprobs: SUPPORTED vs NOT..., renormalised.

    A token that starts "SUP" votes SUPPORTED, one that starts "NOT" votes against; others are ignored.
    Neither among them is an error (the model did not answer with a label).
    """
    yes = sum(math.exp(lp) for tok, lp in top if tok.strip().upper().startswith("SUP"))
    no = sum(math.exp(lp) for tok, lp in top if tok.strip().upper().startswith("NOT"))
    if yes + no == 0:
        raise DrowzeeError(f"the judge model answered no label; its top tokens were {[t for t, _ in top]}")
    return yes / (yes + no)


class LLMJudge:
    """An OpenAI-compatible model judging with a prompt; the label token's logprob is the score."""

    def __init__(self, cfg: RoleConfig, callbacks: Sequence[BaseCallbackHandler] | None = None) -> None:
        self.cfg = cfg
        self.threshold = 0.5
        client = chat_model(cfg.model_copy(update={"max_tokens": 1}), callbacks=callbacks)
        self.model = client.bind(logprobs=True, top_logprobs=10)

    @property
    def cache_params(self) -> dict[str, Any]:
        """What besides the model and the input decides a score: the prompt and the sampling (half a cache key)."""
        from prompts import template

        prompt = hashlib.sha256(template(PROMPT).encode("utf-8")).hexdigest()
        return {"prompt_sha256": prompt, "temperature": self.cfg.temperature, "top_logprobs": 10}

    def score(self, inputs: Sequence[JudgeIn]) -> list[JudgeScore]:
        """One completion per input (no chunking: an LLM's window holds the evidence)."""
        from finetune.judge.chunk import evidence_sentences
        from prompts import render

        out = []
        for query, response, evidence in inputs:
            prompt = render(
                PROMPT, query=query or "(none)", response=response, evidence="\n".join(evidence_sentences(evidence))
            )
            msg = self.model.invoke(prompt)
            content = (msg.response_metadata.get("logprobs") or {}).get("content") or []
            if not content:
                raise DrowzeeError(f"model {self.cfg.model} at {self.cfg.base_url} returned no logprobs")
            top = [(t["token"], float(t["logprob"])) for t in content[0].get("top_logprobs", [])]
            p = label_probability(top)
            out.append(JudgeScore(p_supported=p, decision=Support.SUPPORTED if p >= 0.5 else Support.NOT_SUPPORTED))
        return out


def is_in_process(cfg: RoleConfig) -> bool:
    """Whether the `judge` role names the shipped cross-encoder run in-process (its embedded default)."""
    return cfg.is_local and cfg.model == LOCAL_MODEL


def judge_for(
    cfg: RoleConfig | None = None, adapter: Path | None = None, callbacks: Sequence[BaseCallbackHandler] | None = None
) -> Judge:
    """The judge the `judge` role names: the local cross-encoder by default, else the configured LLM.

    `callbacks` are handed to an LLM judge's chat client (the in-process judge has none).
    """
    cfg = cfg or load_role("judge")
    if adapter is not None or is_in_process(cfg):
        return LocalJudge(adapter)
    return LLMJudge(cfg, callbacks=callbacks)


__all__ = ["Judge", "JudgeIn", "LLMJudge", "LocalJudge", "is_in_process", "judge_for", "label_probability"]
