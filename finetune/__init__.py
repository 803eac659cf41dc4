"""Truth Guardian training and evaluation: generated FactCHD pairs -> LoRA adapters with manifests.

Modules (imported on demand; training pulls in torch, evaluation scipy and scikit-learn):

- `config`: the validated training config (`TrainConfig`) and the bundled CPU / GPU configs;
- `data`: instruction examples (guardian, judge, arbitration) and few-shot selection from pairs (pure);
- `train`: LoRA training with peft on transformers, resumable, exported with a manifest;
- `evaluate`: `run_guardian_eval`, the logic of `drowzee eval guardian` (private server, cache, scoring);
- `manifest`: manifests written only by code, metrics keyed by data sha256 and slice, `check_adapter`;
- `judge`: training and measuring the grounded judge (the model it trains runs from `drowzee_core.llm.judge`).

The figures with bootstrap intervals beside the constant baselines are `drowzee_core.oracles.stats`.
"""

import importlib
from types import ModuleType

__all__ = ["config", "data", "evaluate", "judge", "manifest", "train"]


def __getattr__(name: str) -> ModuleType:
    """Import a listed submodule on first access (`finetune.config`, ...)."""
    if name in __all__:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
