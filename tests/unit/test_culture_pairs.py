"""bench/culture_pairs.py over a made-up question file (the real one is held out and never read here)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from bench.culture_pairs import ROOT, main, pairs_of, sample
from drowzee_core.records.pair import QRPair
from drowzee_core.records.provenance import read_sidecar


def question(qid: int, answer: str) -> dict[str, Any]:
    return {
        "qid": qid,
        "entityid": [f"Q{qid}"],
        "entity": [f"Thing {qid}"],
        "description": ["a made-up thing"],
        "category": "made_up",
        "reasoning": f"Thing {qid} is made up.",
        "question": f"Is Thing {qid} made up?",
        "answer": answer,
        "evidence": [[f"Thing {qid}", "instance of", "made-up thing"]],
    }


@pytest.fixture
def data(tmp_path: Path) -> Path:
    rows = [question(1, "Yes."), question(2, "No."), question(3, "Maybe."), question(4, "yes"), question(5, "No.")]
    path = tmp_path / "culture_dataset.json"
    path.write_text(json.dumps(rows), encoding="utf-8")
    return path


def read(out: Path) -> list[QRPair]:
    return [QRPair.model_validate_json(x) for x in out.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(
    ("answer", "labels"),
    [("Yes.", ["FACTUAL", "NON-FACTUAL"]), ("No.", ["NON-FACTUAL", "FACTUAL"]), ("yes", ["FACTUAL", "NON-FACTUAL"])],
)
def test_each_question_gives_a_yes_and_a_no_pair(answer: str, labels: list[str]) -> None:
    pairs = pairs_of(question(7, answer))
    assert pairs is not None
    assert [p.response for p in pairs] == ["Yes.", "No."]
    assert [p.label for p in pairs] == labels
    assert [p.id for p in pairs] == ["culture-7-yes", "culture-7-no"]
    for p in pairs:
        assert p.evidence == [["Thing 7", "instance of", "made-up thing"]] and p.type == "kg"
        assert p.query == "Is Thing 7 made up?" and p.reason is not None and p.reason.startswith(f"{p.label}.\n")
        assert p.meta is not None and p.meta["item"] == 7 and p.meta["gold_answer"] == answer


@pytest.mark.parametrize(
    "bad", [{"answer": "Maybe."}, {"evidence": [["only", "two"]]}, {"evidence": "not triples"}, {"answer": ""}]
)
def test_a_question_without_yes_no_or_triples_gives_no_pairs(bad: dict[str, Any]) -> None:
    assert pairs_of(question(8, "Yes.") | bad) is None


def test_writes_pairs_and_sidecar(data: Path, tmp_path: Path) -> None:
    out = tmp_path / "pairs.jsonl"
    assert main(["--data", str(data), "--out", str(out)]) == 0
    pairs = read(out)
    assert len(pairs) == 8 and len({p.id for p in pairs}) == 8
    assert sum(p.label == "FACTUAL" for p in pairs) == 4
    meta = read_sidecar(out)
    assert meta is not None and meta.producer == "bench.culture_pairs"
    assert meta.counts["rows"] == 8 and meta.counts["skipped_questions"] == 1
    assert meta.counts["label"] == {"FACTUAL": 4, "NON-FACTUAL": 4}
    assert list(meta.inputs) == [str(data)]


def test_limit_draws_a_seeded_sample(data: Path, tmp_path: Path) -> None:
    rows = [question(i, "Yes.") for i in range(20)]
    assert sample(rows, 5, 1) == sample(rows, 5, 1) != sample(rows, 5, 2)
    assert [r["qid"] for r in sample(rows, 5, 1)] == sorted(r["qid"] for r in sample(rows, 5, 1))
    assert sample(rows, None, 1) == rows == sample(rows, 50, 1)
    out = tmp_path / "two.jsonl"
    assert main(["--data", str(data), "--out", str(out), "--limit", "2", "--seed", "3"]) == 0
    assert len({p.meta["item"] for p in read(out) if p.meta}) <= 2


def test_refuses_an_output_inside_the_repository(data: Path) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--data", str(data), "--out", str(ROOT / "culture_pairs.jsonl")])
    assert exc.value.code == 2
    assert not (ROOT / "culture_pairs.jsonl").exists()


def test_skips_with_a_message_when_the_data_is_absent(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    out = tmp_path / "none.jsonl"
    with caplog.at_level(logging.WARNING, logger="bench.culture_pairs"):
        assert main(["--data", str(tmp_path / "missing.json"), "--out", str(out)]) == 0
    assert "skipped" in caplog.text and not out.exists()


def test_says_when_shared_is_absent(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import bench.culture_pairs as script

    monkeypatch.setattr(script, "SHARED", tmp_path / "shared")
    monkeypatch.setattr(script, "DATA", tmp_path / "shared" / "culture_dataset.json")
    with caplog.at_level(logging.WARNING, logger="bench.culture_pairs"):
        assert main(["--out", str(tmp_path / "none.jsonl")]) == 0
    assert "../shared is absent" in caplog.text
