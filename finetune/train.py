"""LoRA training of the Truth Guardian with peft on transformers' `Trainer` (I/O side of `finetune`).

`train(pairs, config, out)` builds the instruction examples (`finetune.data`), tokenizes them exactly as
the model server will render them (`render_messages`), trains a LoRA adapter with a progress bar and
checkpoints under `out/checkpoints/`, and exports the adapter to `out/` with `manifest.json`. With
`resume=True` an interrupted run continues from its last checkpoint, provided the config and the data
are the same (their fingerprints are checked).
"""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import time
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.local import BASE_MODELS, base_dir, render_messages, weights_sha256
from finetune.config import TrainConfig
from finetune.data import build_examples, fingerprint
from finetune.manifest import write_manifest

log = logging.getLogger(__name__)
MAX_EVAL_EXAMPLES = 64
STATE = "run.json"


@dataclass
class TrainResult:
    """What a run did: sizes, losses and speed."""

    examples: int
    truncated: int
    eval_examples: int
    steps: int
    train_loss: float | None
    eval_loss: float | None
    tokens: int
    seconds: float
    tokens_per_second: float
    resumed_from: str | None


def resolve_base(base: str) -> Path:
    """The folder of the base model: a served base model's converted copy, or a local HF model folder."""
    if base in BASE_MODELS:
        return base_dir(base)
    path = Path(base)
    if (path / "config.json").is_file():
        return path
    raise DrowzeeError(f"base {base!r} is neither one of {sorted(BASE_MODELS)} nor a local model folder")


def tokenize(tok: Any, example: dict[str, Any], max_length: int) -> tuple[dict[str, list[int]], bool] | None:
    """input_ids / labels (prompt masked with -100); None when the prompt alone does not fit.

    Returns the features and whether the completion was cut to fit `max_length`.
    """
    prompt = render_messages(tok, [{"role": "user", "content": example["prompt"]}])
    p_ids = tok(prompt)["input_ids"]
    c_ids = tok(example["completion"], add_special_tokens=False)["input_ids"] + [tok.eos_token_id]
    if len(p_ids) + 8 > max_length:
        return None
    cut = len(p_ids) + len(c_ids) > max_length
    c_ids = c_ids[: max_length - len(p_ids)]
    return {"input_ids": p_ids + c_ids, "labels": [-100] * len(p_ids) + c_ids}, cut


class Collator:
    """Pads a batch on the right: pad token in inputs, -100 in labels, 0 in the attention mask."""

    def __init__(self, pad_id: int) -> None:
        self.pad_id = pad_id

    def __call__(self, batch: list[dict[str, list[int]]]) -> dict[str, Any]:
        """One padded batch of tensors."""
        import torch

        width = max(len(b["input_ids"]) for b in batch)
        ids = [b["input_ids"] + [self.pad_id] * (width - len(b["input_ids"])) for b in batch]
        labels = [b["labels"] + [-100] * (width - len(b["labels"])) for b in batch]
        mask = [[1] * len(b["input_ids"]) + [0] * (width - len(b["input_ids"])) for b in batch]
        return {"input_ids": torch.tensor(ids), "labels": torch.tensor(labels), "attention_mask": torch.tensor(mask)}


def code_version() -> str:
    """The package version and, in a git checkout, the short commit (`0.1.0+1a2b3c4`)."""
    from drowzee_core import __version__
    from drowzee_core.records.provenance import code_version as git_version

    commit, _dirty = git_version()
    return f"{__version__}+{commit[:7]}" if commit else __version__


def _check_resume(out: Path, state: dict[str, Any]) -> None:
    saved_path = out / "checkpoints" / STATE
    if not saved_path.is_file():
        raise DrowzeeError(f"--resume: no interrupted run in {out / 'checkpoints'}; start without --resume")
    saved = json.loads(saved_path.read_text(encoding="utf-8"))
    for key in ("config", "data_fingerprint"):
        if saved.get(key) != state[key]:
            raise DrowzeeError(
                f"--resume: the {key.replace('_', ' ')} differs from the interrupted run's;"
                " resume with the same data and options, or start over without --resume"
            )


