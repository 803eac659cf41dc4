"""Guardian training data, config and adapter manifests (pure parts; no model is loaded)."""

import json
import shutil
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.local import find_adapters, read_adapter, weights_sha256
from drowzee_core.oracles.score import factchd_gold, score_factchd_rows
from drowzee_core.oracles.stats import accuracy, codes, evaluate_rows, factcls, label_figures, macro_f1, majority
from finetune.config import TrainConfig, bundled_configs
from finetune.data import (
    build_example,
    build_examples,
    contrary_opinion,
    fingerprint,
    format_evidence,
    pick_shots,
)
from finetune.evaluate import EvalRequest
from finetune.manifest import check_adapter, metrics_key, read_manifest, record_metrics
from finetune.train import Collator

PAIR = {
    "id": "p1",
    "label": "NON-FACTUAL",
    "query": "Where is Amnat Charoen?",
    "response": "Amnat Charoen is located in Brazil.",
    "evidence": [["Amnat Charoen", "located in", "Thailand"]],
    "reason": "NON-FACTUAL.\nThe answer that Amnat Charoen is located in Brazil is incorrect. According to the"
    " evidence, it is in Thailand. Therefore, the answer is an incorrect conclusion.",
    "pattern": "vanilla",
}


def _pairs(n: int) -> list[dict[str, object]]:
    patterns = ["vanilla", "multi_hop", "comparison", "set_operation"]
    return [
        PAIR
        | {
            "id": f"p{i}",
            "label": ("FACTUAL", "NON-FACTUAL")[i % 2],
            "pattern": patterns[i % 4],
            "reason": f"{('FACTUAL', 'NON-FACTUAL')[i % 2]}.\nReason {i}.",
        }
        for i in range(n)
    ]


def test_guardian_and_judge_examples() -> None:
    g = build_example(PAIR, "guardian")
    assert "#Question#: Where is Amnat Charoen?" in g["prompt"]
    assert "#Answer#: Amnat Charoen is located in Brazil." in g["prompt"]
    assert "fallacy finder" in g["prompt"] and "Evidence" not in g["prompt"]
    assert g["completion"] == PAIR["reason"] and g["label"] == "NON-FACTUAL" and g["pattern"] == "vanilla"
    j = build_example(PAIR, "judge")
    assert "#Evidence#:\nAmnat Charoen | located in | Thailand" in j["prompt"]
    assert format_evidence("Text evidence. ") == "Text evidence." and format_evidence([]) == "(none)"
    # FactCHD's own records name the pattern `subgraph_type`
    assert (
        build_example(
            {k: v for k, v in PAIR.items() if k != "pattern"} | {"subgraph_type": "multi_hop_reasoning"}, "guardian"
        )["pattern"]
        == "multi_hop_reasoning"
    )


def test_arbitration_is_seeded_and_mixed() -> None:
    pairs = _pairs(400)
    first = build_examples(pairs, ["arbitration"], seed=3)
    assert first == build_examples(pairs, ["arbitration"], seed=3)
    assert first != build_examples(pairs, ["arbitration"], seed=4)
    kinds = Counter(e["opinions"] for e in first)
    assert set(kinds) == {"disagree", "both_right", "both_wrong"}
    assert 0.5 < kinds["disagree"] / 400 < 0.7 and kinds["both_wrong"] > 20
    for e in first:  # the gold reason is one of the opinions exactly when some opinion is right
        gold_in = e["completion"] in e["prompt"]
        assert gold_in == (e["opinions"] != "both_wrong")
        assert e["completion"].split(".")[0] == e["label"]
    assert contrary_opinion(PAIR).startswith("FACTUAL.")
    assert contrary_opinion(PAIR | {"label": "FACTUAL"}).startswith("NON-FACTUAL.")


def test_bad_pairs_are_named() -> None:
    with pytest.raises(DrowzeeError, match="pair 2: missing `reason`"):
        build_examples([PAIR, {k: v for k, v in PAIR.items() if k != "reason"}])
    with pytest.raises(DrowzeeError, match="label must be"):
        build_examples([PAIR | {"label": "MAYBE"}])
    with pytest.raises(DrowzeeError, match="unknown mode"):
        build_examples([PAIR], ["oracle"])
    with pytest.raises(DrowzeeError, match="empty"):
        build_examples([])


def test_few_shot_alternates_labels_and_spreads_patterns() -> None:
    shots = pick_shots(_pairs(40), 4, seed=1)
    assert [s["label"] for s in shots] == ["NON-FACTUAL", "FACTUAL", "NON-FACTUAL", "FACTUAL"]
    assert len({s["id"] for s in shots}) == 4
    assert pick_shots(_pairs(40), 4, seed=1) == shots
    assert len({s["pattern"] for s in shots}) >= 2
    with pytest.raises(DrowzeeError, match="each label"):
        pick_shots([p for p in _pairs(10) if p["label"] == "FACTUAL"], 2)


