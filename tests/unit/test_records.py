"""The typed contract: readers over our files and the peers' formats, named-field errors, judged rows, schemas."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import BaseModel
from typer.testing import CliRunner

from drowzee_core.records import Label, ProofStatus, QACase, QRPair, TemporalCase
from drowzee_core.records.answered import (
    DrowzeeAnswered,
    DrowzeeAnsweredPeer,
    DrowzeeQuestion,
    ERBenchHumanLabel,
    FactCHDAnswered,
)
from drowzee_core.records.judged import DrowzeeJudgement, JudgedDrowzeeRow, JudgedFactCHDRow
from drowzee_core.records.readers import RecordError, read_dicts, read_records
from drowzee_core.records.schemas import DEFAULT_DIR, PUBLIC_RECORDS, render, stale
from tests.conftest import peers_path

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "docs" / "examples"

PAIR = {
    "id": "p1",
    "label": "FACTUAL",
    "query": "Which is the capital of France?",
    "response": "Paris.",
    "evidence": [["Paris", "capital of", "France"]],
    "reason": "FACTUAL.\nThe evidence says Paris is the capital of France.",
}


def _jsonl(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("name", "model", "n"),
    [
        ("drowzee_qa_sample.jsonl", QACase, 90),
        ("temporal_sample.jsonl", TemporalCase, 70),
        ("gemma3_answers.jsonl", DrowzeeAnswered, 32),
    ],
)
def test_examples_read_as_records(name: str, model: type[BaseModel], n: int) -> None:
    records = list(read_records(EXAMPLES / name, model))
    assert len(records) == n


def test_example_records_round_trip_with_the_same_fields() -> None:
    for name, model in (("drowzee_qa_sample.jsonl", QACase), ("temporal_sample.jsonl", TemporalCase)):
        rows = read_dicts(EXAMPLES / name)
        for row, record in zip(rows, read_records(EXAMPLES / name, model), strict=True):
            assert set(record.model_dump(mode="json")) == set(row), record.id
    qa = next(read_records(EXAMPLES / "drowzee_qa_sample.jsonl", QACase))
    assert qa.conclusion.status is ProofStatus.SUPPORTED and qa.proof is not None
    assert [list(f) for f in qa.proof.leaves()] == [list(f) for f in qa.facts]


def test_factchd_example_reads_as_pairs() -> None:
    assert len(list(read_records(EXAMPLES / "factchd_sample.jsonl", QRPair))) == 400


def test_factchd_peer_pairs() -> None:
    pairs = list(read_records(peers_path("factchd", "train_case_sample.jsonl"), QRPair))
    assert len(pairs) == 50
    assert {p.label for p in pairs} == set(Label)
    assert any(p.subgraph_type == "all" for p in pairs)
    # a qualifier triple nests a stringified triple as its subject
    assert any(isinstance(e, list) and e[0].startswith("[") for p in pairs for e in p.evidence)
    assert sum(p.comparison_size is not None for p in pairs) == 10


def test_factchd_string_sizes_are_numbers(tmp_path: Path) -> None:
    path = _jsonl(tmp_path / "pairs.jsonl", [PAIR | {"comparison_size": "3", "subgraph_type": "all"}])
    (pair,) = read_records(path, QRPair)
    assert pair.comparison_size == 3 and pair.subgraph_type == "all"


@pytest.mark.parametrize("name", ["creak", "halueval_qa", "strategyqa", "truthfulqa", "wice"])
def test_external_sets_read_as_pairs(name: str) -> None:
    pairs = list(read_records(peers_path("external", name, f"{name}.jsonl"), QRPair))
    assert pairs and {p.label for p in pairs} == set(Label)
    assert all(p.source for p in pairs)


@pytest.mark.parametrize(("name", "n"), [("culture_dataset.json", 2265), ("history_dataset.json", 1354)])
def test_drowzee_categorized_questions(name: str, n: int) -> None:
    questions = list(read_records(peers_path("drowzee_qa", name), DrowzeeQuestion))
    assert len(questions) == n
    assert {q.answer for q in questions} == {"Yes.", "No."}
    assert all(len(t) == 3 for q in questions for t in q.evidence)


@pytest.mark.parametrize("model_name", ["llama2-13b-chat", "text-davinci-003", "vicuna-13b-v1.5"])
def test_drowzee_answered_histories(model_name: str) -> None:
    base = peers_path("drowzee_responses", model_name)
    answered = list(read_records(base / "history.json", DrowzeeAnsweredPeer))
    hallucinated = list(read_records(base / "hallu" / "history.json", DrowzeeAnsweredPeer))
    assert len(answered) == 1354 and 0 < len(hallucinated) < 1354
    assert all(a.llm_answer for a in answered)
    # the scorer's view of the same rows
    assert len(list(read_records(base / "history.json", DrowzeeAnswered))) == 1354


def test_stringified_lists_are_parsed_never_evaluated() -> None:
    row = {
        "qid": 1,
        "entityid": "['1', '2']",
        "entity": "['A', 'B']",
        "description": "['a', 'b']",
        "category": "History and Events",
        "reasoning": "Negation",
        "question": "Is A part of B?",
        "answer": "No.",
        "evidence": "[['A', 'part of', 'C']]",
    }
    assert DrowzeeQuestion.model_validate(row).evidence == [("A", "part of", "C")]
    with pytest.raises(ValueError, match="not a list or the repr of one"):
        DrowzeeQuestion.model_validate(row | {"evidence": "__import__('os').system('true')"})


def test_erbench_human_labels() -> None:
    files = sorted(peers_path("erbench", "human_labels").glob("*/*_correct.csv"))
    assert len(files) == 10
    for path in files:
        rows = list(read_records(path, ERBenchHumanLabel))
        assert len(rows) == 100 and {r.gold_answer for r in rows} == {"yes", "no"}
    music = list(read_records(peers_path("erbench", "human_labels", "gemini", "music_correct.csv"), ERBenchHumanLabel))
    assert sum(r.reasoning_manual for r in music) == 6  # five `1.0` cells and one `1`


def test_bad_jsonl_row_names_file_line_and_field(tmp_path: Path) -> None:
    rows: list[dict[str, object]] = [PAIR | {"id": f"p{i}"} for i in range(1, 12)]
    rows.append(PAIR | {"label": "TRUE"})
    path = _jsonl(tmp_path / "pairs.jsonl", rows)
    with pytest.raises(RecordError) as info:
        list(read_records(path, QRPair))
    assert str(info.value) == "pairs.jsonl:12: field `label`: Input should be 'FACTUAL' or 'NON-FACTUAL'"


def test_bad_nested_field_and_several_errors(tmp_path: Path) -> None:
    claim = {"subject": "a", "relation": "r", "object": "b", "status": "maybe"}
    path = _jsonl(tmp_path / "pairs.jsonl", [PAIR | {"ground_truth": {"claims": [claim]}, "hops": "two"}])
    with pytest.raises(RecordError, match=r"^pairs\.jsonl:1: field `hops`: .* \(and 1 more error\)$"):
        list(read_records(path, QRPair))
    path = _jsonl(tmp_path / "nested.jsonl", [PAIR | {"ground_truth": {"claims": [claim]}}])
    with pytest.raises(
        RecordError, match=r"^nested\.jsonl:1: field `ground_truth\.claims\.0\.status`: Input should be"
    ):
        list(read_records(path, QRPair))


def test_bad_rows_in_json_arrays_csv_and_broken_json(tmp_path: Path) -> None:
    array = tmp_path / "qa.json"
    array.write_text(json.dumps([{"question": "q", "answer": "Yes", "llm_answer": "Yes"}, {"question": "q"}]))
    with pytest.raises(RecordError, match=r"^qa\.json: item 2: field `answer`: Field required"):
        list(read_records(array, DrowzeeAnswered))
    csv_path = tmp_path / "labels.csv"
    header = "question,model_answer,model_reasoning,gold_answer,gold_entity,reasoning_erbench,reasoning_manual\n"
    csv_path.write_text(header + "q,yes,r,yes,e,0,1\nq,yes,r,yes,e,0,maybe\n")
    with pytest.raises(RecordError, match=r"^labels\.csv:3: field `reasoning_manual`: expected 0 or 1"):
        list(read_records(csv_path, ERBenchHumanLabel))
    broken = tmp_path / "broken.jsonl"
    broken.write_text(json.dumps(PAIR) + "\n{not json\n")
    with pytest.raises(RecordError, match=r"^broken\.jsonl:2: not valid JSON"):
        list(read_records(broken, QRPair))
    text = tmp_path / "x.txt"
    text.write_text("")
    with pytest.raises(RecordError, match=r"unknown format '\.txt'"):
        list(read_records(text, QRPair))


def test_scorers_reject_bad_rows_by_field() -> None:
    from drowzee_core.oracles.score import score_erbench, score_factchd_rows

    with pytest.raises(RecordError, match=r"^row 1: no prediction; put it in one of `output`"):
        score_factchd_rows([PAIR])
    with pytest.raises(RecordError, match=r"^row 2: field `label`: Input should be 'FACTUAL' or 'NON-FACTUAL'"):
        score_factchd_rows([PAIR | {"output": PAIR["reason"]}, PAIR | {"label": "maybe", "output": "x"}])
    with pytest.raises(RecordError, match=r"^row 1: field `fd_values`: Field required"):
        score_erbench([{"question": "q", "answer": "Yes", "llm_answer": "Yes"}])


def test_judged_rows_are_flat_and_typed() -> None:
    from drowzee_core.oracles.score import score_factchd_rows

    reason = "FACTUAL.\nParis is the capital of France. The evidence names Paris. So the response is right."
    judged, _ = score_factchd_rows([PAIR | {"reason": reason, "output": reason, "category": "Conventional"}])
    (row,) = judged
    assert set(PAIR) <= set(row) and row["output"] == reason
    parsed = JudgedFactCHDRow.model_validate(row)
    assert parsed.parsed_label is Label.FACTUAL and parsed.label_correct and parsed.exp_match == pytest.approx(1.0)
    flat = DrowzeeJudgement.model_validate(
        {"parsed_answer": "yes", "parse_how": "lead", "answer_correct": True, "class": "CO"}
    ).flat({"question": "q"})
    assert flat["class"] == "CO" and flat["question"] == "q" and "hallucination_class" not in flat
    assert JudgedDrowzeeRow.model_validate(flat).hallucination_class == "CO"
    with pytest.raises(ValueError, match="Input should be 'CO', 'OL', 'EI' or 'EK'"):
        DrowzeeJudgement.model_validate(
            {"parsed_answer": "yes", "parse_how": "lead", "answer_correct": True, "class": "X"}
        )
    assert FactCHDAnswered.model_validate(PAIR | {"prediction": "FACTUAL."}).predicted == "FACTUAL."


def test_checked_in_schemas_equal_fresh_ones() -> None:
    assert sorted(p.name for p in DEFAULT_DIR.glob("*.schema.json")) == sorted(
        f"{n}.schema.json" for n in PUBLIC_RECORDS
    )
    assert stale(DEFAULT_DIR) == []


def test_every_schema_field_is_described() -> None:
    for name in PUBLIC_RECORDS:
        schema = json.loads(render(name))
        # a recursive record (Provenance.history) is a root `$ref` into `$defs`, checked there
        root = (
            [] if set(schema) <= {"$schema", "$id", "$defs", "$ref", "title"} and "$ref" in schema else [(name, schema)]
        )
        for where, obj in [*root, *schema.get("$defs", {}).items()]:
            assert obj.get("description"), (name, where)
            for field, spec in obj.get("properties", {}).items():
                assert spec.get("description"), (name, where, field)


def test_cli_export_and_check(tmp_path: Path) -> None:
    from cli.main import app

    runner = CliRunner()
    res = runner.invoke(app, ["schemas", "export", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert len(list(tmp_path.glob("*.schema.json"))) == len(PUBLIC_RECORDS)
    assert runner.invoke(app, ["schemas", "export", "--out", str(tmp_path), "--check"]).exit_code == 0
    (tmp_path / "verdict.schema.json").write_text("{}\n")
    (tmp_path / "qr_pair.schema.json").unlink()
    res = runner.invoke(app, ["schemas", "export", "--out", str(tmp_path), "--check"])
    assert res.exit_code == 1 and "qr_pair, verdict" in res.output
