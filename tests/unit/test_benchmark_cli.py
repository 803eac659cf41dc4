"""`drowzee benchmark`: bad combinations of options exit 2 with a message that says what to change."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()


@pytest.fixture()
def answers(tmp_path: Path) -> Path:
    path = tmp_path / "answers.jsonl"
    path.write_text('{"id": "a", "question": "Q?", "answer": "Yes", "llm_answer": "Yes"}\n')
    return path


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--generator", "drowzee-qa", "--n", "5"], "exactly one of --target"),
        (["--generator", "drowzee-qa", "--n", "5", "--target", "target", "--answers", "ANSWERS"], "--target and"),
        (["--generator", "drowzee-qa", "--n", "5", "--model", "m"], "--model and --base-url go together"),
        (["--generator", "drowzee-qa", "--answers", "ANSWERS", "--n", "5"], "--n does not apply"),
        (["--generator", "drowzee-qa", "--target", "target"], "--n is required"),
        (["--generator", "judge", "--n", "5", "--target", "target"], "cannot run in the loop"),
        (["--generator", "factchd", "--n", "5", "--target", "target"], "carry their own responses"),
        (["--generator", "erbench", "--n", "5", "--target", "target"], "needs --schema"),
        (["--generator", "drowzee-qa", "--n", "5", "--target", "target", "--evidence", "web"], "none or facts"),
        (["--generator", "drowzee-qa", "--n", "5", "--target", "nobody"], "unknown role"),
        (["--generator", "drowzee-qa", "--n", "5", "--target", "target", "--policy", "vote"], "--policy must be"),
        (["--generator", "drowzee-qa", "--answers", "missing.jsonl"], "is not a file"),
    ],
)
def test_bad_combinations(args: list[str], message: str, answers: Path, tmp_path: Path) -> None:
    args = [str(answers) if a == "ANSWERS" else a for a in args]
    res = runner.invoke(app, ["benchmark", *args, "--out", str(tmp_path / "run")])
    assert res.exit_code == 2, res.output
    assert message in " ".join(res.output.split())
    assert not (tmp_path / "run").exists()


def test_existing_run_needs_resume(answers: Path, tmp_path: Path) -> None:
    out = tmp_path / "run"
    out.mkdir()
    (out / "checkpoints.sqlite").write_bytes(b"")
    res = runner.invoke(app, ["benchmark", "--generator", "drowzee-qa", "--answers", str(answers), "--out", str(out)])
    assert res.exit_code == 2 and "--resume" in res.output


def test_refuses_a_folder_that_is_not_a_run(answers: Path, tmp_path: Path) -> None:
    (tmp_path / "keep.txt").write_text("x")
    res = runner.invoke(
        app, ["benchmark", "--generator", "drowzee-qa", "--answers", str(answers), "--out", str(tmp_path)]
    )
    assert res.exit_code == 2 and "not empty" in " ".join(res.output.split())
