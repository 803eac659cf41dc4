"""The Chat tab's progress lines (`ui/progress_view.py`): one per node, escaped."""

from __future__ import annotations

import re

from agents.verifier.runner import NodeEvent
from agents.verifier.schemas import KBResult
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import (
    EvidenceItem,
    EvidenceSource,
    Opinion,
    OpinionSource,
)
from service.ui import progress_view
from tests.unit.render_fixtures import XSS, undecided, verdict


def test_node_lines() -> None:
    from agents.reading.claims.answer_set import AnswerSet

    ev = [EvidenceItem(id=f"R{i}", source=EvidenceSource.KB, text="x") for i in range(5)]
    results = [
        KBResult(claim_id="C1", status=ProofStatus.SUPPORTED),
        KBResult(claim_id="C2", status=ProofStatus.CONTRADICTED),
    ]
    guardian = Opinion(source=OpinionSource.GUARDIAN, label=Label.NON_FACTUAL, confidence=0.71)
    lines = {
        "claims": NodeEvent("claims", {"claims": [1, 2, 3], "timings": {"claims": 0.123}}),
        "kb_check": NodeEvent("kb_check", {"kb_results": results}),
        "seeker": NodeEvent("seeker", {"gathered": ev, "opinions": []}),
        "guardian": NodeEvent("guardian", {"opinions": [guardian]}),
        "verdict_manager": NodeEvent("verdict_manager", {"verdict": verdict()}),
    }
    text = {k: re.sub(r"<[^>]+>", "", progress_view.node_html(e)) for k, e in lines.items()}
    assert "claims: 3 claims read" in text["claims"] and "0.12 s" in text["claims"]
    assert "kb_check: 1 supported, 1 contradicted" in text["kb_check"]
    answers = AnswerSet(anchors=("Milan", "Turin"), answers=("Lyon", "Bern"), named=("Bern",))
    with_answers = progress_view.node_html(NodeEvent("kb_check", {"kb_results": results, "answer_set": answers}))
    assert "the response names 1 of the 2 supplied answers" in with_answers
    assert "seeker: 5 evidence item(s)" in text["seeker"]
    assert "guardian: NON-FACTUAL 0.71" in text["guardian"]
    assert "verdict_manager: refuted, NON-FACTUAL 0.93" in text["verdict_manager"]
    open_event = NodeEvent("verdict_manager", {"verdict": undecided()})
    assert "verdict_manager</strong>: not verified (lean FACTUAL 0.58)" in progress_view.node_html(open_event)


def test_failed_node_shows_its_reason() -> None:
    html = progress_view.node_html(NodeEvent("guardian", {"degraded": [f"guardian: {XSS}"], "opinions": []}))
    assert "&#9888;" in html and "&lt;script&gt;" in html and "<script>" not in html
    assert "guardian</strong>: failed" in html
