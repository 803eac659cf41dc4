"""The Chat tab's HTML: `ui/render.py`, `highlight.py`, `progress_view.py` (pure, escaped)."""

from __future__ import annotations

import re

import pytest

from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.proof import ProofNode
from drowzee_core.records.verdict import (
    DecidedBy,
    EvidenceItem,
    EvidenceSource,
    Opinion,
    OpinionSource,
)
from service.ui import banner, highlight, progress_view, render
from tests.unit.render_fixtures import XSS, balanced, claim, proof, verdict


def test_response_with_script_is_escaped() -> None:
    response = f"Paris {XSS} is nice."
    html = highlight.response_html(response, [claim(ProofStatus.SUPPORTED, (0, len(response)), XSS, [XSS])])
    assert "<script>" not in html
    assert "&lt;script&gt;" in html
    assert balanced(html)


def test_every_renderer_escapes_user_text() -> None:
    v = verdict(
        explanation=f"NON-FACTUAL {XSS} [E1]",
        degraded=True,
        degraded_reasons=[XSS],
        evidence=[EvidenceItem(id="E1", source=EvidenceSource.SUPPLIED, text=XSS, ref=f"javascript:{XSS}")],
        opinions=[Opinion(source=OpinionSource.SEEKER, label=Label.FACTUAL, model=XSS, explanation=XSS)],
    )
    parts = [
        banner.verdict_html(v),
        render.evidence_html(v.evidence),
        render.opinions_html(v.opinions),
        render.proofs_html([ProofNode(rule=XSS, fact=("a", "b", "c"), text=XSS)]),
        render.error_html(XSS, XSS),
        progress_view.progress_html([], running=XSS),
    ]
    for html in parts:
        assert "<script>" not in html, html
        assert balanced(html), html
    assert "href='javascript" not in render.evidence_html(v.evidence)


# ---------------------------------------------------------------------------------------------- spans
@pytest.mark.parametrize("status", ["supported", "contradicted", "unknown"])
def test_each_status_gets_its_class(status: str) -> None:
    html = highlight.response_html("Lyon is the capital.", [claim(ProofStatus(status), (0, 4))])
    assert f"<mark class='dz-claim dz-claim-{status}'" in html
    assert render.status_class(status) == f"dz-claim-{status}"


def test_closed_world_reads_as_unknown() -> None:
    assert render.status_class(ProofStatus.CLOSED_WORLD) == "dz-claim-unknown"


def test_overlapping_spans_split_and_take_the_worst_status() -> None:
    text = "Lyon is the capital of France and big."
    claims = [
        claim(ProofStatus.SUPPORTED, (0, 29), "Lyon is in France."),
        claim(ProofStatus.CONTRADICTED, (0, 22), "Lyon is the capital.", ["E2"]),
        claim(ProofStatus.UNKNOWN, (23, 38), "France is big."),
    ]
    html = highlight.response_html(text, claims)
    assert balanced(html)
    plain = re.sub(r"<sup.*?</sup>", "", html.split("<ul")[0])
    assert re.sub(r"<[^>]+>", "", plain) == text  # every character once, in order
    assert "<mark class='dz-claim dz-claim-contradicted'" in html
    assert "dz-claim-unknown" in html
    assert "<a class='dz-cite' href='#ev-E2'>E2</a>" in html


@pytest.mark.parametrize("span", [(-1, 3), (5, 500), (4, 4), (9, 2)])
def test_bad_spans_are_listed_not_highlighted(span: tuple[int, int]) -> None:
    html = highlight.response_html("Short text.", [claim(ProofStatus.CONTRADICTED, span, "Out of range")])
    assert "<mark" not in html
    assert "Out of range" in html and "not located in the response" in html
    assert balanced(html)


def test_claim_without_span_is_listed_below() -> None:
    html = highlight.response_html("Yes.", [claim(ProofStatus.SUPPORTED, None, "Paris is in France.", ["S1"])])
    head, tail = html.split("<ul", 1)
    assert "Paris is in France." not in head
    assert "Paris is in France." in tail and "#ev-S1" in tail


def test_tooltip_names_claim_and_evidence() -> None:
    html = highlight.response_html("Lyon.", [claim(ProofStatus.CONTRADICTED, (0, 4), 'Lyon is "the" capital', ["E1"])])
    title = re.search(r"title='([^']*)'", html)
    assert title is not None
    assert "Lyon is &quot;the&quot; capital" in title.group(1) and "E1" in title.group(1)


def test_anchor_prefix_links_match_rows() -> None:
    v = verdict()
    rows = render.evidence_html(v.evidence, anchor="chat-bot")
    links = highlight.response_html("The capital of France is Lyon.", v.claims, anchor="chat-bot")
    assert "id='chat-bot-E1'" in rows and "href='#chat-bot-E1'" in links


def test_opinions_show_errors_and_labels() -> None:
    html = render.opinions_html(verdict().opinions)
    assert "KB check (Prolog)" in html and "100%" in html
    assert "failed: guardian: ConnectError: refused" in html
    assert "No source" in render.opinions_html([])
    assert "not counted" not in html


