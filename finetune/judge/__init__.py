"""The grounded judge: its training data (`data`) and the surface-cue check of that data (`cues`).

Names load on first use (the data builders import Prolog and the KB only when called).
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from finetune.judge.cues import CueReport, cue_features, surface_cue_check
    from finetune.judge.data import MixConfig, build_mix, dev_set, fingerprint, mix, read_shared

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
}
__getattr__ = lazy_exports(__name__, {k: f"{__name__}.{m}" for k, m in _EXPORTS.items()})
__all__ = [
    "CueReport",
    "MixConfig",
    "build_mix",
    "cue_features",
    "dev_set",
    "fingerprint",
    "mix",
    "read_shared",
    "surface_cue_check",
]
