"""Recorded answers: Drowzee's history.json and our runner's JSONL read as answered rows."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drowzee_core.records.peer_answers import case_of, drowzee_history, is_drowzee_history, read_answers, sample
from drowzee_core.records.readers import RecordError

ITEM = {
    "qid": 7,
    "entityid": "['1']",
    "entity": "['A']",
    "description": "['a']",
    "category": "History and Events",
    "reasoning": "Negation",
    "question": "Is A B?",
    "answer": "No.",
    "evidence": "[['A', 'is', 'C']]",
    "llm_answer": "No.",
}
"""One answered question as Drowzee's history.json holds it (lists stringified)."""


def test_sample_is_seeded_and_in_file_order() -> None:
    assert sample(5, None) == [0, 1, 2, 3, 4] and sample(5, 9) == [0, 1, 2, 3, 4]
    picked = sample(100, 10, seed=2)
    assert picked == sorted(picked) and len(set(picked)) == 10 and picked == sample(100, 10, seed=2)


def test_drowzee_history_rows(tmp_path: Path) -> None:
    path = tmp_path / "llama" / "history.json"
    path.parent.mkdir()
    item = ITEM
    path.write_text(json.dumps([item, item]))
    assert is_drowzee_history(path)
    [row] = drowzee_history(path, limit=1, seed=0)
    assert row["model"] == "llama" and row["id"].startswith("llama:") and row["evidence"] == [["A", "is", "C"]]
    assert row["domain"] == "History and Events" and row["reasoning"] == "Negation"
    assert "llm_answer" not in case_of(row) and case_of(row)["question"] == "Is A B?"
    path.write_text(json.dumps([item | {"answer": "Maybe."}]))
    with pytest.raises(RecordError, match="item 0"):
        read_answers(path)


def test_lost_evidence_stays_lost_never_taken_from_another_models_file(tmp_path: Path) -> None:
    item = ITEM | {"reasoning": "Transitive", "question": "Is A part of C?", "answer": "Yes.", "evidence": "[]"}
    lost, whole = (tmp_path / m / "history.json" for m in ("davinci", "llama"))
    for p in (lost, whole):
        p.parent.mkdir()
    triples = [["A", "part of", "B"], ["B", "part of", "C"]]
    lost.write_text(json.dumps([item | {"llm_answer": "Yes."}]))
    whole.write_text(json.dumps([item | {"llm_answer": "No.", "evidence": json.dumps(triples)}]))
    [row] = drowzee_history(lost)
    assert row["evidence"] == [] and "evidence_from" not in row
    [own] = drowzee_history(whole)
    assert own["evidence"] == triples


def test_runner_jsonl(tmp_path: Path) -> None:
    path = tmp_path / "a.jsonl"
    path.write_text('{"id": "x", "question": "Q", "answer": "Yes", "llm_answer": "Yes"}\n{"id": "y"}\n')
    assert not is_drowzee_history(path)
    with pytest.raises(RecordError, match=r"a\.jsonl:2"):
        read_answers(path)
    path.write_text('{"id": "x", "question": "Q", "answer": "Yes", "llm_answer": "Yes"}\n')
    assert read_answers(path)[0]["model"] == "recorded"