def test_opinions_not_counted_are_shown_as_such() -> None:
    opinions = [
        Opinion(source=OpinionSource.GUARDIAN, label=Label.FACTUAL, confidence=0.74, counted=False, reliability=0.5),
        Opinion(source=OpinionSource.SEEKER, label=Label.NON_FACTUAL, confidence=0.9, reliability=0.6078),
    ]
    html = render.opinions_html(opinions)
    guardian, seeker = html.split("<tr", 3)[2:]
    assert "class='dz-uncounted'" in guardian and "not counted" in guardian
    assert "at its constant baseline on dev (balanced accuracy 0.50 on dev)" in guardian
    assert "not counted" not in seeker and "counted <span class='dz-muted'>(balanced accuracy 0.61 on dev)" in seeker
    assert balanced(html)


def test_claims_say_what_decided_them_and_link_the_deciding_evidence() -> None:
    claims = [
        claim(ProofStatus.CONTRADICTED, (0, 4), "Lyon is the capital.", ["K1", "D4"], DecidedBy.PROOF, ["K1"]),
        claim(ProofStatus.SUPPORTED, (5, 9), "It is in France.", ["S2"], DecidedBy.EVIDENCE, ["S2"]),
        claim(ProofStatus.UNKNOWN, None, "It is big.", ["R1"]),
    ]
    html = highlight.response_html("Lyon, France.", claims)
    rows = html.split("<li")[1:]
    assert "dz-row-contradicted" in rows[0] and "dz-chip-by dz-by-proof'>proved</span>" in rows[0]
    assert "decided by" in rows[0] and "href='#ev-K1'" in rows[0]
    assert "also bears on it:</span> <a class='dz-cite' href='#ev-D4'>D4</a>" in rows[0]
    assert "dz-row-supported" in rows[1] and ">evidence</span> <a class='dz-cite' href='#ev-S2'>" in rows[1]
    assert "also bears on it" not in rows[1]
    assert "dz-row-unknown" in rows[2] and "not decided" in rows[2] and "decided by" not in rows[2]
    assert "&middot; bears on it:</span> <a class='dz-cite' href='#ev-R1'>" in rows[2]
    title = re.search(r"title='([^']*)'", html)
    assert title is not None and "C1 contradicted (proved K1): Lyon is the capital." in title.group(1)
    assert balanced(html)


def test_evidence_table_and_links() -> None:
    items = [
        EvidenceItem(id="W1", source=EvidenceSource.WEB, text="t", score=0.456, ref="https://example.org/a?b=1&c=2"),
        EvidenceItem(id="S1", source=EvidenceSource.SUPPLIED, text="u"),
    ]
    html = render.evidence_html(items)
    assert "<tr id='ev-W1'>" in html and "0.46" in html
    assert "href='https://example.org/a?b=1&amp;c=2'" in html
    assert "No evidence" in render.evidence_html([])


def test_uncited_evidence_folds_away() -> None:
    items = [EvidenceItem(id=f"R{i}", source=EvidenceSource.KB, text=f"t{i}") for i in range(1, 21)]
    html = render.evidence_html(items, cited={"R15"}, visible=5)
    table, folded = html.split("<details", 1)
    assert "id='ev-R15'" in table and "id='ev-R5'" in table and "id='ev-R6'" not in table
    assert "14 more evidence items" in folded and "id='ev-R6'" in folded
    assert "<details" not in render.evidence_html(items[:7], visible=5)  # two more are not worth folding
    assert render.cited_ids(verdict()) == {"E1", "E9"}


def test_proofs_are_collapsible() -> None:
    html = render.proofs_html([proof()])
    assert html.startswith("<details class='dz-proofs' open>") and "1 Prolog proof<" in html
    assert "stored fact" in html and balanced(html)
    assert "No Prolog proof" in render.proofs_html([])


def test_claims_show_how_they_were_read_and_why_a_sentence_was_not() -> None:
    from drowzee_core.records.verdict import ClaimReading, EvidenceFinding

    read = claim(ProofStatus.SUPPORTED, None, "Ama <b> and Tam share a coach.").model_copy(
        update={
            "reading": ClaimReading(kind="common", read_by="query", subject="Ama <b>", relation="coach", object="Tam")
        }
    )
    unread = claim(ProofStatus.UNKNOWN, None, "It rains.").model_copy(
        update={"reading": ClaimReading(kind="text", read_by="sentence", why_unread="no relation reads it")}
    )
    rows = highlight.response_html("Yes.", [read, unread]).split("<li")[1:]
    assert "read as common (Ama &lt;b&gt;, coach, Tam) &middot; by the question reader" in rows[0]
    assert "left unread: no relation reads it" in rows[1]
    found = unread.model_copy(update={"finding": EvidenceFinding(decision="supported", reason="1 of 1 units")})
    row = highlight.response_html("Yes.", [found]).split("<li")[1]
    assert "not read as a KB fact: no relation reads it" in row and "left unread" not in row


def test_claims_show_what_the_evidence_says_with_the_sentences_escaped() -> None:
    from drowzee_core.records.verdict import CitedSentence, EvidenceFinding

    found = EvidenceFinding(
        decision="refuted",
        reason="the evidence gives 1921 [S1.1], not 1931",
        sentences=[CitedSentence(id="S1.1", text="Insulin was isolated in 1921 <i>.")],
    )
    c = claim(ProofStatus.CONTRADICTED, None, "Insulin was isolated in 1931.").model_copy(update={"finding": found})
    html = highlight.response_html("Insulin was isolated in 1931.", [c])
    assert "evidence: refuted &middot; the evidence gives 1921 [S1.1], not 1931" in html
    assert "[S1.1] Insulin was isolated in 1921 &lt;i&gt;." in html and balanced(html)
    assert "evidence:" not in highlight.response_html("It rains.", [claim(ProofStatus.UNKNOWN, None, "It rains.")])
