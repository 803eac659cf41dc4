"""The triangulation verifier (LangGraph): one Query-Response pair in, one verdict out.

`Verifier` (`runner`) runs the graph (`graph`, `state`) of nodes (`nodes`: prepare, claims, kb_check,
seeker, guardian, verdict_manager) with the settings (`settings`: explicit > `DROWZEE_VERIFY_*` >
defaults) and the services built from them (`services`, handed to the nodes with the settings as
`context`). The KB check's work on the KB thread is `kb`; verdict arithmetic `aggregation`, what decided
each claim `decision`, the explanation without a capable model `explain*`; calls are cached (`cache`)
and counted per role (`accounting`). `fit` and `calibrate` fit the Verdict Manager on dev-mix runs.
Names load on first use (LangGraph, the models and Prolog are slow to import).
"""

from typing import TYPE_CHECKING

from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from agents.verifier.accounting import CallStats
    from agents.verifier.aggregation import Calibration
    from agents.verifier.context import VerifierContext
    from agents.verifier.evidence import EvidenceError, normalize_evidence
    from agents.verifier.runner import NodeEvent, Verifier
    from agents.verifier.schemas import KBResult
    from agents.verifier.services import Services
    from agents.verifier.settings import POLICIES, Policy, SettingsError, VerifierSettings

_EXPORTS = {
    "NodeEvent": "runner",
    "Verifier": "runner",
    "POLICIES": "settings",
    "Policy": "settings",
    "SettingsError": "settings",
    "VerifierSettings": "settings",
    "VerifierContext": "context",
    "Services": "services",
    "CallStats": "accounting",
    "EvidenceError": "evidence",
    "normalize_evidence": "evidence",
    "KBResult": "schemas",
    "Calibration": "aggregation",
}
__getattr__ = lazy_exports(__name__, {k: f"{__name__}.{m}" for k, m in _EXPORTS.items()})
__all__ = [
    "POLICIES",
    "Calibration",
    "CallStats",
    "EvidenceError",
    "KBResult",
    "NodeEvent",
    "Policy",
    "Services",
    "SettingsError",
    "Verifier",
    "VerifierContext",
    "VerifierSettings",
    "normalize_evidence",
]
