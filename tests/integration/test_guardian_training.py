"""Train a Guardian LoRA for a few steps on real FactCHD pairs, resume it, serve it, ask it through ChatOpenAI."""

import json
import shutil
from dataclasses import asdict
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.launch import ensure_local_server, free_port, stop_server
from drowzee_core.llm.local import read_adapter
from drowzee_core.llm.roles import chat_model, load_role
from drowzee_core.oracles.factchd_metrics import clean, label_of
from drowzee_core.oracles.inputs import read_rows
from drowzee_core.records.provenance import read_sidecar
from finetune.config import TrainConfig
from finetune.data import build_example
from finetune.manifest import check_adapter, file_sha256, metrics_key
from finetune.train import train
from tests.conftest import peers_path

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def pairs() -> list[dict[str, object]]:
    """The FactCHD authors' sample pairs (real data), short ones first to keep steps cheap."""
    rows = read_rows(peers_path("factchd") / "train_case_sample.jsonl")
    return sorted(rows, key=lambda r: len(str(r["query"])) + len(str(r["reason"])))[:24]


def test_train_resume_serve_and_get_a_verdict(pairs: list[dict[str, object]], tmp_path: Path) -> None:
    out = tmp_path / "guardian"
    cfg = TrainConfig(
        base="smollm2-135m",
        max_steps=3,
        batch_size=2,
        learning_rate=3e-3,
        warmup_steps=0,
        save_steps=1,
        max_length=224,
        eval_fraction=0.0,
        seed=0,
    )
    first = train(pairs, cfg, out, keep_checkpoints=True, data_name="train_case_sample.jsonl")
    assert first.steps == 3 and first.tokens > 0 and first.tokens_per_second > 0 and first.train_loss
    manifest = read_adapter(out).manifest
    assert manifest["base_model"] == "smollm2-135m" and manifest["config"]["max_steps"] == 3
    assert manifest["data"]["pairs"] == len(pairs) and len(manifest["data"]["fingerprint"]) == 64
    assert json.loads((out / "adapter_config.json").read_text())["base_model_name_or_path"] == "smollm2-135m"

    # an interruption after step 2: drop the last checkpoint and resume from the one before it
    shutil.rmtree(out / "checkpoints" / "checkpoint-3")
    resumed = train(pairs, cfg, out, resume=True, keep_checkpoints=True, data_name="train_case_sample.jsonl")
    assert resumed.resumed_from and resumed.resumed_from.endswith("checkpoint-2") and resumed.steps == 3
    with pytest.raises(DrowzeeError, match="data fingerprint differs"):
        train(pairs[:-1], cfg, out, resume=True)
    with pytest.raises(DrowzeeError, match="config differs"):
        train(pairs, TrainConfig.from_dict(asdict(cfg) | {"seed": 1}), out, resume=True)
    with pytest.raises(DrowzeeError, match="holds an earlier run"):
        train(pairs, cfg, out)

    port = free_port()
    proc = ensure_local_server(port=port, adapters=[out])
    try:
        role = load_role(
            "guardian",
            {"base_url": f"http://127.0.0.1:{port}/v1", "model": "guardian", "max_tokens": 24, "max_retries": 0},
        )
        pair = pairs[0]
        reply = chat_model(role).invoke(build_example(pair, "guardian")["prompt"])
        assert isinstance(reply.content, str)
        assert label_of(clean(reply.content)) in ("factual", "non factual"), reply.content
        base = chat_model(role.model_copy(update={"model": "smollm2-135m"})).invoke(
            build_example(pair, "guardian")["prompt"]
        )
        assert base.content != reply.content  # the base model is served with the adapter switched off
    finally:
        stop_server(proc)

    # the CLI evaluates the adapter on its own private server and scores with FactCHD's rules
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(p) + "\n" for p in pairs[:2]))
    res = CliRunner().invoke(
        app,
        [
            "eval",
            "guardian",
            "--data",
            str(data),
            "--adapter",
            str(out),
            "--out",
            str(tmp_path / "judged.jsonl"),
            "--max-tokens",
            "16",
            "--update-manifest",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["pairs"] == 2 and summary["metrics"]["all"]["num"] == 2 and summary["failed"] == 0
    judged = read_rows(tmp_path / "judged.jsonl")
    assert {"parsed_label", "exp_match", "llm_answer"} <= set(judged[0])
    assert {b["name"] for b in summary["baselines"]} >= {"always NON-FACTUAL", "always FACTUAL"}
    assert summary["figures"]["acc"]["low"] <= summary["figures"]["acc"]["value"] <= summary["figures"]["acc"]["high"]
    ((key, entry),) = read_adapter(out).manifest["metrics"].items()
    assert key == metrics_key("pairs.jsonl", file_sha256(data), None)
    assert entry["metrics"]["all"]["num"] == 2 and entry["data"]["sha256"] == file_sha256(data)
    assert check_adapter(out) == []  # the manifest still describes the weights and config it sits beside
    assert read_sidecar(tmp_path / "judged.jsonl") is not None
    bad = CliRunner().invoke(
        app,
        [
            "eval",
            "guardian",
            "--data",
            str(data),
            "--adapter",
            str(out),
            "--base",
            "smollm2-135m",
            "--out",
            str(tmp_path / "x.jsonl"),
        ],
    )
    assert bad.exit_code == 2 and "not both" in bad.output


def test_add_from_a_loop_run_trains_on_its_hallucinations_and_records_them(
    pairs: list[dict[str, object]], tmp_path: Path
) -> None:
    run = tmp_path / "loop"
    run.mkdir()
    rows = [
        {"id": f"c{i}", "question": f"Is A{i} part of B?", "gold": "Yes", "llm_answer": "No." if i < 2 else "Yes.",
         "answer_wrong": i < 2, "hallucinated": i < 2, "rule": "transitive"}
        for i in range(4)
    ]  # fmt: skip
    cases = [
        {"id": r["id"], "question": r["question"], "facts": [[f"A{i}", "part_of", "B"]]} for i, r in enumerate(rows)
    ]
    for name, recs in (("rows.jsonl", rows), ("cases.jsonl", cases)):
        (run / name).write_text("".join(json.dumps(x) + "\n" for x in recs))
    data = tmp_path / "pairs.jsonl"
    data.write_text("".join(json.dumps(p) + "\n" for p in pairs[:4]))
    out = tmp_path / "retrained"
    res = CliRunner().invoke(
        app,
        ["train", "guardian", "--data", str(data), "--add-from", str(run), "--out", str(out), "--max-steps", "1",
         "--batch-size", "2", "--max-length", "224", "--json"],
    )  # fmt: skip
    assert res.exit_code == 0, res.output
    manifest = read_adapter(out).manifest
    assert manifest["data"]["pairs"] == 4 + 4  # the file's 4, and 2 hallucinations + 2 right answers
    (added,) = manifest["data"]["added"]
    assert (added["run"], added["hallucinations"], added["correct"], added["label"]) == (str(run), 2, 2, "answer")
    assert len(added["rows_sha256"]) == 64
