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
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.logprobs import first_token_top, label_mass
from drowzee_core.llm.roles import RoleConfig, chat_model, load_role
from drowzee_core.records.judge import JudgeScore, Support

if TYPE_CHECKING:
    from langchain_core.callbacks import BaseCallbackHandler

    from drowzee_core.llm.judge.manifest import JudgeModel

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
    """The shipped (or a given) judge model, loaded offline, with its calibration.

    The manifest (checked against the weights) and the calibration are read at once; the model itself
    (the alignment model or the cross-encoder, by the manifest's `kind`) is loaded on the first `score`,
    so a run whose scores all come from a cache never loads it.
    """

    def __init__(self, adapter: Path | None = None) -> None:
        from drowzee_core.llm.judge.calibrate import Calibration
        from drowzee_core.llm.judge.manifest import read_manifest, shipped_judge_dir

        self.path = adapter or shipped_judge_dir()
        self.manifest = read_manifest(self.path)
        self.kind = str(self.manifest["kind"])
        self.calibration = Calibration.model_validate(self.manifest["calibration"])
        self.max_length = int(self.manifest["max_length"])
        self.threshold = self.calibration.threshold
        self._model: JudgeModel | None = None
        self._load_lock = threading.Lock()

    @property
    def model(self) -> JudgeModel:
        """The judge model, loaded on first use."""
        with self._load_lock:
            if self._model is None:
                if self.kind == "align":
                    from drowzee_core.llm.judge.align import AlignJudgeModel

                    split = bool(self.manifest.get("split_claims", False))
                    self._model = AlignJudgeModel.load(self.path, self.max_length, split)
                else:
                    from drowzee_core.llm.judge.cross_encoder import CrossEncoder

                    self._model = CrossEncoder.load(self.path, self.max_length)
            return self._model

    @property
    def input_tokens(self) -> int:
        """Tokens the model has read so far (padding excluded)."""
        return 0 if self._model is None else int(self._model.tokens_read)

    @property
    def cache_params(self) -> dict[str, Any]:
        """What besides the weights and the input decides a score (one half of a cache key)."""
        params: dict[str, Any] = {
            "calibration": self.calibration.model_dump(mode="json"),
            "max_length": self.max_length,
            "kind": self.kind,
        }
        if self.kind == "align":  # its features are MiniLM vectors: each backend's numbers differ a little
            from drowzee_core.llm.embeddings import backend_name

            params["embeddings"] = backend_name()
        return params

    def raw(self, inputs: Sequence[JudgeIn]) -> list[Any]:
        """Uncalibrated scores (`drowzee_core.llm.judge.chunk.Scored`) of the inputs."""
        from drowzee_core.llm.judge.chunk import score_inputs

        model = self.model
        return score_inputs(
            inputs,
            model.logits,
            model.token_count,
            model.max_length,
            split=model.split_claims,
            joiner=model.joiner,
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


def _support_of(token: str) -> Support | None:
    t = token.strip().upper()
    return Support.SUPPORTED if t.startswith("SUP") else Support.NOT_SUPPORTED if t.startswith("NOT") else None


def label_probability(top: Sequence[tuple[str, float]]) -> float:
    """P(SUPPORTED) from a first token's top logprobs: SUPPORTED vs NOT..., renormalised.

    A token that starts "SUP" votes SUPPORTED, one that starts "NOT" votes against; others are ignored.
    Neither among them is an error (the model did not answer with a label).
    """
    mass = label_mass(top, _support_of)
    yes, no = mass.get(Support.SUPPORTED, 0.0), mass.get(Support.NOT_SUPPORTED, 0.0)
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
        from drowzee_core.llm.judge.chunk import evidence_sentences
        from prompts import render

        out = []
        for query, response, evidence in inputs:
            prompt = render(
                PROMPT, query=query or "(none)", response=response, evidence="\n".join(evidence_sentences(evidence))
            )
            msg = self.model.invoke(prompt)
            top = first_token_top(msg.response_metadata)
            if top is None:
                raise DrowzeeError(f"model {self.cfg.model} at {self.cfg.base_url} returned no logprobs")
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
