"""The retrieval patch's pure parts: which facts go into the prompt, and the before / after arithmetic."""

from __future__ import annotations

import pytest

from agents.loop.mitigation import change, patch_facts, patched_prompt


def test_patch_facts_proof_leaves_first_no_web_no_repeats() -> None:
    proof = {
        "text": "A is in C.",
        "premises": [{"text": "A is in B.", "premises": []}, {"text": "B is in C.", "premises": []}],
    }
    record = {
        "verdict": {
            "proofs": [proof],
            "evidence": [
                {"source": "web", "text": "a blog says A is in D."},
                {"source": "kb", "text": "A is in B."},
                {"source": "supplied", "text": "C is big."},
                {"source": "corpus", "text": "  "},
            ],
        }
    }
    assert patch_facts(record) == ["A is in B.", "B is in C.", "C is big."]
    assert patch_facts(record, limit=1) == ["A is in B."]
    assert patch_facts({"error": "row failed"}) == [] and patch_facts(None) == []


def test_patched_prompt() -> None:
    out = patched_prompt("F:\n{facts}\n\n{prompt}", "Q?", ["a.", "b."])
    assert out == "F:\n- a.\n- b.\n\nQ?"


def test_change_counts_fixed_and_broken_on_cases_labelled_both_times() -> None:
    def oracle(r: dict[str, object]) -> bool | None:
        return None if r["h"] is None else bool(r["h"])

    before = [{"id": "a", "h": 1}, {"id": "b", "h": 1}, {"id": "c", "h": 0}, {"id": "d", "h": 1}, {"id": "e", "h": 0}]
    after = {"a": {"h": 0}, "b": {"h": 1}, "c": {"h": 1}, "d": {"h": None}}  # e not re-asked, d unlabelled after
    c = change("answer", before, after, oracle)
    assert (c.n, c.fixed, c.broken) == (3, 1, 1)
    assert c.before is not None and c.before.value == pytest.approx(2 / 3, abs=1e-5)
    assert c.after is not None and c.after.value == pytest.approx(2 / 3, abs=1e-5)
    assert c.difference is not None and c.difference.value == pytest.approx(0.0)
    assert c.difference.low <= 0.0 <= c.difference.high
    assert change("answer", before, {}, oracle).n == 0
