"""The verifier's nodes, one a file: prepare, claims, kb_check, seeker, guardian, verdict_manager."""

from agents.verifier.nodes.claims import claims
from agents.verifier.nodes.guardian import guardian
from agents.verifier.nodes.kb_check import kb_check
from agents.verifier.nodes.prepare import prepare
from agents.verifier.nodes.seeker import seeker
from agents.verifier.nodes.verdict_manager import verdict_manager

__all__ = ["claims", "guardian", "kb_check", "prepare", "seeker", "verdict_manager"]
