"""Guardian training data, config and adapter manifests (pure parts; no model is loaded)."""

import json
from collections import Counter
from pathlib import Path

import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.local import find_adapters, read_adapter
from drowzee_core.oracles.score import factchd_gold, score_factchd_rows
from finetune.config import TrainConfig, bundled_configs
from finetune.data import (
    build_example,
    build_examples,
    contrary_opinion,
    fingerprint,
    format_evidence,
    pick_shots,
)
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
    rows, summary = score_factchd_rows([PAIR | {"output": PAIR["reason"]}], group="pattern")
    assert rows[0]["exp_match"] == pytest.approx(1.0) and set(summary["groups"]) == {"vanilla"}
    # the label doubled in front (the old gold) would have shifted the head sentence
    rows, _ = score_factchd_rows([PAIR | {"output": PAIR["reason"], "reason": "NON-FACTUAL. " + PAIR["reason"]}])
    assert rows[0]["exp_match"] < 1.0