def test_fingerprint_depends_on_content_and_order() -> None:
    a, b = _pairs(2)
    assert fingerprint([a, b]) == fingerprint([dict(a), dict(b)])
    assert fingerprint([a, b]) != fingerprint([b, a])
    assert fingerprint([a]) != fingerprint([a | {"label": "FACTUAL" if a["label"] != "FACTUAL" else "NON-FACTUAL"}])


def test_train_config_validation_and_round_trip(tmp_path: Path) -> None:
    cfg = TrainConfig(base="gemma3-270m", modes=("guardian", "judge"), max_steps=7)
    cfg.save(tmp_path / "c.json")
    assert TrainConfig.load(tmp_path / "c.json") == cfg
    with pytest.raises(DrowzeeError, match="unknown training config keys \\['lora_rank'\\]"):
        TrainConfig.from_dict({"lora_rank": 8})
    with pytest.raises(DrowzeeError, match="modes must be"):
        TrainConfig(modes=("summarise",))
    with pytest.raises(DrowzeeError, match="lora_r must be an integer") as exc:
        TrainConfig(lora_r=0, learning_rate=2.0)
    assert "learning_rate" in str(exc.value)  # every problem at once
    configs = bundled_configs()
    assert {"cpu-smollm2", "gpu-7b"} <= set(configs)
    for path in configs.values():
        assert TrainConfig.load(path).max_steps > 0


def test_collator_masks_padding() -> None:
    batch = Collator(pad_id=0)([{"input_ids": [5, 6, 7], "labels": [-100, 6, 7]}, {"input_ids": [5], "labels": [5]}])
    assert batch["input_ids"].tolist() == [[5, 6, 7], [5, 0, 0]]
    assert batch["labels"].tolist() == [[-100, 6, 7], [5, -100, -100]]
    assert batch["attention_mask"].tolist() == [[1, 1, 1], [1, 0, 0]]


def _adapter(folder: Path, **manifest: object) -> Path:
    folder.mkdir(parents=True)
    (folder / "adapter_config.json").write_text("{}")
    (folder / "manifest.json").write_text(json.dumps({"name": "guardian", "base_model": "smollm2-135m"} | manifest))
    return folder


def test_adapter_manifests_are_checked_and_found_in_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path / "home"))
    mine = _adapter(tmp_path / "home" / "adapters" / "g", note="home")
    assert find_adapters()["guardian"].path == mine  # the user's adapter shadows a shipped one of that name
    explicit = _adapter(tmp_path / "x", note="explicit")
    assert find_adapters([explicit])["guardian"].manifest["note"] == "explicit"
    with pytest.raises(DrowzeeError, match="base_model 'llama' is not one of"):
        read_adapter(_adapter(tmp_path / "b", base_model="llama"))
    with pytest.raises(DrowzeeError, match="taken by a base model"):
        read_adapter(_adapter(tmp_path / "c", name="gemma3-270m"))
    with pytest.raises(DrowzeeError, match="name must match"):
        read_adapter(_adapter(tmp_path / "d", name="../etc"))
    with pytest.raises(DrowzeeError, match="not a LoRA adapter folder"):
        read_adapter(tmp_path)


def test_factchd_gold_does_not_double_the_label() -> None:
    assert factchd_gold(PAIR) == PAIR["reason"]
    assert factchd_gold({"label": "FACTUAL", "reason": "It is right."}) == "FACTUAL. It is right."
    rows, typed = score_factchd_rows([PAIR | {"output": PAIR["reason"]}], group="pattern")
    summary = typed.model_dump()
    assert rows[0]["exp_match"] == pytest.approx(1.0) and set(summary["groups"]) == {"vanilla"}
    # the label doubled in front (the old gold) would have shifted the head sentence
    rows, _ = score_factchd_rows([PAIR | {"output": PAIR["reason"], "reason": "NON-FACTUAL. " + PAIR["reason"]}])
    assert rows[0]["exp_match"] < 1.0


def _judged(pred: list[str | None], gold: list[str], exp: float = 0.5) -> list[dict[str, object]]:
    return [{"parsed_label": p, "gold_label": g, "exp_match": exp} for p, g in zip(pred, gold, strict=True)]


