"""What the Benchmark tab shows of a loop run folder: its progress and its report. Pure reads of files.

The report's Markdown references its plots by paths relative to the run folder; they are inlined as
`data:` URIs so the page needs no file route (the run folder is outside Gradio's allowed paths), and
the oracle's own report (`target/report.md`) is appended in a collapsed section.
"""

from __future__ import annotations

import base64
import json
import logging
import re
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

log = logging.getLogger(__name__)

NODES = ("generate", "ask", "verify", "score", "report")
"""The loop's nodes in order (`agents/loop/graph.py`)."""
_IMG = re.compile(r'<img src="([^"]+)"')
_LINK = re.compile(r'<a href="([^"]+)">(.*?)</a>')
_MD = MarkdownIt("commonmark", {"html": False}).enable("table")


@dataclass(frozen=True, slots=True)
class RunProgress:
    """How far a loop run has got."""

    finished: tuple[str, ...]
    """Nodes finished, in order."""
    verdicts: int
    """Rows of `verdicts.jsonl` written so far."""
    total: int | None
    """Answers to verify (known once `ask` has written them, else the requested n / limit)."""

    @property
    def fraction(self) -> float:
        """Overall progress in [0, 1]: each node a fifth, `verify` in proportion to its rows."""
        done = float(sum(n in self.finished for n in NODES))
        if "verify" not in self.finished and "ask" in self.finished and self.total:
            done += min(1.0, self.verdicts / self.total)
        return done / len(NODES)


def _lines(path: Path) -> int:
    try:
        with path.open("rb") as fh:
            return sum(1 for line in fh if line.strip())
    except FileNotFoundError:
        return 0


def _finished(out: Path) -> tuple[str, ...]:
    """Finished nodes from the checkpoints; from the files written when they cannot be read (a busy DB)."""
    try:
        from agents.loop.run import finished_nodes, has_run

        if has_run(out):
            return tuple(finished_nodes(out))
    except Exception as exc:  # a checkpoint DB being written may be locked for a moment
        log.debug("finished nodes of %s from its files: %s", out, exc)
    files = {"generate": "cases.jsonl", "ask": "answers.jsonl", "score": "scores.json", "report": "report.md"}
    done = [n for n in NODES if n != "verify" and (out / files[n]).exists()]
    if "score" in done:
        done.insert(2, "verify")
    return tuple(done)


def run_progress(out: Path, expected: int | None) -> RunProgress:
    """The progress of the run in `out`; `expected` is the requested n or limit (None: unknown)."""
    finished = _finished(out)
    total = _lines(out / "answers.jsonl") if "ask" in finished else expected
    return RunProgress(finished, _lines(out / "verdicts.jsonl"), total)


def bar_html(fraction: float) -> str:
    """A progress bar with its percentage (styled by `STAGES_CSS`)."""
    pct = round(100 * fraction)
    return (
        f"<div><div class='dz-bar'><div class='dz-bar-fill' style='width:{pct}%'></div></div>"
        f"<span class='dz-muted'>{pct} %</span></div>"
    )


def stages_html(prog: RunProgress, status: str) -> str:
    """The nodes as a row of chips: finished, current (while the job runs), to come; and a bar."""
    chips = []
    current = next((n for n in NODES if n not in prog.finished), None)
    for node in NODES:
        if node in prog.finished:
            cls, mark = "dz-stage-done", "&#10003; "
        elif node == current and status == "running":
            cls, mark = "dz-stage-now", "&#9679; "
        else:
            cls, mark = "dz-stage-todo", ""
        label = node
        if node == "verify" and prog.total and "ask" in prog.finished:
            label += f" {min(prog.verdicts, prog.total)}/{prog.total}"
        chips.append(f"<span class='dz-stage {cls}'>{mark}{escape(label)}</span>")
    bar = bar_html(1.0 if status == "done" else prog.fraction)
    return f"<div class='dz-stages'>{'&#8594;'.join(chips)}</div>{bar}"


def _data_uri(path: Path) -> str | None:
    if path.suffix.lower() != ".png" or not path.is_file():
        return None
    return "data:image/png;base64," + base64.b64encode(path.read_bytes()).decode("ascii")


def _render(md_path: Path, root: Path) -> str:
    """Markdown as HTML with its PNGs inlined; links to run files become plain text (they are shown inline)."""
    html = _MD.render(md_path.read_text(encoding="utf-8"))
    base = md_path.parent

    def img(m: re.Match[str]) -> str:
        target = (base / m.group(1)).resolve()
        uri = _data_uri(target) if target.is_relative_to(root.resolve()) else None
        return f'<img src="{uri}"' if uri else '<img alt="(missing plot)" src=""'

    def link(m: re.Match[str]) -> str:
        return m.group(0) if re.match(r"https?://", m.group(1)) else f"<code>{m.group(2)}</code>"

    html = html.replace("<table>", "<div class='dz-report-table'><table>").replace("</table>", "</table></div>")
    return _LINK.sub(link, _IMG.sub(img, html))


