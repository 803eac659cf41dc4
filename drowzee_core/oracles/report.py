"""Hallucination reports from scored Drowzee rows: Markdown + HTML with heatmap and bar PNGs.

Figures: hallucination rate (class != CO) per model x domain and per model x rule family / temporal
operator (heatmaps), the CO / OL / EI / EK breakdown per model (stacked bars), and answer accuracy.
Every rate is over the parsed answers (a yes / no / unsure was found); unparsed answers are counted
and shown in their own column, never as hallucinations.
"""

from __future__ import annotations

import html
import textwrap
from collections import defaultdict
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np
from markdown_it import MarkdownIt

from drowzee_core.oracles.score import group_key, summarize_drowzee
from drowzee_core.records.judged import HallucinationClass
from drowzee_core.records.summaries import DrowzeeSummary, HallucinationFigures

MD_WIDTH = 120
"""Longest line of report.md's prose (a table row is one line, whatever its length)."""

CLASS_COLOURS: dict[HallucinationClass, str] = {"CO": "#4c9f70", "OL": "#e0b040", "EI": "#d0743c", "EK": "#b8404a"}


def _by_model(rows: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for r in rows:
        out[str(r.get("model") or "model")].append(r)
    return dict(sorted(out.items()))


def _rate_or_nan(block: HallucinationFigures | None) -> float:
    """A cell's hallucination rate; NaN (blank) when the cell has no parsed, classified answer."""
    if block is None or block.hallucination_rate_ci95 is None:
        return float("nan")
    return block.hallucination_rate


def _axis(summary: DrowzeeSummary, axis: str) -> dict[str, HallucinationFigures]:
    return summary.by_domain if axis == "by_domain" else summary.by_rule


def _heatmap(models: dict[str, DrowzeeSummary], axis: str, title: str, path: Path) -> None:
    cols = sorted({k for s in models.values() for k in _axis(s, axis)})
    data = np.array([[_rate_or_nan(_axis(s, axis).get(c)) for c in cols] for s in models.values()])
    fig, ax = plt.subplots(figsize=(max(6.0, 0.9 * len(cols) + 2), max(2.8, 1.6 + 0.6 * len(models))))
    im = ax.imshow(data, cmap="Reds", vmin=0.0, vmax=1.0, aspect="auto")
    ax.set_xticks(range(len(cols)), cols, rotation=35, ha="right")
    ax.set_yticks(range(len(models)), list(models))
    for i in range(data.shape[0]):
        for j in range(data.shape[1]):
            if not np.isnan(data[i, j]):
                ax.text(
                    j,
                    i,
                    f"{data[i, j]:.2f}",
                    ha="center",
                    va="center",
                    color="white" if data[i, j] > 0.6 else "black",
                    fontsize=8,
                )
    ax.set_title(title)
    fig.colorbar(im, ax=ax, label="hallucination rate")
    fig.tight_layout()
    fig.savefig(path, dpi=120, bbox_inches="tight")  # long model names and rotated labels stay whole
    plt.close(fig)


def _class_bars(models: dict[str, DrowzeeSummary], path: Path) -> None:
    fig, ax = plt.subplots(figsize=(6.5, 1.2 + 0.6 * len(models)))
    left = np.zeros(len(models))
    for cls, colour in CLASS_COLOURS.items():
        vals = np.array([s.overall.classes[cls] / max(1, s.overall.classed) for s in models.values()])
        ax.barh(list(models), vals, left=left, color=colour, label=cls)
        left += vals
    ax.set_xlim(0, 1)
    ax.set_xlabel("share of parsed answers")
    ax.set_title("CO / OL / EI / EK per model", pad=22)
    # above the bars, outside the axes: below them it covers the tick labels of a one-model chart
    ax.legend(ncols=4, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def _rate(block: HallucinationFigures) -> str:
    """The hallucination rate with its 95 % interval, or "-" when no parsed answer has a class."""
    ci = block.hallucination_rate_ci95
    return "-" if ci is None else f"{block.hallucination_rate:.3f} [{ci[0]:.2f}, {ci[1]:.2f}]"


def write_report(
    rows: list[dict[str, Any]], out_dir: Path, title: str = "Hallucination report"
) -> dict[str, DrowzeeSummary]:
    """Write report.md, report.html and PNGs into `out_dir`; returns the per-model summaries."""
    out_dir.mkdir(parents=True, exist_ok=True)
    models = {m: summarize_drowzee(rs) for m, rs in _by_model(rows).items()}
    _heatmap(models, "by_domain", "Hallucination rate by domain", out_dir / "heatmap_domain.png")
    _heatmap(models, "by_rule", "Hallucination rate by rule family / temporal operator", out_dir / "heatmap_rule.png")
    _class_bars(models, out_dir / "classes.png")
    md = [
        f"# {title}",
        "",
        f"{len(rows)} scored answers, {len(models)} model(s). Accuracy, hallucination rate and classes are over",
        "the parsed answers (yes / no / unsure found); unparsed answers are counted apart, not as",
        "hallucinations. Rates carry a 95 % Wilson interval.",
        "",
        "| model | n | parsed | unparsed | answer accuracy | hallucination rate [95 % CI] | CO | OL | EI | EK "
        "| refused |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for m, s in models.items():
        o, c = s.overall, s.overall.classes
        md.append(
            f"| {m} | {o.n} | {o.parsed} | {o.unparsed} | {o.answer_accuracy:.3f} | {_rate(o)} | "
            f"{c['CO']} | {c['OL']} | {c['EI']} | {c['EK']} | {o.refused} |"
        )
    md += [
        "",
        "CO: right answer, reasoning matches the ground-truth facts (or a refusal). OL: right answer,",
        "reasoning off the facts. EI: wrong answer from matching knowledge. EK: wrong answer, wrong or",
        "missing knowledge.",
        "",
        "![classes](classes.png)",
        "",
        "![by domain](heatmap_domain.png)",
        "",
        "![by rule](heatmap_rule.png)",
        "",
    ]
    for m, s in models.items():
        md += [
            f"## {m}: by rule",
            "",
            "| rule | n | parsed | unparsed | answer accuracy | hallucination rate [95 % CI] |",
            "| --- | ---: | ---: | ---: | ---: | ---: |",
        ]
        md += [
            f"| {k} | {v.n} | {v.parsed} | {v.unparsed} | {v.answer_accuracy:.3f} | {_rate(v)} |"
            for k, v in s.by_rule.items()
        ]
        md.append("")
    examples = [r for r in rows if r["parsed_answer"] is not None and r["class"] not in ("CO", None)][:5]
    if examples:
        md += ["## Examples of hallucinations", ""]
        for r in examples:
            item = (
                f"- **{r['class']}** ({group_key(r, 'rule', 'reasoning')}) {r['question']} - gold "
                f"{r['answer']}, model: {' '.join(str(r['llm_answer']).split())[:200]}"
            )
            md += textwrap.wrap(item, width=MD_WIDTH, subsequent_indent="  ", break_on_hyphens=False)
    text = "\n".join(md) + "\n"
    (out_dir / "report.md").write_text(text, encoding="utf-8")
    (out_dir / "report.html").write_text(html_page(text, title), encoding="utf-8")
    return models


def html_page(markdown: str, title: str) -> str:
    """A self-contained HTML page of the Markdown report; raw HTML in model answers is escaped."""
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    style = (
        "body{font-family:sans-serif;max-width:60em;margin:2em auto}td,th{padding:2px 8px;border-bottom:1px solid #ddd}"
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
        f"<style>{style}</style></head><body>{body}</body></html>\n"
    )
