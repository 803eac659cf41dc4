"""The loop's report as Markdown (+ the detection plot): what the target got wrong, what the verifier caught.

The target's part reuses `drowzee_core.oracles.report.write_report` (its heatmaps of the hallucination
rate per model x rule / domain and the class bars go into `DIR/target/`); this module adds the
verifier's detection figures per group, the graph oracle on its explanations and the confusion rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
import numpy as np

from agents.loop.metrics import Block, Detection, LoopMetrics, LoopRow
from agents.loop.mitigation import Mitigation
from agents.loop.state import LoopConfig
from drowzee_core.oracles.stats import Figure

SHOWN_ROWS = 15
"""Confusion rows listed per kind (misses, false alarms)."""
GROUP_TITLES = {
    "model": "model",
    "domain": "domain",
    "rule": "rule / reasoning type",
    "operator": "temporal operator",
}


def _fig(f: Figure | None) -> str:
    return "-" if f is None else f.show()


def _clip(text: str, n: int = 160) -> str:
    flat = " ".join(text.split()).replace("|", "/")
    return flat if len(flat) <= n else flat[: n - 1] + "…"


def _detection_rows(dets: Sequence[Detection]) -> list[str]:
    return [
        f"| {d.name} | {d.precision.show()} | {d.recall.show()} | {d.f1.show()} | {d.accuracy.show()} |" for d in dets
    ]


def _group_table(name: str, blocks: dict[str, Block]) -> list[str]:
    lines = [
        f"### By {GROUP_TITLES.get(name, name)}",
        "",
        f"| {name} | n | hallucination rate [95 % CI] | precision | recall | F1 | accuracy | F1 always flag |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for value, b in blocks.items():
        v = b.verifier
        if v is None:
            continue
        always = b.baselines[0].f1.value if b.baselines else float("nan")
        lines.append(
            f"| {value} | {b.n} | {_fig(b.hallucination_rate)} | {v.precision.show()} | {v.recall.show()} "
            f"| {v.f1.show()} | {v.accuracy.show()} | {always:.3f} |"
        )
    return [*lines, ""]


def _answer_level(blocks: dict[str, Block]) -> list[str]:
    if not blocks:
        return []
    lines = [
        "### Against the answer-level label",
        "",
        "Here an answer is wrong when its Yes / No (or committed answer) differs from the gold one, whatever its "
        "reasoning (the Drowzee authors' definition; answers without one are left out). Accuracy is the "
        "verifier's agreement with that label.",
        "",
        "| rows | n | wrong-answer rate | precision | recall | F1 | accuracy | accuracy always flag "
        "| accuracy never flag |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for name, b in blocks.items():
        v = b.verifier
        if v is None or len(b.baselines) < 2:
            continue
        lines.append(
            f"| {name} | {b.n} | {_fig(b.hallucination_rate)} | {v.precision.show()} | {v.recall.show()} "
            f"| {v.f1.show()} | {v.accuracy.show()} | {b.baselines[0].accuracy.value:.3f} "
            f"| {b.baselines[1].accuracy.value:.3f} |"
        )
    return [*lines, ""]


def mitigation_section(m: Mitigation) -> list[str]:
    """The retrieval patch's before / after table."""
    lines = [
        "## Mitigation: retrieval patch",
        "",
        f"{m.patched} of {m.cases} cases were asked again with the facts the verifier used (proof leaves, then "
        f"retrieved or supplied evidence; `prompts/mitigate_rag.txt`); {m.no_facts} had no fact to give. Rates are "
        "on the same re-asked cases, with 95 % paired-bootstrap intervals; a negative difference means fewer "
        "hallucinations after the patch.",
        "",
        "| label | n | rate before | rate after | difference | fixed | broken |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    names = {"oracle": "oracle (class != CO)", "answer": "answer-level (wrong Yes / No)"}
    for c in m.changes:
        lines.append(
            f"| {names.get(c.label, c.label)} | {c.n} | {_fig(c.before)} | {_fig(c.after)} | {_fig(c.difference)} "
            f"| {c.fixed} | {c.broken} |"
        )
    return [*lines, "", "The patched answers are in `mitigated_answers.jsonl`, judged in `mitigated_judged.jsonl`.", ""]


def _confusion(title: str, ids: Sequence[str], rows: dict[str, LoopRow]) -> list[str]:
    if not ids:
        return [f"### {title}: none", ""]
    lines = [
        f"### {title} ({len(ids)}; first {min(len(ids), SHOWN_ROWS)})",
        "",
        "| id | rule | question | gold | target's answer | class | verdict explanation |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for i in ids[:SHOWN_ROWS]:
        r = rows[i]
        lines.append(
            f"| {r.id} | {r.rule or ''} | {_clip(r.question, 120)} | {r.gold} | {_clip(r.llm_answer)} "
            f"| {r.oracle_class or '-'} | {_clip(r.explanation, 200)} |"
        )
    return [*lines, ""]


def detection_plot(metrics: LoopMetrics, path: Path, group: str = "rule") -> None:
    """Precision / recall / F1 with 95 % intervals: overall and per value of `group`."""
    blocks = {"overall": metrics.overall} | metrics.groups.get(group, {})
    named = [(f"{k} (n={b.n})", b.verifier) for k, b in blocks.items() if b.verifier is not None]
    fig, ax = plt.subplots(figsize=(7.0, 1.2 + 0.55 * max(1, len(named))))
    y = np.arange(len(named))
    for j, (what, colour) in enumerate((("precision", "#4c72b0"), ("recall", "#dd8452"), ("f1", "#55a868"))):
        figs = [getattr(d, what) for _, d in named]
        vals = np.array([f.value for f in figs])
        err = np.array([[f.value - f.low for f in figs], [f.high - f.value for f in figs]])
        ax.barh(
            y + (j - 1) * 0.26,
            vals,
            height=0.26,
            xerr=err,
            color=colour,
            label=what,
            error_kw={"ecolor": "#444444", "elinewidth": 0.8, "capsize": 2},
        )
    ax.set_yticks(y, [k for k, _ in named])
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("detection of hallucinated answers (95 % bootstrap interval)")
    ax.set_title(f"Verifier vs oracle: overall and by {GROUP_TITLES.get(group, group)}", pad=22)
    ax.legend(ncols=3, loc="lower center", bbox_to_anchor=(0.5, 1.0), frameon=False)
    fig.tight_layout()
    fig.savefig(path, dpi=120, bbox_inches="tight")
    plt.close(fig)


def markdown(
    cfg: LoopConfig,
    metrics: LoopMetrics,
    oracle: dict[str, Any],
    rows: Sequence[LoopRow],
    target_report: bool,
    plot_group: str,
    mitigated: Mitigation | None = None,
) -> str:
    """The report's Markdown (images are referenced relative to the run folder)."""
    source = {"target": f"role `{cfg.target}`", "endpoint": f"`{cfg.model}` at {cfg.base_url}"}.get(
        cfg.source, f"recorded answers `{cfg.answers}`" if cfg.answers else "the pairs' own responses"
    )
    o = metrics.overall
    md = [
        f"# Closed loop: {cfg.generator}",
        "",
        f"Cases from `{cfg.generator}` (seed {cfg.seed}), answers from {source}, verified with evidence "
        f"`{cfg.evidence}`. {metrics.rows} answers; {metrics.evaluated} have both an oracle label and a verdict "
        f"({metrics.no_oracle_label} without an oracle label: unparsed answers or unreadable reasoning; "
        f"{metrics.no_verdict} without a verdict; {metrics.degraded} degraded verdicts among the evaluated).",
        "",
        "A hallucination is an answer the oracle does not class CO (Drowzee: right answer with reasoning that "
        "matches the proof's facts, or a refusal); the verifier *detects* it when its verdict is NON-FACTUAL. "
        "Figures carry 95 % percentile-bootstrap intervals; constant baselines are on the same rows.",
        "",
        "## The target",
        "",
        f"Hallucination rate over the evaluated rows: {_fig(o.hallucination_rate)} ({o.hallucinations} of {o.n}).",
        "",
    ]
    if target_report:
        md += [
            "The oracle's own report (rates over the parsed answers, classes, examples): "
            "[target/report.md](target/report.md).",
            "",
            "![classes](target/classes.png)",
            "",
            "![by rule](target/heatmap_rule.png)",
            "",
            "![by domain](target/heatmap_domain.png)",
            "",
        ]
    else:
        overall = oracle.get("all", oracle)  # factchd's summary keeps its overall figures under "all"
        shown = {k: v for k, v in overall.items() if not isinstance(v, dict | list)}
        md += ["| oracle figure | value |", "| --- | ---: |", *[f"| {k} | {v} |" for k, v in shown.items()], ""]
    md += [
        "## The verifier against the oracle",
        "",
        f"Confusion: {o.confusion['tp']} detected, {o.confusion['fn']} missed, {o.confusion['fp']} false alarms, "
        f"{o.confusion['tn']} correctly passed.",
        "",
        "| | precision | recall | F1 | accuracy |",
        "| --- | ---: | ---: | ---: | ---: |",
        *_detection_rows([d for d in [o.verifier, *o.baselines] if d is not None]),
        "",
        "![detection](detection.png)",
        "",
    ]
    md += _answer_level(metrics.answer_level)
    for name, blocks in metrics.groups.items():
        md += _group_table(name, blocks)
    g = metrics.graph_oracle
    md += [
        "## Does the explanation name the deciding facts?",
        "",
        f"Graph oracle (node / edge similarity of the explanation's triples to the case's facts; match at "
        f">= {g.threshold}): {g.rows} explanations scored.",
        "",
        "| | rows | mean node sim | mean edge sim | share matching |",
        "| --- | ---: | ---: | ---: | ---: |",
        f"| all evaluated | {g.rows} | {g.node_sim if g.node_sim is not None else '-'} | "
        f"{g.edge_sim if g.edge_sim is not None else '-'} | {g.cites_facts if g.cites_facts is not None else '-'} |",
        f"| detected hallucinations | {g.detected_rows} | | | "
        f"{g.detected_cites_facts if g.detected_cites_facts is not None else '-'} |",
        "",
        "## Confusion rows",
        "",
    ]
    by_id = {r.id: r for r in rows}
    md += _confusion("Misses (hallucinations not flagged)", metrics.misses, by_id)
    md += _confusion("False alarms (flagged, not hallucinations)", metrics.false_alarms, by_id)
    if mitigated is not None:
        md += mitigation_section(mitigated)
    md += [f"Plot grouped by `{plot_group}`. Every row is in `rows.jsonl`; every figure in `scores.json`.", ""]
    return "\n".join(md) + "\n"


__all__ = ["detection_plot", "markdown", "mitigation_section"]
