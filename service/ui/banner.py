"""The verdict banner: what was decided and how sure, or "Not verified" with the models' lean (pure, escaped HTML).

A decided verdict (supported / refuted / unsupported) is green (FACTUAL) or red (NON-FACTUAL) with its
confidence and what decided it; `unsupported` says the claim is not supported by the supplied
evidence. An undecided one is neutral (grey), says "Not verified" and gives the models' lean in small
print, as a lean and not a finding; when the `--undecided` policy labelled it otherwise, it says so.
Its explanation is shown without its first line (the label), so the banner never states the lean as
a finding.
"""

from __future__ import annotations

from html import escape

from drowzee_core.oracles.decisions import DECISION_WORDS, lean_of
from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Decision, Verdict
from service.ui.render import DEFAULT_ANCHOR, cited_html


def verdict_class(verdict: Verdict) -> str:
    """The banner's CSS class: `dz-undecided` (not verified), else `dz-factual` or `dz-nonfactual`."""
    if verdict.decision == Decision.UNDECIDED:
        return "dz-undecided"
    return "dz-factual" if verdict.label == Label.FACTUAL else "dz-nonfactual"


def _verdict_head(verdict: Verdict) -> str:
    """The banner's head: the label (or "Not verified" with the lean in small print), what decided it."""
    if verdict.decision == Decision.UNDECIDED:
        lean, p = lean_of(verdict)
        policy = verdict.provenance.undecided_policy
        relabel = (
            f"<div class='dz-verdict-decision'>labelled {escape(verdict.label.value)}"
            f" ({verdict.confidence:.2f}) by the undecided policy{f' ({escape(policy.value)})' if policy else ''}"
            "</div>"
            if verdict.label != lean
            else ""
        )
        return (
            "<div class='dz-verdict-head'><span class='dz-verdict-label'>? Not verified</span>"
            f"<span class='dz-verdict-lean'>lean: {escape(lean.value)}, {p:.2f} &mdash; not a finding</span></div>"
            "<div class='dz-verdict-decision'>nothing that could be checked decides this response</div>"
            f"{relabel}"
        )
    factual = verdict.label == Label.FACTUAL
    conf = max(0.0, min(1.0, verdict.confidence))
    return (
        f"<div class='dz-verdict-head'><span class='dz-verdict-label'>{'&#10003;' if factual else '&#10007;'}"
        f" {escape(verdict.label.value)}</span><span class='dz-verdict-conf'>confidence {conf:.0%}</span></div>"
        f"<div class='dz-verdict-decision'>{escape(DECISION_WORDS[verdict.decision])}</div>"
        f"<div class='dz-confbar'><span style='width:{conf * 100:.0f}%'></span></div>"
    )


def verdict_html(verdict: Verdict, *, anchor: str = DEFAULT_ANCHOR) -> str:
    """The verdict banner: label and decision (or "Not verified" and the lean), a degraded warning, the explanation."""
    known = {e.id for e in verdict.evidence}
    parts = [f"<div class='dz-verdict {verdict_class(verdict)}'>", _verdict_head(verdict)]
    if verdict.degraded:
        reasons = "".join(f"<li>{escape(r)}</li>" for r in verdict.degraded_reasons) or "<li>no reason recorded</li>"
        parts.append(
            "<div class='dz-degraded'><strong>&#9888; Degraded:</strong> a source failed, so this verdict rests on"
            f" the others.<ul>{reasons}</ul></div>"
        )
    explanation = _explanation(verdict)
    if explanation:
        parts.append(f"<div class='dz-explanation'>{cited_html(explanation, known, anchor)}</div>")
    parts.append(f"<div class='dz-muted'>{_provenance(verdict)}</div></div>")
    return "".join(parts)


def _explanation(verdict: Verdict) -> str:
    """The explanation as shown: an undecided one without its first line, the label, which the head gives as a lean."""
    text = verdict.explanation.strip()
    head, _, rest = text.partition("\n")
    if verdict.decision == Decision.UNDECIDED and rest and head.strip() == f"{verdict.label.value}.":
        return rest.strip()
    return text


def _provenance(verdict: Verdict) -> str:
    prov = verdict.provenance
    bits = [f"decision {escape(verdict.decision.value)}"]
    if prov.policy:
        bits.append(f"policy {escape(prov.policy)}")
    if prov.undecided_policy:
        bits.append(f"undecided policy {escape(prov.undecided_policy.value)}")
    if prov.timings:
        bits.append(f"{sum(prov.timings.values()):.2f} s in all")
    bits.append(f"{len(verdict.claims)} claim(s), {len(verdict.evidence)} evidence item(s)")
    return " &middot; ".join(bits)


__all__ = ["verdict_class", "verdict_html"]
