"""The real closed loop on six Drowzee QA cases with recorded answers: Prolog, the verifier, the oracle, the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from drowzee_core.kb.model import Stats
from drowzee_core.records.provenance import read_sidecar

pytestmark = [pytest.mark.integration, pytest.mark.slow]
runner = CliRunner()


def _answer(case: dict[str, object], right: bool) -> str:
    """A recorded answer: the gold answer (or the other one) with the case's facts as the reasoning."""
    gold = str(case["answer"]).rstrip(".")
    said = gold if right else ("No" if gold == "Yes" else "Yes")
    facts = "; ".join(" ".join(str(x).replace("_", " ") for x in f) for f in case["facts"])  # type: ignore[attr-defined]
    return f"{said}. {facts}."


def test_the_loop_over_recorded_answers(
    seed_kb: tuple[Path, Stats], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the Guardian is a generative model server, tested on its own; claims come from the catalog templates
    monkeypatch.setenv("DROWZEE_VERIFY_USE_GUARDIAN", "false")
    monkeypatch.setenv("DROWZEE_VERIFY_EXTRACTOR", "templates")
    kb = str(seed_kb[0])
    cases_file = tmp_path / "cases.jsonl"
    res = runner.invoke(
        app, ["generate", "drowzee-qa", "--n", "6", "--seed", "4", "--kb", kb, "--out", str(cases_file)]
    )
    assert res.exit_code == 0, res.output
    cases = [json.loads(x) for x in cases_file.read_text().splitlines()]
    answers = tmp_path / "answers.jsonl"
    answers.write_text(
        "".join(
            json.dumps(c | {"llm_answer": _answer(c, right=i % 2 == 0), "model": "scripted"}) + "\n"
            for i, c in enumerate(cases)
        )
    )
    out = tmp_path / "run"
    args = ["benchmark", "--generator", "drowzee-qa", "--answers", str(answers), "--evidence", "facts"]
    args += ["--kb", kb, "--out", str(out), "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)

    for name in ("cases.jsonl", "answers.jsonl", "verdicts.jsonl", "judged.jsonl", "rows.jsonl", "scores.json"):
        assert read_sidecar(out / name) is not None, name
    for name in ("report.md", "report.html", "detection.png", "target/heatmap_rule.png", "target/classes.png"):
        assert (out / name).stat().st_size > 0, name
    assert read_sidecar(out / "report.md") is not None

    scores = json.loads((out / "scores.json").read_text())["verifier"]
    rows = [json.loads(x) for x in (out / "rows.jsonl").read_text().splitlines()]
    assert scores["rows"] == len(rows) == 6 == summary["rows"]
    assert scores["evaluated"] + scores["no_oracle_label"] + scores["no_verdict"] == 6
    overall = scores["overall"]
    assert sum(overall["confusion"].values()) == overall["n"] == scores["evaluated"]
    evaluated = [r for r in rows if r["hallucinated"] is not None and r["flagged"] is not None]
    assert overall["hallucinations"] == sum(r["hallucinated"] for r in evaluated)
    assert overall["flagged"] == sum(r["flagged"] for r in evaluated)
    # the three wrong answers are hallucinations (EK / EI) whatever the reasoning
    assert sum(bool(r["hallucinated"]) for r in rows) >= 3
    assert sum(b["n"] for b in scores["groups"]["rule"].values()) == scores["evaluated"]
    assert len(scores["misses"]) == overall["confusion"]["fn"]
    assert len(scores["false_alarms"]) == overall["confusion"]["fp"]
    verdicts = [json.loads(x) for x in (out / "verdicts.jsonl").read_text().splitlines()]
    assert sorted(v["row"] for v in verdicts) == [1, 2, 3, 4, 5, 6]
    assert "## The verifier against the oracle" in (out / "report.md").read_text()

    again = runner.invoke(app, [*args, "--resume"])  # finished: nothing runs again
    assert again.exit_code == 0, again.output
    assert json.loads(again.stdout)["verifier"] == summary["verifier"]
