"""The `judge` role at run time: does the evidence support the response? One calibrated probability per input.

`scoring` holds the two implementations behind `Judge.score` (the in-process `LocalJudge` and the
`LLMJudge` on any OpenAI-compatible model) and `judge_for`, which picks one for a role. The local
judge's parts: the MiniLM cross-encoder (`cross_encoder`) or the alignment model (`align`,
`align_features`), evidence chunking and claim aggregation (`chunk`), Platt calibration with a
not-enough-evidence band (`calibrate`) and the adapter folder's checked manifest (`manifest`).
Training them is `finetune.judge`'s work. Names load on first use (the models import torch).
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from drowzee_core.llm.judge.calibrate import Calibration, fit_calibration
    from drowzee_core.llm.judge.chunk import score_inputs, split_claims
    from drowzee_core.llm.judge.manifest import JudgeModel, read_manifest, shipped_judge_dir
    from drowzee_core.llm.judge.scoring import (
        Judge,
        JudgeIn,
        LLMJudge,
        LocalJudge,
        is_in_process,
        judge_for,
        label_probability,
    )

_EXPORTS = {
    "Calibration": "calibrate",
    "fit_calibration": "calibrate",
    "score_inputs": "chunk",
    "split_claims": "chunk",
    "JudgeModel": "manifest",
    "read_manifest": "manifest",
    "shipped_judge_dir": "manifest",
    "Judge": "scoring",
    "JudgeIn": "scoring",
    "LLMJudge": "scoring",
    "LocalJudge": "scoring",
    "is_in_process": "scoring",
    "judge_for": "scoring",
    "label_probability": "scoring",
}
__getattr__ = lazy_exports(__name__, {k: f"{__name__}.{m}" for k, m in _EXPORTS.items()})
__all__ = [
    "Calibration",
    "Judge",
    "JudgeIn",
    "JudgeModel",
    "LLMJudge",
    "LocalJudge",
    "fit_calibration",
    "is_in_process",
    "judge_for",
    "label_probability",
    "read_manifest",
    "score_inputs",
    "shipped_judge_dir",
    "split_claims",
]