def test_figures_agree_with_factchd_scoring_and_baselines_are_worked_out() -> None:
    # 18 NON-FACTUAL / 18 FACTUAL gold, like the test split: always NON-FACTUAL has P 0.5, R 1, F1 2/3
    gold = ["NON-FACTUAL"] * 18 + ["FACTUAL"] * 18
    pred: list[str | None] = ["NON-FACTUAL"] * 13 + ["FACTUAL"] * 5 + ["NON-FACTUAL"] * 11 + ["FACTUAL"] * 6 + [None]
    model, base = evaluate_rows("m", _judged(pred, gold))
    by_name = {b.name: b for b in base}
    nf, f, maj = by_name["always NON-FACTUAL"], by_name["always FACTUAL"], by_name["majority (NON-FACTUAL)"]
    assert nf.factcls.value == pytest.approx(2 / 3, abs=1e-5) and nf.acc.value == 0.5
    assert nf.macro_f1.value == pytest.approx(1 / 3, abs=1e-5) and nf.exp_match is None
    assert f.factcls.value == 0.0 and f.acc.value == 0.5 and maj.factcls == nf.factcls  # tie -> NON-FACTUAL
    # the model: tp 13, fp 11, fn 5 (the unlabelled FACTUAL answer counts in neither, as in FactCHD's script)
    assert model.factcls.value == pytest.approx(26 / 42, abs=1e-5) and model.acc.value == pytest.approx(
        19 / 36, abs=1e-5
    )
    assert model.unlabelled == 1 and model.exp_match and model.exp_match.value == 0.5
    for fig in (model.factcls, model.acc, model.macro_f1, nf.factcls):
        assert 0.0 <= fig.low < fig.value < fig.high <= 1.0
    assert model.exp_match.low == model.exp_match.high == 0.5  # a constant has no spread
    # the same figures FactCHD's scorer reports from the texts
    rows = [
        {"label": g, "reason": f"{g}.\nBecause.", "output": f"{p}.\nBecause." if p else "No idea."}
        for p, g in zip(pred, gold, strict=True)
    ]
    judged, typed = score_factchd_rows(rows)
    summary = typed.model_dump()
    again, _ = evaluate_rows("m", judged)
    for name in ("factcls", "acc", "macro_f1", "exp_match"):
        assert getattr(again, name).value == pytest.approx(summary["all"][name], abs=1e-4), name
    assert evaluate_rows("m", judged)[0] == again  # seeded: the same intervals every time
    assert majority(codes(_judged(["FACTUAL"] * 3, ["FACTUAL", "FACTUAL", "NON-FACTUAL"]), "gold_label")) == 0


def test_vectorized_figures_match_scikit_learn() -> None:
    rng = np.random.default_rng(5)
    for _ in range(50):
        n = int(rng.integers(2, 40))
        pred, gold = rng.integers(-1, 2, n), rng.integers(0, 2, n)
        fast = label_figures(pred, gold)
        assert fast == pytest.approx([factcls(pred, gold), accuracy(pred, gold), macro_f1(pred, gold)])


def test_metrics_are_keyed_by_data_hash_and_slice(tmp_path: Path) -> None:
    assert metrics_key("test.jsonl", "ab" * 32, None) == "test.jsonl@sha256:abababababab[:]"
    assert metrics_key("test.jsonl", "ab" * 32, 20, shots=4) == "test.jsonl@sha256:abababababab[:20]+4shot"
    folder = _adapter(tmp_path / "a", metrics={"old.jsonl": {"acc": 0.9}})
    entry = {"data": {"path": "t.jsonl", "sha256": "cd" * 32, "limit": None}, "metrics": {}}
    record_metrics(folder, "t.jsonl@sha256:cdcdcdcdcdcd[:]", entry)
    assert list(read_manifest(folder)["metrics"]) == ["t.jsonl@sha256:cdcdcdcdcdcd[:]"]  # untraceable entry dropped
    with pytest.raises(ValueError, match="sha256"):
        record_metrics(folder, "x", {"metrics": {}})


def test_eval_request_is_checked(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    with pytest.raises(DrowzeeError, match="not both"):
        EvalRequest(data, tmp_path / "o", adapter=tmp_path, base="smollm2-135m").check()
    with pytest.raises(DrowzeeError, match="--shots-from"):
        EvalRequest(data, tmp_path / "o", base="smollm2-135m", shots=2).check()
    with pytest.raises(DrowzeeError, match="give --adapter"):
        EvalRequest(data, tmp_path / "o", base="smollm2-135m", update_manifest=True).check()


SHIPPED = Path(__file__).parents[2] / "finetune" / "adapters" / "guardian"


def test_shipped_adapter_matches_its_manifest(tmp_path: Path) -> None:
    assert check_adapter(SHIPPED) == []
    manifest = read_manifest(SHIPPED)
    assert manifest["weights_sha256"] == weights_sha256(SHIPPED)
    assert manifest["metrics"], "the shipped manifest records no evaluation"
    for key, entry in manifest["metrics"].items():  # every figure traceable: written by eval --update-manifest
        data = entry["data"]
        assert key == metrics_key(Path(data["path"]).name, data["sha256"], data["limit"], entry["shots"])
        assert entry["figures"]["num"] == data["pairs"] == entry["metrics"]["all"]["num"]
        assert entry["figures"]["factcls"]["value"] == pytest.approx(entry["metrics"]["all"]["factcls"], abs=1e-4)
        assert {b["name"].split(" (")[0] for b in entry["baselines"]} == {
            "always NON-FACTUAL",
            "always FACTUAL",
            "majority",
        }
    # a tampered copy is caught: other weights, another rank
    copy = tmp_path / "g"
    shutil.copytree(SHIPPED, copy)
    (copy / "adapter_model.safetensors").write_bytes(b"retrained")
    cfg = json.loads((copy / "adapter_config.json").read_text())
    (copy / "adapter_config.json").write_text(json.dumps(cfg | {"r": 16}))
    problems = check_adapter(copy)
    assert any(p.startswith("weights_sha256") for p in problems) and any(p.startswith("r:") for p in problems)
