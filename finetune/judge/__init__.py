"""The grounded judge: its training data (`data`), the surface-cue check (`cues`) and the model.

Model side: `CrossEncoder` (MiniLM + LoRA, `model`), evidence chunking and claim aggregation
(`chunk`), Platt calibration with a not-enough-evidence band (`calibrate`), training (`train`),
metrics with baselines and intervals (`evaluate`) and the exported adapter with its manifest
(`export`). Names load on first use (the data builders import Prolog and the KB only when called;
the model imports torch).
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from finetune.judge.calibrate import Calibration, fit_calibration
    from finetune.judge.chunk import pack_chunks, score_inputs, split_claims
    from finetune.judge.cues import CueReport, cue_features, surface_cue_check
    from finetune.judge.data import MixConfig, build_mix, dev_set, fingerprint, mix, read_shared
    from finetune.judge.evaluate import balanced_accuracy_ci, length_matched, read_inputs, summarize
    from finetune.judge.export import calibrate_on_dev, export_judge, read_manifest, shipped_judge_dir
    from finetune.judge.model import CrossEncoder, LabelTokenJudge, LoraSpec
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
    "Calibration": "calibrate",
    "fit_calibration": "calibrate",
    "pack_chunks": "chunk",
    "score_inputs": "chunk",
    "split_claims": "chunk",
    "balanced_accuracy_ci": "evaluate",
    "length_matched": "evaluate",
    "read_inputs": "evaluate",
    "summarize": "evaluate",
    "calibrate_on_dev": "export",
    "export_judge": "export",
    "read_manifest": "export",
    "shipped_judge_dir": "export",
    "CrossEncoder": "model",
    "LabelTokenJudge": "model",
    "LoraSpec": "model",
    "JudgeTrainConfig": "train",
    "JudgeTrainResult": "train",
    "train_judge": "train",
}
__getattr__ = lazy_exports(__name__, {k: f"{__name__}.{m}" for k, m in _EXPORTS.items()})
__all__ = [
    "Calibration",
    "CrossEncoder",
    "CueReport",
    "JudgeTrainConfig",
    "JudgeTrainResult",
    "LabelTokenJudge",
    "LoraSpec",
    "MixConfig",
    "balanced_accuracy_ci",
    "build_mix",
    "calibrate_on_dev",
    "cue_features",
    "dev_set",
    "export_judge",
    "fingerprint",
    "fit_calibration",
    "length_matched",
    "mix",
    "pack_chunks",
    "read_inputs",
    "read_manifest",
    "read_shared",
    "score_inputs",
    "shipped_judge_dir",
    "split_claims",
    "summarize",
    "surface_cue_check",
    "train_judge",
]
