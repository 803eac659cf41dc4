"""Guardian training pairs from a loop run: confirmed hallucinations, balanced by right answers, reasons from facts."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.judge import Support
from finetune.data import build_examples, check_pair
from finetune.loop_data import loop_judge_examples, loop_pairs


def write_run(folder: Path, rows: list[dict[str, object]]) -> Path:
    folder.mkdir()
    cases = [{"id": r["id"], "question": r["question"], "facts": [["Paris", "capital_of", "France"]]} for r in rows]
    for name, recs in (("rows.jsonl", rows), ("cases.jsonl", cases)):
        (folder / name).write_text("".join(json.dumps(x) + "\n" for x in recs), encoding="utf-8")
    return folder


def row(i: int, wrong: bool | None, halluc: bool | None = None, answer: str = "Yes.") -> dict[str, object]:
    return {
        "id": f"c{i}",
        "question": f"Is Paris the capital of France ({i})?",
        "gold": "Yes",
        "llm_answer": answer,
        "answer_wrong": wrong,
        "hallucinated": wrong if halluc is None else halluc,
        "flagged": True,
        "rule": "inverse",
    }


def test_confirmed_hallucinations_and_as_many_right_answers(tmp_path: Path) -> None:
    rows = [row(0, True, answer="No."), row(1, True, answer="No, never."), row(2, False), row(3, False)]
    rows += [row(4, False, halluc=True), row(5, None, halluc=False, answer="I don't know."), row(6, False)]
    pairs, record = loop_pairs(write_run(tmp_path / "run", rows), seed=1)
    labels = [p["label"] for p in pairs]
    assert labels.count("NON-FACTUAL") == 2 and labels.count("FACTUAL") == 2  # balanced
    assert (record.hallucinations, record.correct, record.label) == (2, 2, "answer")
    assert {p["id"] for p in pairs if p["label"] == "NON-FACTUAL"} == {"loop:run:c0", "loop:run:c1"}
    assert "loop:run:c5" not in {p["id"] for p in pairs}  # no Yes / No: no label
    bad = next(p for p in pairs if p["id"] == "loop:run:c0")
    assert bad["reason"].startswith("NON-FACTUAL. According to the facts, Paris capital of France.")
    assert "the correct answer is Yes" in bad["reason"] and bad["response"] == "No."
    for i, p in enumerate(pairs):
        check_pair(p, f"pair {i}")
    assert len(build_examples(pairs, ("guardian",), 0)) == 4
    again, _ = loop_pairs(tmp_path / "run", seed=1)
    assert again == pairs  # seeded


def test_without_answer_level_labels_the_oracle_label_is_used(tmp_path: Path) -> None:
    rows = [row(0, None, halluc=True), row(1, None, halluc=False)]
    pairs, record = loop_pairs(write_run(tmp_path / "run", rows))
    assert record.label == "oracle" and [p["label"] for p in pairs] == ["NON-FACTUAL", "FACTUAL"]


def test_a_run_without_hallucinations_or_files_is_refused(tmp_path: Path) -> None:
    with pytest.raises(DrowzeeError, match="no confirmed hallucination"):
        loop_pairs(write_run(tmp_path / "clean", [row(0, False)]))
    with pytest.raises(DrowzeeError, match="finished `drowzee benchmark` run"):
        loop_pairs(tmp_path / "nothing")


def test_judge_examples_judge_the_answer_against_the_cases_facts(tmp_path: Path) -> None:
    rows = [row(0, True, answer="No."), row(1, False), row(2, False)]
    examples, record = loop_judge_examples(write_run(tmp_path / "run", rows), seed=0)
    assert [(e.response, e.label) for e in examples] == [("No.", Support.NOT_SUPPORTED), ("Yes.", Support.SUPPORTED)]
    assert all(e.evidence == ["Paris capital of France."] and e.source == "loop:run" for e in examples)
    assert examples[0].query == "Is Paris the capital of France (0)?" and record.hallucinations == 1
    factless = write_run(tmp_path / "factless", rows)
    (factless / "cases.jsonl").write_text("".join(json.dumps({"id": r["id"]}) + "\n" for r in rows))
    with pytest.raises(DrowzeeError, match="no labelled answer of this run has ground-truth facts"):
        loop_judge_examples(factless)


def test_a_run_folder_reads_as_the_guardians_evaluation_pairs(tmp_path: Path) -> None:
    from finetune.evaluate import data_sha256, read_pairs
    from finetune.loop_data import data_files
    from finetune.manifest import file_sha256

    run = write_run(tmp_path / "run", [row(0, True, answer="No."), row(1, False), row(2, False)])
    pairs = read_pairs(run, None)
    assert pairs == loop_pairs(run)[0] and len(pairs) == 2
    assert read_pairs(run, 1) == pairs[:1]
    assert data_files(run) == [run / "rows.jsonl", run / "cases.jsonl"]
    sha = data_sha256(run)
    (run / "cases.jsonl").write_text("", encoding="utf-8")  # the cases are part of what was read
    assert data_sha256(run) != sha
    jsonl = tmp_path / "pairs.jsonl"
    jsonl.write_text("".join(json.dumps(p) + "\n" for p in pairs), encoding="utf-8")
    assert read_pairs(jsonl, None) == pairs and data_sha256(jsonl) == file_sha256(jsonl)
