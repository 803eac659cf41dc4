"""The verifier's nodes, one a file: prepare, claims, kb_check, seeker, guardian, verdict_manager."""

from agents.nodes.claims import claims
from agents.nodes.guardian import guardian
from agents.nodes.kb_check import kb_check
from agents.nodes.prepare import prepare
from agents.nodes.seeker import seeker
from agents.nodes.verdict_manager import verdict_manager

__all__ = ["claims", "guardian", "kb_check", "prepare", "seeker", "verdict_manager"]
