"""Fine-tune the judge cross-encoder (LoRA + head) on JudgeExamples; calibrate on our dev split; export.

`train_judge(train, dev, config, out)` trains with a seeded shuffle, AdamW and a linear schedule,
keeps a checkpoint under `out/checkpoints/` every `save_steps` (resumable with the same config and
data), stops after `max_steps` or `max_minutes`, then scores the dev split through the serving path
(chunking, claims), fits the calibration there and exports the adapter with its manifest.
"""

from __future__ import annotations

import json
import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.judge.chunk import evidence_sentences
from drowzee_core.llm.judge.cross_encoder import CrossEncoder, LoraSpec
from drowzee_core.records.judge import JudgeExample, Support
from finetune.judge.data import fingerprint

log = logging.getLogger(__name__)
STATE = "state.pt"


@dataclass(frozen=True)
class JudgeTrainConfig:
    """A training run's settings (validated at construction)."""

    max_length: int = 256
    batch_size: int = 16
    learning_rate: float = 1e-3
    warmup_ratio: float = 0.06
    max_steps: int = 1000
    max_minutes: float | None = None
    save_steps: int = 200
    band_share: float = 0.1
    seed: int = 0
    lora: LoraSpec = field(default_factory=LoraSpec)

    def __post_init__(self) -> None:
        problems = []
        if not 1 <= self.batch_size <= 512:
            problems.append(f"`batch_size` must be in [1, 512], got {self.batch_size}")
        if not 0 < self.learning_rate <= 0.1:
            problems.append(f"`learning_rate` must be in (0, 0.1], got {self.learning_rate}")
        if self.max_steps < 1:
            problems.append(f"`max_steps` must be >= 1, got {self.max_steps}")
        if self.max_minutes is not None and self.max_minutes <= 0:
            problems.append(f"`max_minutes` must be > 0, got {self.max_minutes}")
        if self.save_steps < 1:
            problems.append(f"`save_steps` must be >= 1, got {self.save_steps}")
        if problems:
            raise DrowzeeError("; ".join(problems))


@dataclass
class JudgeTrainResult:
    """What a run did."""

    steps: int
    examples_seen: int
    train_loss: float
    seconds: float
    examples_per_second: float
    resumed_from_step: int | None


def example_texts(ex: JudgeExample) -> tuple[str, str]:
    """The (claim side, evidence side) texts of a training example (the model cuts long evidence)."""
    first = f"{ex.query.strip()} [SEP] {ex.response.strip()}" if ex.query.strip() else ex.response.strip()
    return first, " ".join(evidence_sentences(ex.evidence))


PER_INVOCATION = ("max_minutes", "save_steps")
"""Config fields a resumed run may change: this invocation's time budget and how often it saves."""


def _identity(value: Any) -> Any:
    """What must match for a checkpoint to be resumed: the config without its per-invocation fields."""
    if isinstance(value, dict) and "learning_rate" in value:
        return {k: v for k, v in value.items() if k not in PER_INVOCATION}
    return value


def _check_resume(path: Path, state: dict[str, Any]) -> dict[str, Any]:
    import torch

    if not path.is_file():
        raise DrowzeeError(f"--resume: no checkpoint at {path}; start without --resume")
    saved: dict[str, Any] = torch.load(path, weights_only=False)
    for key in ("config", "data_fingerprint"):
        if _identity(saved.get(key)) != _identity(state[key]):
            raise DrowzeeError(f"--resume: the {key.replace('_', ' ')} differs from the interrupted run's; start over")
    return saved


def train_judge(
    train: Sequence[JudgeExample],
    config: JudgeTrainConfig,
    out: Path,
    resume: bool = False,
    on_step: Callable[[int, float], None] | None = None,
) -> tuple[CrossEncoder, JudgeTrainResult]:
    """Train the cross-encoder on `train`; returns it (unmerged) and the run's figures."""
    import torch
    from transformers import get_linear_schedule_with_warmup, set_seed

    if len(train) < 2 or len({ex.label for ex in train}) < 2:
        raise DrowzeeError("training needs at least two examples with both labels")
    set_seed(config.seed)
    torch.set_num_threads(max(1, torch.get_num_threads()))
    state = json.loads(json.dumps({"config": asdict(config), "data_fingerprint": fingerprint(train)}))
    ckpt = out / "checkpoints" / STATE
    saved = _check_resume(ckpt, state) if resume else None
    if not resume and ckpt.exists():
        raise DrowzeeError(f"{ckpt} holds an earlier run; pass --resume to continue it, or delete it")
    ckpt.parent.mkdir(parents=True, exist_ok=True)

    enc = CrossEncoder.new(config.lora, config.max_length)
    model = enc.model
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=config.learning_rate, weight_decay=0.01)
    sched = get_linear_schedule_with_warmup(  # type: ignore[no-untyped-call]
        opt, int(config.warmup_ratio * config.max_steps), config.max_steps
    )
    texts = [example_texts(ex) for ex in train]
    gold = [1.0 if ex.label == Support.SUPPORTED else 0.0 for ex in train]
    order: list[int] = []
    step, start_step, seen, losses = 0, 0, 0, []
    if saved is not None:
        model.load_state_dict(saved["weights"], strict=False)
        opt.load_state_dict(saved["optimizer"])
        sched.load_state_dict(saved["scheduler"])
        step = start_step = int(saved["step"])
        seen = int(saved["seen"])
    rng = random.Random(config.seed)
    epoch_orders = (rng.sample(range(len(train)), len(train)) for _ in iter(int, 1))
    while len(order) < seen + config.batch_size * (config.max_steps - step):  # the same sequence on resume
        order += next(epoch_orders)
    loss_fn = torch.nn.BCEWithLogitsLoss()
    model.train()
    t0 = time.monotonic()
    while step < config.max_steps:
        if config.max_minutes is not None and time.monotonic() - t0 > 60 * config.max_minutes:
            log.warning("stopping at step %d: the %.1f-minute budget is spent", step, config.max_minutes)
            break
        idx = order[seen : seen + config.batch_size]
        batch = enc.encode([texts[i][0] for i in idx], [texts[i][1] for i in idx])
        logits = model(**batch).logits[:, 0]
        loss = loss_fn(logits, torch.tensor([gold[i] for i in idx]))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        sched.step()
        opt.zero_grad()
        step, seen = step + 1, seen + len(idx)
        losses.append(float(loss.detach()))
        if on_step:
            on_step(step, losses[-1])
        if step % config.save_steps == 0 and step < config.max_steps:
            trainable = {k: v for k, v in model.state_dict().items() if "lora_" in k or "modules_to_save" in k}
            torch.save(
                state
                | {
                    "weights": trainable,
                    "optimizer": opt.state_dict(),
                    "scheduler": sched.state_dict(),
                    "step": step,
                    "seen": seen,
                },
                ckpt,
            )
    seconds = time.monotonic() - t0
    model.eval()
    tail = losses[-50:] or [float("nan")]
    result = JudgeTrainResult(
        steps=step,
        examples_seen=seen,
        train_loss=sum(tail) / len(tail),
        seconds=round(seconds, 1),
        examples_per_second=round((step - start_step) * config.batch_size / max(seconds, 1e-9), 2),
        resumed_from_step=start_step if saved is not None else None,
    )
    return enc, result


__all__ = ["JudgeTrainConfig", "JudgeTrainResult", "example_texts", "train_judge"]
