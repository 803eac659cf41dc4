"""The verdict banner (`service/ui/banner.py`): decided verdicts in colour, undecided ones as "Not verified"."""

from __future__ import annotations

import re

from drowzee_core.records.enums import Label
from drowzee_core.records.verdict import Decision, UndecidedPolicy, VerdictProvenance
from service.ui import banner
from tests.unit.render_fixtures import balanced, undecided, verdict


def test_verdict_banner_label_confidence_and_citations() -> None:
    html = banner.verdict_html(verdict())
    assert "dz-nonfactual" in html and "NON-FACTUAL" in html and "93%" in html
    assert "[<a class='dz-cite' href='#ev-E1'>E1</a>]" in html
    assert "[E9]" in html  # unknown ids stay text
    assert "Degraded" not in html


def test_degraded_verdict_shows_its_reasons() -> None:
    html = banner.verdict_html(verdict(degraded=True, degraded_reasons=["seeker web search: Timeout", "guardian: x"]))
    assert "Degraded" in html
    assert "<li>seeker web search: Timeout</li>" in html and "<li>guardian: x</li>" in html


def test_factual_banner() -> None:
    html = banner.verdict_html(verdict(decision=Decision.SUPPORTED, label=Label.FACTUAL, confidence=0.5))
    assert "dz-factual" in html and "50%" in html and ">supported<" in html


def test_refuted_and_unsupported_banners_say_what_decided_them() -> None:
    refuted = banner.verdict_html(verdict())
    assert "refuted: a claim is contradicted" in refuted and "decision refuted" in refuted
    unsupported = banner.verdict_html(verdict(decision=Decision.UNSUPPORTED))
    assert "dz-nonfactual" in unsupported and "NON-FACTUAL" in unsupported
    assert "not supported by the supplied evidence" in unsupported


def test_undecided_banner_is_neutral_and_gives_the_lean_in_small_print() -> None:
    html = banner.verdict_html(undecided())
    assert banner.verdict_class(undecided()) == "dz-undecided"
    assert "dz-undecided" in html and "dz-factual" not in html and "dz-nonfactual" not in html
    assert "Not verified" in html and "dz-confbar" not in html
    assert "<span class='dz-verdict-lean'>lean: FACTUAL, 0.58 &mdash; not a finding</span>" in html
    assert "labelled" not in html and "undecided policy lean" in html and balanced(html)
    explanation = re.search(r"<div class='dz-explanation'>(.*?)</div>", html)
    assert explanation is not None and explanation.group(1).startswith("Not verified: nothing I could check")


def test_undecided_banner_says_when_the_policy_labelled_against_the_lean() -> None:
    v = undecided(
        label=Label.NON_FACTUAL,
        confidence=0.35,
        provenance=VerdictProvenance(undecided_policy=UndecidedPolicy.NON_FACTUAL),
    )
    html = banner.verdict_html(v)
    assert "lean: FACTUAL, 0.65" in html
    assert "labelled NON-FACTUAL (0.35) by the undecided policy (non-factual)" in html
