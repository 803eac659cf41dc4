"""The proof cache's code key (`drowzee_core.records.provenance.code_digest`): a changed rule file changes it."""

from __future__ import annotations

from pathlib import Path

from agents.verifier.nodes.kb_check import proof_code
from drowzee_core.records.provenance import code_digest


def test_the_digest_follows_every_rule_file_and_nothing_else(tmp_path: Path) -> None:
    rules = tmp_path / "logic"
    rules.mkdir()
    (rules / "core.pl").write_text("holds(X) :- fact(X).\n")
    (rules / "notes.txt").write_text("not code")
    helper = tmp_path / "kbprove.py"
    helper.write_text("LIMIT = 20\n")
    before = code_digest(tmp_path, [rules, helper])
    (rules / "notes.txt").write_text("still not code")
    assert code_digest(tmp_path, [rules, helper]) == before
    (rules / "core.pl").write_text("holds(X) :- fact(X), \\+ denied(X).\n")
    changed = code_digest(tmp_path, [rules, helper])
    assert changed != before
    helper.write_text("LIMIT = 12\n")
    assert code_digest(tmp_path, [rules, helper]) != changed


def test_the_shipped_proof_code_is_read_once() -> None:
    assert proof_code() == proof_code() and len(proof_code()) == 16