def train(
    pairs: list[dict[str, Any]],
    config: TrainConfig,
    out: Path,
    resume: bool = False,
    keep_checkpoints: bool = False,
    data_name: str = "",
    added: list[dict[str, Any]] | None = None,
) -> TrainResult:
    """Train a LoRA adapter on `pairs`; export it with its manifest to `out`.

    `added` describes pairs that came from elsewhere than `data_name` (loop runs), for the manifest.
    """
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM, AutoTokenizer, Trainer, TrainingArguments, set_seed

    version = code_version()  # the code that trains, not whatever is checked out when it finishes
    examples = build_examples(pairs, config.modes, config.seed)
    data_fp = fingerprint(pairs)
    state = json.loads(json.dumps({"config": asdict(config), "data_fingerprint": data_fp}))  # as saved: lists
    ckpt_dir = out / "checkpoints"
    last = None
    if resume:
        _check_resume(out, state)
        found = sorted(ckpt_dir.glob("checkpoint-*"), key=lambda p: int(p.name.split("-")[1]))
        last = str(found[-1]) if found else None
    elif ckpt_dir.exists():
        raise DrowzeeError(f"{ckpt_dir} holds an earlier run; pass --resume to continue it, or delete it")
    ckpt_dir.mkdir(parents=True, exist_ok=True)
    (ckpt_dir / STATE).write_text(json.dumps(state, indent=2, sort_keys=True), encoding="utf-8")

    set_seed(config.seed)
    base_path = resolve_base(config.base)
    tok = AutoTokenizer.from_pretrained(base_path)
    feats, truncated, dropped = [], 0, 0
    for ex in examples:
        res = tokenize(tok, ex, config.max_length)
        if res is None:
            dropped += 1
            continue
        feats.append(res[0])
        truncated += res[1]
    if dropped:
        log.warning("%d examples dropped: their prompt alone is longer than max_length=%d", dropped, config.max_length)
    if len(feats) < 2:
        raise DrowzeeError(f"only {len(feats)} usable examples; give more pairs or a larger max_length")
    order = list(range(len(feats)))
    random.Random(config.seed).shuffle(order)
    n_eval = min(MAX_EVAL_EXAMPLES, int(len(feats) * config.eval_fraction))
    eval_set = [feats[i] for i in order[:n_eval]]
    train_set = [feats[i] for i in order[n_eval:]]

    lora = LoraConfig(
        r=config.lora_r,
        lora_alpha=config.lora_alpha,
        lora_dropout=config.lora_dropout,
        target_modules=list(config.target_modules),
        task_type="CAUSAL_LM",
    )
    model: Any = get_peft_model(AutoModelForCausalLM.from_pretrained(base_path), lora)
    trainable, total = model.get_nb_trainable_parameters()
    log.info(
        "LoRA: %d trainable of %d parameters; %d train / %d eval examples",
        trainable,
        total,
        len(train_set),
        len(eval_set),
    )
    args = TrainingArguments(
        output_dir=str(ckpt_dir),
        max_steps=config.max_steps,
        per_device_train_batch_size=config.batch_size,
        per_device_eval_batch_size=config.batch_size,
        gradient_accumulation_steps=config.grad_accum,
        learning_rate=config.learning_rate,
        warmup_steps=config.warmup_steps,
        lr_scheduler_type="cosine",
        logging_steps=max(1, min(10, config.save_steps)),
        save_steps=config.save_steps,
        save_total_limit=2,
        eval_strategy="steps" if eval_set else "no",
        eval_steps=config.save_steps,
        seed=config.seed,
        data_seed=config.seed,
        report_to="none",
        use_cpu=not torch.cuda.is_available(),
        bf16=torch.cuda.is_available(),
        remove_unused_columns=False,
        include_num_input_tokens_seen="non_padding",
        logging_first_step=True,
        disable_tqdm=False,
    )
    trainer = Trainer(
        model=model,
        args=args,
        train_dataset=train_set,
        eval_dataset=eval_set or None,
        data_collator=Collator(tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id),
    )
    tokens_before = 0
    if last:
        tokens_before = int(json.loads((Path(last) / "trainer_state.json").read_text())["num_input_tokens_seen"])
        log.info("resuming from %s", last)
    t0 = time.perf_counter()
    output = trainer.train(resume_from_checkpoint=last)
    seconds = time.perf_counter() - t0
    eval_loss = _final_eval_loss(trainer) if eval_set else None
    tokens = int(trainer.state.num_input_tokens_seen) - tokens_before
    result = TrainResult(
        examples=len(train_set),
        truncated=truncated,
        eval_examples=len(eval_set),
        steps=trainer.state.global_step,
        train_loss=round(float(output.training_loss), 4),
        eval_loss=None if eval_loss is None else round(eval_loss, 4),
        tokens=tokens,
        seconds=round(seconds, 1),
        tokens_per_second=round(tokens / seconds, 1) if seconds else 0.0,
        resumed_from=last,
    )
    export(model, config, out, data_fp, result, data_name, len(pairs), version, added or [])
    if not keep_checkpoints:
        shutil.rmtree(ckpt_dir)
    return result


def _final_eval_loss(trainer: Any) -> float:
    """The held-out loss at the last step: logged already when the last step was an eval step."""
    last = [h for h in trainer.state.log_history if "eval_loss" in h and h.get("step") == trainer.state.global_step]
    return float(last[-1]["eval_loss"]) if last else float(trainer.evaluate()["eval_loss"])


def export(
    model: Any,
    config: TrainConfig,
    out: Path,
    data_fp: str,
    result: TrainResult,
    data_name: str,
    pairs: int,
    version: str,
    added: list[dict[str, Any]] | None = None,
) -> None:
    """Save the adapter weights, the training config and the manifest to `out`."""
    model.save_pretrained(str(out))
    (out / "README.md").unlink(missing_ok=True)  # peft's empty model-card template; the manifest says it all
    peft_cfg = out / "adapter_config.json"  # name the base, not this machine's cache path
    peft_data = json.loads(peft_cfg.read_text(encoding="utf-8"))
    peft_data["base_model_name_or_path"] = config.base
    peft_cfg.write_text(json.dumps(peft_data, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    config.save(out / "train_config.json")
    manifest = {
        "name": config.name,
        "base_model": config.base,
        "modes": list(config.modes),
        "data": {"file": data_name, "pairs": pairs, "fingerprint": data_fp, "added": added or []},
        "config": asdict(config),
        "training": asdict(result),
        "metrics": {},
        "weights_sha256": weights_sha256(out),
        "code_version": version,
        "created": datetime.now(UTC).isoformat(timespec="seconds"),
    }
    write_manifest(out, manifest)
