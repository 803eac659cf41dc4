"""The Gradio UI: one tab a module (`chat`, `batch`, `benchmark`, `train`, `kb`), each `tab(runtime)`."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import gradio as gr

    from service.runtime import Runtime

THEME_CSS = """
.dz-verdict { border-radius: 10px; padding: 12px 16px; margin: 4px 0 8px; }
.dz-factual { background: #ecfdf5; border: 1px solid #10b981; }
.dz-nonfactual { background: #fef2f2; border: 1px solid #ef4444; }
.dz-undecided { background: #f8fafc; border: 1px dashed #94a3b8; }
.dz-claim-supported { background: #d1fae5; border-bottom: 2px solid #059669; }
.dz-claim-contradicted { background: #fee2e2; border-bottom: 2px solid #dc2626; }
.dz-claim-unknown { background: #fef9c3; border-bottom: 2px dashed #ca8a04; }
.dz-muted { color: #6b7280; font-size: 0.9em; }
.dz-verdict, .dz-claim, .dz-chip, .dz-degraded, .dz-error { color: #111827; }
.dz-verdict-head { display: flex; align-items: baseline; justify-content: space-between; gap: 12px; }
.dz-verdict-label { font-size: 1.35em; font-weight: 700; letter-spacing: 0.02em; }
.dz-factual .dz-verdict-label { color: #047857; }
.dz-nonfactual .dz-verdict-label { color: #b91c1c; }
.dz-undecided .dz-verdict-label { color: #475569; }
.dz-verdict-conf { font-weight: 600; color: #374151; }
.dz-verdict-lean { font-size: 0.85em; color: #64748b; }
.dz-verdict-decision { font-size: 0.9em; font-weight: 600; color: #4b5563; margin: 2px 0 0; }
.dz-undecided .dz-verdict-decision { font-weight: 400; margin-bottom: 8px; }
.dz-confbar { height: 6px; border-radius: 3px; background: rgba(0,0,0,0.08); margin: 6px 0 10px; overflow: hidden; }
.dz-confbar span { display: block; height: 100%; border-radius: 3px; }
.dz-factual .dz-confbar span { background: #10b981; }
.dz-nonfactual .dz-confbar span { background: #ef4444; }
.dz-explanation { line-height: 1.5; margin: 8px 0; white-space: pre-wrap; }
.dz-degraded { background: #fffbeb; border: 1px solid #f59e0b; border-radius: 8px; padding: 8px 12px; margin: 8px 0; }
.dz-degraded ul { margin: 4px 0 0 1.2em; padding: 0; }
.dz-error { background: #fef2f2; border: 1px solid #ef4444; border-radius: 10px; padding: 10px 14px; margin: 4px 0; }
.dz-error div { white-space: pre-wrap; margin-top: 4px; }
.dz-error-text { color: #b91c1c; }
.dz-section { margin: 6px 0 10px; }
.dz-section-title { font-weight: 600; font-size: 0.95em; margin: 0 0 6px; color: #4b5563; }
.dz-response { line-height: 1.9; padding: 10px 12px; border-radius: 8px; border: 1px solid #e5e7eb; }
.dz-claim { border-radius: 3px; padding: 1px 0; }
.dz-sup { font-size: 0.72em; color: #6b7280; margin: 0 2px; }
.dz-panel a.dz-cite { text-decoration: none; font-weight: 600; color: #4f46e5; padding: 0 1px; margin: 0; }
.dz-claims { list-style: none; padding: 0; margin: 8px 0 0; }
.dz-claims li { margin: 4px 0; line-height: 1.5; }
.dz-chip { display: inline-block; border-radius: 999px; padding: 0 8px; font-size: 0.8em; font-weight: 600;
  background: #e5e7eb; white-space: nowrap; }
.dz-chip-supported, .dz-chip-factual { background: #d1fae5; color: #065f46; }
.dz-chip-contradicted, .dz-chip-nonfactual, .dz-chip-error { background: #fee2e2; color: #991b1b; }
.dz-chip-unknown { background: #fef9c3; color: #854d0e; }
.dz-chip-by { background: #e0e7ff; color: #3730a3; }
.dz-chip-uncounted { background: #f1f5f9; color: #475569; border: 1px dashed #94a3b8; }
.dz-claims li.dz-claim-row { border-left: 3px solid #e5e7eb; padding-left: 8px; }
.dz-claims li.dz-row-supported { border-left-color: #059669; }
.dz-claims li.dz-row-contradicted { border-left-color: #dc2626; }
.dz-claims li.dz-row-unknown { border-left-color: #ca8a04; }
.dz-claim-by { font-size: 0.88em; margin-top: 1px; }
.dz-panel .dz-table tr.dz-uncounted td { color: #6b7280; }
.dz-chip-source { background: #e0e7ff; color: #3730a3; }
.dz-panel .dz-table { width: 100%; border-collapse: collapse; font-size: 0.92em; border: none; margin: 0; }
.dz-panel .dz-table th { text-align: left; font-weight: 600; color: #4b5563; border: none;
  border-bottom: 2px solid #e5e7eb; padding: 4px 8px; background: transparent; }
.dz-panel .dz-table td { vertical-align: top; border: none; border-bottom: 1px solid #eef0f3; padding: 5px 8px; }
.dz-panel .dz-table tr { border: none; }
.dz-panel .dz-table tr:target td { background: #eef2ff; }
.dz-nowrap { white-space: nowrap; }
.dz-more > summary { cursor: pointer; color: #4b5563; margin: 6px 0; }
.dz-num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.dz-proofs > summary { cursor: pointer; font-weight: 600; }
.dz-proof-card { border-left: 3px solid #a5b4fc; padding: 2px 0 2px 10px; margin: 6px 0; }
.dz-proof summary { cursor: pointer; }
.dz-progress { font-size: 0.92em; line-height: 1.6; }
.dz-node { margin: 1px 0; }
.dark .dz-section-title { color: #cbd5e1; }
.dark .dz-panel .dz-table th { color: #cbd5e1; }
.dark .dz-panel .dz-more > summary { color: #cbd5e1; }
.dark .dz-panel .dz-table th { border-bottom-color: #475569; }
.dark .dz-panel mark.dz-claim { color: #f3f4f6; }
.dark .dz-panel .dz-table td { border-bottom-color: #334155; }
.dark .dz-panel .dz-table tr:target td { background: #312e81; }
.dark .dz-panel a.dz-cite { color: #a5b4fc; }
.dark .dz-verdict { color: inherit; }
.dark .dz-claim { color: inherit; }
.dark .dz-degraded { color: inherit; }
.dark .dz-error { color: inherit; }
.dark .dz-factual { background: rgba(16, 185, 129, 0.12); }
.dark .dz-nonfactual { background: rgba(239, 68, 68, 0.12); }
.dark .dz-undecided { background: rgba(148, 163, 184, 0.12); }
.dark .dz-undecided .dz-verdict-label { color: #cbd5e1; }
.dark .dz-verdict-lean, .dark .dz-verdict-decision { color: #cbd5e1; }
.dark .dz-panel .dz-table tr.dz-uncounted td { color: #94a3b8; }
.dark .dz-error { background: rgba(239, 68, 68, 0.12); }
.dark .dz-degraded { background: rgba(245, 158, 11, 0.12); }
.dark .dz-factual .dz-verdict-label { color: #34d399; }
.dark .dz-nonfactual .dz-verdict-label { color: #f87171; }
.dark .dz-verdict-conf { color: #e5e7eb; }
.dark .dz-confbar { background: rgba(255, 255, 255, 0.12); }
.dark .dz-claim-supported { background: rgba(16, 185, 129, 0.28); }
.dark .dz-claim-contradicted { background: rgba(239, 68, 68, 0.3); }
.dark .dz-claim-unknown { background: rgba(234, 179, 8, 0.25); }
.dark .dz-response { border-color: #334155; }
.dark .dz-muted { color: #94a3b8; }
.dark .dz-error-text { color: #fca5a5; }
"""
"""Styles shared by the tabs' HTML (class names start with `dz-`)."""


def theme() -> gr.themes.Base:
    """A calm theme on system fonts (no font download: the UI works offline)."""
    import gradio as gr

    return gr.themes.Soft(
        primary_hue="indigo",
        neutral_hue="slate",
        font=["ui-sans-serif", "system-ui", "Segoe UI", "Roboto", "sans-serif"],
        font_mono=["ui-monospace", "SFMono-Regular", "Menlo", "monospace"],
    )


def build_ui(runtime: Runtime) -> gr.Blocks:
    """The Blocks app with every tab."""
    import gradio as gr

    from service.ui import batch, benchmark, chat, kb, train

    demo = gr.Blocks(title="Drowzee Triangulator")
    with demo:
        gr.Markdown(
            "# Drowzee Triangulator\n"
            "Find fact-conflicting hallucinations in LLM output, and see *why*: claims proved or refuted by"
            " Prolog over the knowledge base, evidence from search, and a trained Guardian, arbitrated into"
            " one verdict. REST API: [`/docs`](/docs)."
        )
        with gr.Tabs():
            chat.tab(runtime)
            batch.tab(runtime)
            benchmark.tab(runtime)
            train.tab(runtime)
            kb.tab(runtime)
    return demo


__all__ = ["THEME_CSS", "build_ui", "theme"]
