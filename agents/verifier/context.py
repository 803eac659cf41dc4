"""What LangGraph hands every node as `runtime.context`: the settings and the services built from them.

It is not checkpointed: the services (KB, Prolog, readers, retrieval, models) live with the process.
"""

from __future__ import annotations

from dataclasses import dataclass

from agents.verifier.services import Services
from agents.verifier.settings import VerifierSettings


@dataclass
class VerifierContext:
    """What every node receives: the settings and the services built from them."""

    settings: VerifierSettings
    services: Services


__all__ = ["VerifierContext"]
