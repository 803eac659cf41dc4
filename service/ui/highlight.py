"""The response with each claim highlighted by its status and linked to its evidence (pure, escaped HTML).

Below it, each claim is listed with its status (supported / contradicted / unknown, coloured as its
highlight), what decided it (`proved`, `evidence`, `judge`, `model`, with links to the evidence that
did), and the other evidence that bears on it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape
from itertools import pairwise
from typing import Any

from drowzee_core.oracles.decisions import DECIDED_BY_WORDS
from drowzee_core.records.verdict import ClaimVerdict
from service.ui.render import DEFAULT_ANCHOR, PRIORITY, STATUS_CLASS, decided_by_html, evidence_link


def _located(claim: ClaimVerdict, length: int) -> tuple[int, int] | None:
    """The claim's span when it lies inside the response and is not empty; else None."""
    if claim.span is None:
        return None
    a, b = claim.span
    return (a, b) if 0 <= a < b <= length else None


def _tooltip(claims: Sequence[tuple[int, ClaimVerdict]]) -> str:
    lines = []
    for n, c in claims:
        ev = f" [evidence {', '.join(c.evidence_ids)}]" if c.evidence_ids else ""
        by = f" ({' '.join([DECIDED_BY_WORDS[c.decided_by], *c.decided_ids])})" if c.decided_by else ""
        lines.append(f"C{n} {STATUS_CLASS[c.status]}{by}: {c.text}{ev}")
    return escape("\n".join(lines), quote=True)


def _cites(n: int, claim: ClaimVerdict, anchor: str) -> str:
    links = " ".join(evidence_link(i, anchor) for i in claim.evidence_ids)
    return f"<sup class='dz-sup'>C{n}{' ' + links if links else ''}</sup>"


def response_html(response: str, claims: Sequence[ClaimVerdict], *, anchor: str = DEFAULT_ANCHOR) -> str:
    """The response with each located claim highlighted by status, then the list of claims.

    Overlapping spans are cut at every boundary; a piece covered by several claims takes the class of
    the most serious (contradicted > unknown > supported) and lists them all in its tooltip. A claim
    without a span, or with one outside the response, is listed below as not located.
    """
    numbered = list(enumerate(claims, 1))
    spans = {n: s for n, c in numbered if (s := _located(c, len(response))) is not None}
    cuts = sorted({0, len(response), *(x for s in spans.values() for x in s)})
    out = []
    for a, b in pairwise(cuts):
        over = [(n, c) for n, c in numbered if n in spans and spans[n][0] <= a and b <= spans[n][1]]
        text = escape(response[a:b])
        if over:
            worst = max((STATUS_CLASS[c.status] for _, c in over), key=PRIORITY.__getitem__)
            text = f"<mark class='dz-claim dz-claim-{worst}' title='{_tooltip(over)}'>{text}</mark>"
        ends = "".join(_cites(n, c, anchor) for n, c in over if spans[n][1] == b)
        out.append(text + ends)
    body = f"<div class='dz-response'>{''.join(out)}</div>"
    return body + _claim_list(numbered, spans, anchor)


def _claim_list(numbered: Sequence[tuple[int, ClaimVerdict]], spans: Mapping[int, Any], anchor: str) -> str:
    if not numbered:
        return "<p class='dz-muted'>No claim was read from the response; the other sources judged it whole.</p>"
    rows = []
    for n, c in numbered:
        status = STATUS_CLASS[c.status]
        other = [i for i in c.evidence_ids if i not in c.decided_ids]
        ev = " ".join(evidence_link(i, anchor) for i in other)
        where = "" if n in spans else " <span class='dz-muted'>(not located in the response)</span>"
        also = "also bears on it" if c.decided_by is not None else "bears on it"
        evidence = f" <span class='dz-muted'>&middot; {also}:</span> {ev}" if ev else ""
        rows.append(
            f"<li class='dz-claim-row dz-row-{status}'><span class='dz-chip dz-chip-{status}'>{status}</span>"
            f" <strong>C{n}</strong> {escape(c.text)}{where}"
            f"<div class='dz-claim-by'>{decided_by_html(c, anchor)}"
            f"{evidence}</div>{reading_html(c)}{finding_html(c)}</li>"
        )
    return f"<ul class='dz-claims'>{''.join(rows)}</ul>"


def reading_html(c: ClaimVerdict) -> str:
    """How the claim was read: `read as (Ama Reyes, coach, Lio Marsh) by the question reader`, or why not.

    A claim no KB reader read but the supplied evidence did (it has a `finding`) is "not read as a KB
    fact", not "left unread".
    """
    r = c.reading
    if r is None:
        return ""
    if r.kind == "text":
        lead = "not read as a KB fact" if c.finding is not None else "left unread"
        return f"<div class='dz-claim-read dz-muted'>{lead}: {escape(r.why_unread or '')}</div>"
    parts = [p for p in (r.subject, r.relation, r.object) if p]
    shape = "" if r.kind == "triple" else f"{r.kind} "
    said = ("not " if r.negated else "") + f"{shape}({', '.join(parts)})"
    by = escape(READ_BY.get(r.read_by, r.read_by))
    return f"<div class='dz-claim-read dz-muted'>read as {escape(said)} &middot; by the {by}</div>"


def finding_html(c: ClaimVerdict) -> str:
    """What the supplied evidence says of the claim: `evidence: refuted - the evidence gives 1921 [S1.1], not 1931`."""
    f = c.finding
    if f is None:
        return ""
    quoted = "".join(f"<div class='dz-muted'>[{escape(s.id)}] {escape(s.text)}</div>" for s in f.sentences[:3])
    return f"<div class='dz-claim-found'>evidence: {escape(f.decision)} &middot; {escape(f.reason)}{quoted}</div>"


READ_BY = {
    "template": "catalog templates",
    "reader": "sentence reader",
    "model": "relation model (no pattern read it)",
    "query": "question reader (query + answer)",
    "extractor": "extractor model",
    "sentence": "none",
}


__all__ = ["finding_html", "reading_html", "response_html"]
