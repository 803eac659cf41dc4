"""Training the grounded judge, and measuring it.

Its data (`data`), the surface-cue check (`cues`), training (`train`, `align_train`), metrics with
baselines and intervals (`evaluate`), the exported adapter (`export`) and model (b) (`label_token`).

The model the service runs (the cross-encoder, the alignment model, chunking and calibration) lives in
`drowzee_core.llm.judge`; this package only builds and measures it. Names load on first use (the data
builders import Prolog and the KB only when called; the model imports torch).
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from finetune.judge.cues import CueReport, cue_features, surface_cue_check
    from finetune.judge.data import MixConfig, build_mix, dev_set, fingerprint, mix, read_shared
    from finetune.judge.evaluate import balanced_accuracy_ci, length_matched, read_inputs, summarize
    from finetune.judge.export import calibrate_on_dev, export_judge
    from finetune.judge.label_token import LabelTokenJudge
    from finetune.judge.train import JudgeTrainConfig, JudgeTrainResult, train_judge

_EXPORTS = {
    "CueReport": "cues",
    "cue_features": "cues",
    "surface_cue_check": "cues",
    "MixConfig": "data",
    "build_mix": "data",
    "dev_set": "data",
    "fingerprint": "data",
    "mix": "data",
    "read_shared": "data",
    "balanced_accuracy_ci": "evaluate",
    "length_matched": "evaluate",
    "read_inputs": "evaluate",
    "summarize": "evaluate",
    "calibrate_on_dev": "export",
    "export_judge": "export",
    "LabelTokenJudge": "label_token",
    "JudgeTrainConfig": "train",
    "JudgeTrainResult": "train",
    "train_judge": "train",
}
__getattr__ = lazy_exports(__name__, {k: f"{__name__}.{m}" for k, m in _EXPORTS.items()})
__all__ = [
    "CueReport",
    "JudgeTrainConfig",
    "JudgeTrainResult",
    "LabelTokenJudge",
    "MixConfig",
    "balanced_accuracy_ci",
    "build_mix",
    "calibrate_on_dev",
    "cue_features",
    "dev_set",
    "export_judge",
    "fingerprint",
    "length_matched",
    "mix",
    "read_inputs",
    "read_shared",
    "summarize",
    "surface_cue_check",
    "train_judge",
]
