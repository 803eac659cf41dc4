"""HTML for what the UI shows: evidence, opinions, proofs (the verdict banner: `ui.banner`; highlights: `ui.highlight`).

Pure functions of records: every piece of user or model text is HTML-escaped, and only `http(s)`
references become links. Evidence rows carry `id="<anchor>-<evidence id>"` so that the response's
highlights and the explanation's citations (`[E3]`) link to them; pass the same `anchor` to the
functions that render one verdict (two verdicts on one page need two anchors).
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from html import escape

from drowzee_core.oracles.decisions import DECIDED_BY_WORDS
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.proof import ProofNode
from drowzee_core.records.verdict import ClaimVerdict, EvidenceItem, Opinion, Verdict

RULE_NAMES = {"fact": "stored fact", "negative_fact": "stored negative fact"}
STATUS_CLASS = {
    ProofStatus.SUPPORTED: "supported",
    ProofStatus.CONTRADICTED: "contradicted",
    ProofStatus.UNKNOWN: "unknown",
    ProofStatus.CLOSED_WORLD: "unknown",
}
"""Claim status -> the suffix of its CSS class `dz-claim-<suffix>` (closed-world reads as unknown)."""
PRIORITY = {"contradicted": 2, "unknown": 1, "supported": 0}
"""Where claims overlap, the text takes the class of the most serious claim."""
SOURCE_NAMES = {
    "kb_check": "KB check (Prolog)",
    "seeker": "Seeker (evidence judge)",
    "guardian": "Guardian (trained model)",
    "manager": "Manager",
}
DEFAULT_ANCHOR = "ev"
_CITATION = re.compile(r"\[([A-Za-z]{1,3}\d{1,4}(?:\s*,\s*[A-Za-z]{1,3}\d{1,4})*)\]")
_ID_CHARS = re.compile(r"[^A-Za-z0-9_-]")


def proof_html(node: ProofNode, *, open_levels: int = 1, _depth: int = 0) -> str:
    """A proof tree as nested collapsible `<details>`: conclusion, the rule that gave it, its premises."""
    rule = escape(RULE_NAMES.get(node.rule, node.rule))
    head = f"{escape(node.text)} <span class='dz-muted'>({rule})</span>"
    if not node.premises:
        return f"<div class='dz-proof-leaf'>&#8226; {head}</div>"
    inner = "".join(proof_html(p, open_levels=open_levels, _depth=_depth + 1) for p in node.premises)
    opened = " open" if _depth < open_levels else ""
    return (
        f"<details class='dz-proof'{opened}><summary>{head}</summary>"
        f"<div style='margin-left:1.2em'>{inner}</div></details>"
    )


# ---------------------------------------------------------------------------------------------- small parts
def anchor_id(evidence_id: str, anchor: str = DEFAULT_ANCHOR) -> str:
    """The HTML id of an evidence row (`ev-E3`); characters unsafe in an id become `_`."""
    return _ID_CHARS.sub("_", f"{anchor}-{evidence_id}")


def evidence_link(evidence_id: str, anchor: str = DEFAULT_ANCHOR) -> str:
    """A link to an evidence row: `<a href="#ev-E3">E3</a>`."""
    return f"<a class='dz-cite' href='#{anchor_id(evidence_id, anchor)}'>{escape(evidence_id)}</a>"


def status_class(status: ProofStatus | str) -> str:
    """The CSS class of a claim status: `dz-claim-supported`, `dz-claim-contradicted` or `dz-claim-unknown`."""
    return f"dz-claim-{STATUS_CLASS.get(ProofStatus(status), 'unknown')}"


def decided_by_html(claim: ClaimVerdict, anchor: str = DEFAULT_ANCHOR) -> str:
    """What decided a claim, linked to the evidence that did: `decided by [proved] K1`, or `not decided`."""
    if claim.decided_by is None:
        return "<span class='dz-muted'>not decided</span>"
    links = " ".join(evidence_link(i, anchor) for i in claim.decided_ids)
    word = _chip(DECIDED_BY_WORDS[claim.decided_by], f"dz-chip-by dz-by-{claim.decided_by.value}")
    return f"<span class='dz-muted'>decided by</span> {word}{' ' + links if links else ''}"


def _chip(text: str, cls: str) -> str:
    return f"<span class='dz-chip {cls}'>{escape(text)}</span>"


def _label_chip(label: Label | None) -> str:
    if label is None:
        return _chip("no label", "dz-chip-none")
    return _chip(label.value, "dz-chip-factual" if label == Label.FACTUAL else "dz-chip-nonfactual")


def _pct(p: float | None) -> str:
    return "&mdash;" if p is None else f"{p:.0%}"


def seconds_html(s: float | None) -> str:
    """` · 1.23 s` after a line (empty when there is no time)."""
    return "" if s is None else f" <span class='dz-muted'>&middot; {s:.2f} s</span>"


def cited_html(text: str, known: Collection[str], anchor: str = DEFAULT_ANCHOR) -> str:
    """Escaped `text` whose citations of known evidence (`[E3]`, `[S1, R2]`) link to the evidence rows."""

    def link(m: re.Match[str]) -> str:
        ids = [i.strip() for i in m.group(1).split(",")]
        parts = [evidence_link(i, anchor) if i in known else escape(i) for i in ids]
        return "[" + ", ".join(parts) + "]"

    out, last = [], 0
    for m in _CITATION.finditer(text):
        out += [escape(text[last : m.start()]), link(m)]
        last = m.end()
    out.append(escape(text[last:]))
    return "".join(out)


# ---------------------------------------------------------------------------------------------- evidence
def _ref_html(ref: str | None) -> str:
    if not ref:
        return "<span class='dz-muted'>&mdash;</span>"
    if ref.startswith(("http://", "https://")):
        return f"<a href='{escape(ref, quote=True)}' target='_blank' rel='noopener noreferrer'>{escape(ref)}</a>"
    return f"<code>{escape(ref)}</code>"


def cited_ids(verdict: Verdict) -> set[str]:
    """The evidence ids that the claims or the explanation cite."""
    ids = {i for c in verdict.claims for i in c.evidence_ids}
    for m in _CITATION.finditer(verdict.explanation):
        ids.update(i.strip() for i in m.group(1).split(","))
    return ids


def _evidence_table(evidence: Sequence[EvidenceItem], anchor: str) -> str:
    rows = [
        f"<tr id='{anchor_id(e.id, anchor)}'><td><strong>{escape(e.id)}</strong></td>"
        f"<td>{_chip(e.source.value, 'dz-chip-source')}</td><td>{escape(e.text)}</td>"
        f"<td class='dz-num'>{'&mdash;' if e.score is None else f'{e.score:.2f}'}</td><td>{_ref_html(e.ref)}</td></tr>"
        for e in evidence
    ]
    head = "<tr><th>id</th><th>source</th><th>text</th><th>score</th><th>reference</th></tr>"
    return f"<table class='dz-table dz-evidence'><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


def evidence_html(
    evidence: Sequence[EvidenceItem],
    *,
    anchor: str = DEFAULT_ANCHOR,
    cited: Collection[str] = (),
    visible: int = 8,
) -> str:
    """The evidence as a table of id, source, text, score and reference (rows are link targets).

    Args:
        evidence: The items, in the verdict's order.
        anchor: Prefix of the rows' ids (`<anchor>-<id>`).
        cited: Ids that are always in the visible table (those the claims and the explanation cite).
        visible: How many items beyond the cited ones show before the rest fold into a collapsed section.

    """
    if not evidence:
        return "<p class='dz-muted'>No evidence was supplied or found.</p>"
    shown = [e for i, e in enumerate(evidence) if e.id in cited or i < visible]
    rest = [e for i, e in enumerate(evidence) if not (e.id in cited or i < visible)]
    if len(rest) <= 2:
        shown, rest = list(evidence), []
    html = _evidence_table(shown, anchor)
    if rest:
        more = f"{len(rest)} more evidence item{'s' if len(rest) != 1 else ''} (not cited)"
        html += f"<details class='dz-more'><summary>{more}</summary>{_evidence_table(rest, anchor)}</details>"
    return html


# ---------------------------------------------------------------------------------------------- opinions
def _weight_html(o: Opinion) -> str:
    """Whether the Manager weighed the opinion, and its measured dev reliability."""
    rel = f"balanced accuracy {o.reliability:.2f} on dev" if o.reliability is not None else ""
    if not o.counted:
        why = "at its constant baseline on dev" + (f" ({rel})" if rel else "")
        return f"{_chip('not counted', 'dz-chip-uncounted')} <span class='dz-muted'>{escape(why)}</span>"
    if o.error is not None or not rel:
        return "<span class='dz-muted'>&mdash;</span>"
    return f"counted <span class='dz-muted'>({escape(rel)})</span>"


def opinions_html(opinions: Sequence[Opinion]) -> str:
    """Each source's opinion (label, confidence, whether it was weighed, model, reasons), or why there is none."""
    if not opinions:
        return "<p class='dz-muted'>No source gave an opinion.</p>"
    rows = []
    for o in opinions:
        name = escape(SOURCE_NAMES.get(o.source.value, o.source.value))
        model = f"<code>{escape(o.model)}</code>" if o.model else "<span class='dz-muted'>&mdash;</span>"
        if o.error is not None:
            said = f"<span class='dz-error-text'>&#9888; failed: {escape(o.error)}</span>"
            label = _chip("error", "dz-chip-error")
        else:
            said = escape(o.explanation) if o.explanation else "<span class='dz-muted'>no reasons given</span>"
            label = _label_chip(o.label)
        row_class = "" if o.counted else " class='dz-uncounted'"
        rows.append(
            f"<tr{row_class}><td class='dz-nowrap'><strong>{name}</strong></td><td>{label}</td>"
            f"<td class='dz-num'>{_pct(o.confidence)}</td><td>{_weight_html(o)}</td>"
            f"<td>{model}</td><td>{said}</td></tr>"
        )
    head = "<tr><th>source</th><th>label</th><th>confidence</th><th>weighed</th><th>model</th><th>reasons</th></tr>"
    return f"<table class='dz-table dz-opinions'><thead>{head}</thead><tbody>{''.join(rows)}</tbody></table>"


# ---------------------------------------------------------------------------------------------- proofs
def proofs_html(proofs: Sequence[ProofNode]) -> str:
    """The Prolog proofs that decided claims, each a collapsible tree, inside one collapsible section."""
    if not proofs:
        return "<p class='dz-muted'>No Prolog proof: the knowledge base decided none of the claims.</p>"
    cards = "".join(f"<div class='dz-proof-card'>{proof_html(p)}</div>" for p in proofs)
    n = len(proofs)
    return (
        f"<details class='dz-proofs' open><summary>{n} Prolog proof{'s' if n != 1 else ''}</summary>{cards}</details>"
    )


def error_html(title: str, message: str) -> str:
    """A readable failure box (title and message escaped)."""
    return f"<div class='dz-error'><strong>&#9888; {escape(title)}</strong><div>{escape(message)}</div></div>"


__all__ = [
    "DEFAULT_ANCHOR",
    "PRIORITY",
    "STATUS_CLASS",
    "anchor_id",
    "cited_html",
    "cited_ids",
    "decided_by_html",
    "error_html",
    "evidence_html",
    "evidence_link",
    "opinions_html",
    "proof_html",
    "proofs_html",
    "seconds_html",
    "status_class",
]
