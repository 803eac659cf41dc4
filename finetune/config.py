"""The LoRA training configuration: a validated dataclass, saved as JSON with every adapter and run.

Defaults are sized for a 2-core CPU and the embedded base models. `finetune/configs/*.json` holds the
shipped adapter's config and GPU configs for larger bases, whose `base` is a local Hugging Face model
folder (nothing is downloaded); pass one with `drowzee train guardian --config FILE`.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any

from drowzee_core.errors import DrowzeeError
from finetune.data import MODES

TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


@dataclass(frozen=True)
class TrainConfig:
    """Everything that determines a training run (with the data fingerprint and the code version)."""

    base: str = "smollm2-135m"
    name: str = "guardian"
    modes: tuple[str, ...] = ("guardian",)
    lora_r: int = 8
    lora_alpha: int = 16
    lora_dropout: float = 0.05
    target_modules: tuple[str, ...] = ("q_proj", "v_proj")
    learning_rate: float = 5e-4
    batch_size: int = 8
    grad_accum: int = 1
    max_steps: int = 300
    warmup_steps: int = 10
    max_length: int = 320
    save_steps: int = 50
    eval_fraction: float = 0.05
    seed: int = 0

    def __post_init__(self) -> None:
        problems = []
        if not self.modes or any(m not in MODES for m in self.modes):
            problems.append(f"modes must be a non-empty subset of {list(MODES)}, got {list(self.modes)}")
        if not self.target_modules or any(t not in TARGETS for t in self.target_modules):
            problems.append(f"target_modules must be a non-empty subset of {list(TARGETS)}")
        checks = [
            ("lora_r", 1, 256),
            ("lora_alpha", 1, 1024),
            ("batch_size", 1, 1024),
            ("grad_accum", 1, 1024),
            ("max_steps", 1, 1_000_000),
            ("warmup_steps", 0, 100_000),
            ("max_length", 32, 32768),
            ("save_steps", 1, 1_000_000),
        ]
        for name, lo, hi in checks:
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                problems.append(f"{name} must be an integer in [{lo}, {hi}], got {value!r}")
        if not 0.0 <= self.lora_dropout < 1.0:
            problems.append(f"lora_dropout must be in [0, 1), got {self.lora_dropout}")
        if not 0.0 < self.learning_rate <= 1.0:
            problems.append(f"learning_rate must be in (0, 1], got {self.learning_rate}")
        if not 0.0 <= self.eval_fraction < 0.5:
            problems.append(f"eval_fraction must be in [0, 0.5), got {self.eval_fraction}")
        if problems:
            raise DrowzeeError("invalid training config: " + "; ".join(problems))

    def to_json(self) -> str:
        """The config as pretty JSON."""
        return json.dumps(asdict(self), indent=2, sort_keys=True)

    def save(self, path: Path) -> None:
        """Write the config to `path`."""
        path.write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> TrainConfig:
        """A config from a dict, rejecting unknown keys (a typo must not be silently ignored)."""
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise DrowzeeError(f"unknown training config keys {unknown}; known keys are {sorted(known)}")
        values = dict(data)
        for key in ("modes", "target_modules"):
            if key in values:
                if not isinstance(values[key], list | tuple):
                    raise DrowzeeError(f"{key} must be a list, got {values[key]!r}")
                values[key] = tuple(values[key])
        try:
            return cls(**values)
        except TypeError as exc:
            raise DrowzeeError(f"invalid training config: {exc}") from exc

    @classmethod
    def load(cls, path: Path) -> TrainConfig:
        """A config from a JSON file."""
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise DrowzeeError(f"cannot read training config {path}: {exc}") from exc
        if not isinstance(data, dict):
            raise DrowzeeError(f"training config {path} must be a JSON object")
        return cls.from_dict(data)


def bundled_configs() -> dict[str, Path]:
    """The configs that ship in `finetune/configs/` by name: the CPU default and GPU ones for larger bases."""
    folder = Path(__file__).parent / "configs"
    return {p.stem: p for p in sorted(folder.glob("*.json"))}
