"""Model (b) of docs/judge.md: a packaged generative base (+ a judge LoRA) scored by its first label token.

Trained and measured here only (`drowzee train judge`, bench/judge.py); the serving judge is the
cross-encoder or the alignment model in `drowzee_core.llm.judge`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from drowzee_core.errors import DrowzeeError

LABEL_WORDS = ("FACTUAL", "NON-FACTUAL")
CLAIM_ONLY_QUERY = "Is this claim true?"
"""The query of a claim-only example (no question): our own wording, not a benchmark's."""


def as_factchd_pair(ex: Any) -> dict[str, Any]:
    """A JudgeExample as a FactCHD-style pair for the generative trainer's `judge` mode (label only)."""
    label = LABEL_WORDS[0] if str(ex.label) == "SUPPORTED" else LABEL_WORDS[1]
    return {
        "id": ex.id,
        "label": label,
        "query": ex.query.strip() or CLAIM_ONLY_QUERY,
        "response": ex.response,
        "evidence": ex.evidence,
        "reason": f"{label}.",
    }


class LabelTokenJudge:
    """Model (b): a packaged generative base (+ a judge LoRA) scored by its first label token.

    One forward pass over the `judge`-mode prompt; the score is logit(first token of "FACTUAL") minus
    logit(first token of "NON-FACTUAL") at the answer position: no text is generated.
    """

    def __init__(self, base: str, adapter: Path | None = None) -> None:
        from drowzee_core.llm.local import load_base

        model, tok = load_base(base)
        if adapter is not None:
            from peft import PeftModel

            model = PeftModel.from_pretrained(model, str(adapter)).merge_and_unload()
        self.model, self.tokenizer = model.eval(), tok
        self.tokenizer.padding_side = "left"
        self.tokenizer.truncation_side = "left"  # keep the end of the prompt: the answer position
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        ids = [tok(w, add_special_tokens=False)["input_ids"][0] for w in LABEL_WORDS]
        if ids[0] == ids[1]:
            raise DrowzeeError(f"the labels' first tokens coincide in {base}'s vocabulary; score another way")
        self.label_ids = ids

    def prompts(self, pairs: Sequence[dict[str, Any]]) -> list[str]:
        """The judge-mode prompts, laid out as the trainer and the server lay them out."""
        from drowzee_core.llm.local import render_messages
        from finetune.data import build_example

        return [
            render_messages(self.tokenizer, [{"role": "user", "content": build_example(p, "judge")["prompt"]}])
            for p in pairs
        ]

    def logits(self, pairs: Sequence[dict[str, Any]], batch_size: int = 8, max_length: int = 320) -> list[float]:
        """The label-token margin of each pair (positive: FACTUAL more likely)."""
        import torch

        out: list[float] = []
        texts = self.prompts(pairs)
        with torch.inference_mode():
            for start in range(0, len(texts), batch_size):
                batch = self.tokenizer(
                    texts[start : start + batch_size],
                    return_tensors="pt",
                    padding=True,
                    truncation=True,
                    max_length=max_length,
                )
                last = self.model(**batch).logits[:, -1, :]
                out.extend((last[:, self.label_ids[0]] - last[:, self.label_ids[1]]).float().tolist())
        return out


__all__ = ["CLAIM_ONLY_QUERY", "LABEL_WORDS", "LabelTokenJudge", "as_factchd_pair"]
