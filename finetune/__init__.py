"""LoRA training and evaluation of the Truth Guardian on generated Query-Response pairs.

`build_examples` turns FactCHD-style pairs into prompt/target examples (guardian, judge, arbitration
modes); `TrainConfig` validates a run's settings; `train` LoRA-tunes a base model and exports the
adapter with a manifest; `evaluate` answers pairs through the runner and scores them with FactCHD's
metrics. Names load on first use (torch and transformers are slow to import).
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from finetune.config import TrainConfig
    from finetune.data import build_example, build_examples, fingerprint
    from finetune.evaluate import eval_cases, evaluate
    from finetune.train import TrainResult, train

_EXPORTS = {
    "TrainConfig": "config",
    "build_example": "data",
    "build_examples": "data",
    "fingerprint": "data",
    "eval_cases": "evaluate",
    "evaluate": "evaluate",
    "TrainResult": "train",
    "train": "train",
}
__getattr__ = lazy_exports(__name__, {k: f"{__name__}.{m}" for k, m in _EXPORTS.items()})
__all__ = [
    "TrainConfig",
    "TrainResult",
    "build_example",
    "build_examples",
    "eval_cases",
    "evaluate",
    "fingerprint",
    "train",
]