def _fig(f: dict[str, Any] | None) -> str:
    return "-" if not f else f"{f['value']:.3f} <span class='dz-muted'>[{f['low']:.2f}, {f['high']:.2f}]</span>"


def headline_html(out: Path) -> str:
    """The run's key figures from `scores.json` as cards (empty when there are no scores yet)."""
    try:
        v = json.loads((out / "scores.json").read_text(encoding="utf-8"))["verifier"]
        o = v["overall"]
    except (OSError, ValueError, KeyError):
        return ""
    c, det = o["confusion"], o.get("verifier") or {}
    cards = [
        ("target hallucination rate", _fig(o.get("hallucination_rate")), f"{o['hallucinations']} of {o['n']}"),
        ("verifier recall", _fig(det.get("recall")), f"{c['tp']} detected, {c['fn']} missed"),
        ("verifier precision", _fig(det.get("precision")), f"{c['fp']} false alarms, {c['tn']} passed"),
        ("verifier F1", _fig(det.get("f1")), f"{v['evaluated']} of {v['rows']} answers evaluated"),
    ]
    body = "".join(
        f"<div class='dz-card'><div class='dz-muted'>{t}</div><div class='dz-card-value'>{val}</div>"
        f"<div class='dz-muted'>{sub}</div></div>"
        for t, val, sub in cards
    )
    return f"<div class='dz-cards'>{body}</div>"


def report_html(out: Path) -> str:
    """The run's report (`report.md`) with its plots inlined, the key figures first, the oracle's report last."""
    md = out / "report.md"
    if not md.is_file():
        return ""
    parts = [headline_html(out), _render(md, out)]
    target = out / "target" / "report.md"
    if target.is_file():
        parts.append(
            "<details class='dz-target'><summary>The oracle's own report on the target's answers</summary>"
            f"{_render(target, out)}</details>"
        )
    return f"<div class='dz-report'>{''.join(parts)}</div>"


def standalone_report(out: Path, dest: Path) -> Path:
    """Write the report as one self-contained HTML page (plots inlined) to `dest`, for download."""
    page = (
        "<!doctype html><html><head><meta charset='utf-8'><title>Closed loop report</title>"
        f"<style>{REPORT_CSS}</style></head><body>{report_html(out)}</body></html>\n"
    )
    dest.write_text(page, encoding="utf-8")
    return dest


REPORT_CSS = """
.dz-report { font-size: 0.95em; line-height: 1.45; max-width: 72em; }
.dz-report .dz-report-table { overflow-x: auto; margin: 0.5em 0 1em; }
.dz-report table { border-collapse: collapse; font-size: 0.92em; border: none; }
.dz-report tr, .dz-report thead, .dz-report tbody { border: none; }
.dz-report th, .dz-report td { padding: 3px 9px; border: none;
  border-bottom: 1px solid var(--border-color-primary, #e5e7eb); text-align: left; }
.dz-report th { background: var(--background-fill-secondary, #f8fafc); }
.dz-report img { max-width: 100%; height: auto; display: block; margin: 0.5em 0; }
.dz-report h1 { font-size: 1.5em; } .dz-report h2 { font-size: 1.25em; margin-top: 1.2em; }
.dz-report code { font-size: 0.9em; word-break: break-all; }
.dz-cards { display: flex; flex-wrap: wrap; gap: 10px; margin: 6px 0 12px; }
.dz-card { border: 1px solid var(--border-color-primary, #e5e7eb); border-radius: 10px; padding: 10px 14px;
  min-width: 12em; background: var(--background-fill-secondary, #fafafa); }
.dz-card-value { font-size: 1.35em; font-weight: 600; margin: 2px 0; }
.dz-target { margin-top: 1.5em; } .dz-target summary { cursor: pointer; font-weight: 600; }
.dz-muted { color: var(--body-text-color-subdued, #6b7280); font-size: 0.9em; }
"""
"""Styles of the report (inside the tab and in the downloaded page)."""

STAGES_CSS = """
.dz-stages { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; margin: 4px 0 8px; }
.dz-stage { border-radius: 999px; padding: 2px 10px; font-size: 0.9em; border: 1px solid #d1d5db; }
.dz-stage-done { background: #d1fae5; border-color: #10b981; color: #065f46; }
.dz-stage-now { background: #e0e7ff; border-color: #6366f1; color: #3730a3; font-weight: 600; }
.dz-stage-todo { color: #9ca3af; }
.dz-bar { display: inline-block; width: 60%; height: 8px; border-radius: 4px;
  background: var(--border-color-primary, #e5e7eb);
  vertical-align: middle; margin-right: 8px; overflow: hidden; }
.dz-bar-fill { height: 100%; background: #6366f1; }
"""
"""Styles of the progress chips and bar."""

__all__ = [
    "NODES",
    "REPORT_CSS",
    "STAGES_CSS",
    "RunProgress",
    "bar_html",
    "headline_html",
    "report_html",
    "run_progress",
    "stages_html",
    "standalone_report",
]
