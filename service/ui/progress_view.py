"""The Chat tab's live progress: one line per finished verifier node (pure, escaped HTML)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any

from drowzee_core.oracles.decisions import lean_of
from drowzee_core.records.verdict import Decision, Verdict
from service.ui.render import STATUS_CLASS, seconds_html

if TYPE_CHECKING:
    from agents.verifier.runner import NodeEvent


def _node_summary(node: str, update: Mapping[str, Any]) -> str:
    """What one node found, in a few words (escaped)."""
    if node == "prepare":
        n, t = len(update.get("gathered", [])), len(update.get("supplied_triples", []))
        return f"{n} supplied evidence item(s)" + (f", {t} triple(s)" if t else "") if n else "no evidence supplied"
    if node == "claims":
        n = len(update.get("claims", []))
        return f"{n} claim{'s' if n != 1 else ''} read"
    if node == "kb_check":
        results = update.get("kb_results")
        if results is None:
            return "skipped"
        counts: dict[str, int] = {}
        for r in results:
            counts[STATUS_CLASS[r.status]] = counts.get(STATUS_CLASS[r.status], 0) + 1
        said = ", ".join(f"{v} {k}" for k, v in counts.items()) or "no claim to prove"
        answers = update.get("answer_set")
        if answers is not None:
            said += f"; the response names {len(answers.named)} of the {len(answers.answers)} supplied answers"
        return said
    if node == "verdict_manager" and isinstance(update.get("verdict"), Verdict):
        v: Verdict = update["verdict"]
        if v.decision == Decision.UNDECIDED:
            lean, p = lean_of(v)
            said = f"not verified (lean {escape(lean.value)} {p:.2f})"
        else:
            said = f"{escape(v.decision.value)}, {escape(v.label.value)} {v.confidence:.2f}"
        return said + (" (degraded)" if v.degraded else "")
    bits = []
    if node == "seeker" and "gathered" in update:
        bits.append(f"{len(update['gathered'])} evidence item(s) found")
    for o in update.get("opinions", []):
        if o.error is None:
            conf = f" {o.confidence:.2f}" if o.confidence is not None else ""
            bits.append(f"{escape(o.label.value)}{conf}" if o.label is not None else "no label")
    return ", ".join(bits) or ("failed" if update.get("degraded") else "skipped")


def node_html(event: NodeEvent) -> str:
    """One line for a finished node: what it found, its time, and any failure it recorded (marked with a warning)."""
    update = event.update
    timing = update.get("timings", {}).get(event.node)
    summary = _node_summary(event.node, update)
    mark = "<span class='dz-error-text'>&#9888;</span>" if update.get("degraded") else "&#10003;"
    line = f"<div class='dz-node'>{mark} <strong>{escape(event.node)}</strong>: {summary}{seconds_html(timing)}"
    for reason in update.get("degraded", []):
        line += f"<div class='dz-error-text'>&#9888; {escape(str(reason))}</div>"
    return line + "</div>"


def progress_html(lines: Sequence[str], *, running: str | None = None) -> str:
    """The progress panel: the finished nodes' lines, then `running` (what is under way) when given."""
    tail = f"<div class='dz-node dz-muted'>&#8943; {escape(running)}</div>" if running else ""
    return f"<div class='dz-progress'>{''.join(lines)}{tail}</div>"


__all__ = ["node_html", "progress_html"]
