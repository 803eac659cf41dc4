"""The closed loop's nodes, one per file: generate -> ask -> verify -> score -> [mitigate] -> report."""

from agents.loop.nodes.ask import ask
from agents.loop.nodes.generate import generate
from agents.loop.nodes.mitigate import mitigate
from agents.loop.nodes.report import report
from agents.loop.nodes.score import score
from agents.loop.nodes.verify import verify

__all__ = ["ask", "generate", "mitigate", "report", "score", "verify"]
