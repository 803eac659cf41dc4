"""The closed-loop graph with fakes: every artefact written, resume after a failing node, recorded answers."""

from __future__ import annotations

import itertools
import json
from pathlib import Path

import pytest

from agents.loop import LoopConfig, LoopError, build_loop_graph, finished_nodes, run_loop, thread_id
from drowzee_core.records.provenance import read_sidecar
from tests.unit.loop_fakes import Fakes


def config(**kw: object) -> LoopConfig:
    values: dict[str, object] = {"generator": "drowzee-qa", "n": 6, "target": "target", "evidence": "facts"}
    return LoopConfig(**(values | kw))  # type: ignore[arg-type]


def test_wiring() -> None:
    graph = build_loop_graph().get_graph()
    edges = {(e.source, e.target) for e in graph.edges}
    chain = ["__start__", "generate", "ask", "verify", "score", "report", "__end__"]
    assert edges == set(itertools.pairwise(chain)) | {("score", "mitigate"), ("mitigate", "report")}


def test_retrieval_patch_reasks_with_the_verifiers_facts(tmp_path: Path) -> None:
    fakes, out = Fakes(tmp_path), tmp_path / "run"
    values = run_loop(config(mitigate="rag", evidence="none"), fakes.context(out))
    assert values["finished"] == ["generate", "ask", "verify", "score", "mitigate", "report"]
    patched = [json.loads(x) for x in (out / "mitigated_answers.jsonl").read_text().splitlines()]
    assert [p["id"] for p in patched] == ["c0", "c1", "c2", "c3", "c4"]  # c5: no fact to give
    assert patched[1]["prompt"].startswith("Facts from a knowledge base") and "- c1 fact." in patched[1]["prompt"]
    m = json.loads((out / "mitigation.json").read_text())
    assert (m["cases"], m["patched"], m["no_facts"]) == (6, 5, 1)
    answer = next(c for c in m["changes"] if c["label"] == "answer")
    # before: c1 and c4 wrong of c0..c4 (2/5); after: c1 and c4 fixed, c3 broken (1/5)
    assert answer["n"] == 5 and (answer["fixed"], answer["broken"]) == (2, 1)
    assert answer["before"]["value"] == pytest.approx(0.4) and answer["after"]["value"] == pytest.approx(0.2)
    assert answer["difference"]["value"] == pytest.approx(-0.2)
    assert "Mitigation: retrieval patch" in (out / "report.md").read_text()
    assert read_sidecar(out / "mitigation.json") is not None


def test_retrieval_patch_needs_a_model_to_reask() -> None:
    with pytest.raises(LoopError, match="--mitigate rag"):
        LoopConfig(generator="drowzee-qa", answers="history.json", mitigate="rag")


def test_run_writes_every_artefact_with_sidecars(tmp_path: Path) -> None:
    fakes, out = Fakes(tmp_path), tmp_path / "run"
    values = run_loop(config(), fakes.context(out))
    assert values["finished"] == ["generate", "ask", "verify", "score", "report"]
    assert not (out / "mitigation.json").exists()
    for name in ("cases.jsonl", "answers.jsonl", "verdicts.jsonl", "judged.jsonl", "rows.jsonl", "scores.json"):
        assert (out / name).exists(), name
        meta = read_sidecar(out / name)
        assert meta is not None and meta.kb_fingerprint == "fp", name
    for name in ("report.md", "report.html", "detection.png", "target/heatmap_rule.png", "target/report.md"):
        assert (out / name).exists(), name
    scores = json.loads((out / "scores.json").read_text())
    v = scores["verifier"]
    # hallucinations: c1 (Yes for No) and c4 (No for Yes); flagged: answers starting "No" or "Yes, it is."
    assert v["evaluated"] == 6 and v["overall"]["hallucinations"] == 2
    assert v["overall"]["confusion"] == {"tp": 2, "fp": 1, "fn": 0, "tn": 3}
    assert v["false_alarms"] == ["c2"] and v["misses"] == []
    assert v["graph_oracle"]["rows"] == 6  # the explanation cites the facts (fake similarity 0.9)
    assert fakes.scored == ["drowzee", "drowzee"]  # answers, then explanations
    report = (out / "report.md").read_text()
    assert "precision" in report and "False alarms" in report and "c2" in report


def test_resume_after_a_failing_node(tmp_path: Path) -> None:
    fakes, out = Fakes(tmp_path, fail_verify_at=4), tmp_path / "run"
    with pytest.raises(RuntimeError, match="verifier died"):
        run_loop(config(), fakes.context(out))
    assert finished_nodes(out) == ["generate", "ask"]
    assert len((out / "verdicts.jsonl").read_text().splitlines()) == 3  # rows 1-3 are durable
    calls = fakes.target_model.calls
    assert (fakes.generated, calls) == (1, 6)

    values = run_loop(config(), fakes.context(out))
    assert values["finished"] == ["generate", "ask", "verify", "score", "report"]
    assert (fakes.generated, fakes.target_model.calls) == (1, 6)  # generate and ask did not run again
    assert fakes.verified == 4 + 3  # the failed row and the two after it, nothing twice
    rows = [json.loads(x) for x in (out / "verdicts.jsonl").read_text().splitlines()]
    assert sorted(r["row"] for r in rows) == [1, 2, 3, 4, 5, 6]

    again = run_loop(config(), fakes.context(out))  # finished: nothing runs
    assert again["report"] == values["report"] and fakes.verified == 7


def test_resume_refuses_other_options(tmp_path: Path) -> None:
    fakes, out = Fakes(tmp_path, fail_verify_at=1), tmp_path / "run"
    rules = ("inverse", "negation")
    with pytest.raises(RuntimeError):
        run_loop(config(rules=rules), fakes.context(out))
    with pytest.raises(LoopError, match=r"other options.*evidence"):
        run_loop(config(rules=rules, evidence="none"), fakes.context(out))
    assert run_loop(config(rules=rules), fakes.context(out))["finished"][-1] == "report"  # revived config


def test_answers_are_cached_across_runs(tmp_path: Path) -> None:
    fakes = Fakes(tmp_path)
    run_loop(config(), fakes.context(tmp_path / "a"))
    run_loop(config(), fakes.context(tmp_path / "b"))
    assert fakes.target_model.calls == 6 and fakes.generated == 2
    assert thread_id(tmp_path / "a") != thread_id(tmp_path / "b")


def test_recorded_drowzee_answers(tmp_path: Path) -> None:
    history = tmp_path / "vicuna" / "history.json"
    history.parent.mkdir()
    items = [
        {
            "qid": i,
            "entityid": "['1', '2']",
            "entity": "['A', 'B']",
            "description": "['a', 'b']",
            "category": "History and Events",
            "reasoning": "Transitive Inference" if i % 2 else "Negation",
            "question": f"Is A{i} part of B{i}?",
            "answer": "Yes." if i % 2 else "No.",
            "evidence": f"[['A{i}', 'part_of', 'B{i}']]",
            "llm_answer": "Yes, A is part_of B." if i < 3 else "No.",
        }
        for i in range(5)
    ]
    history.write_text(json.dumps(items))
    fakes, out = Fakes(tmp_path), tmp_path / "run"
    cfg = LoopConfig(generator="drowzee-qa", answers=str(history), evidence="facts", limit=4, seed=1)
    run_loop(cfg, fakes.context(out))
    assert fakes.generated == 0 and fakes.target_model.calls == 0
    answers = [json.loads(x) for x in (out / "answers.jsonl").read_text().splitlines()]
    assert len(answers) == 4 and {a["model"] for a in answers} == {"vicuna"}
    assert all(a["id"].startswith("vicuna:") for a in answers)
    scores = json.loads((out / "scores.json").read_text())["verifier"]
    assert set(scores["groups"]["rule"]) <= {"Transitive Inference", "Negation"}


def test_factchd_pairs_carry_their_own_responses(tmp_path: Path) -> None:
    fakes, out = Fakes(tmp_path), tmp_path / "run"
    run_loop(LoopConfig(generator="factchd", n=4, evidence="facts"), fakes.context(out))
    assert fakes.target_model.calls == 0 and fakes.scored == ["factchd"]
    scores = json.loads((out / "scores.json").read_text())
    assert scores["verifier"]["overall"]["confusion"] == {"tp": 2, "fp": 0, "fn": 0, "tn": 2}
    assert scores["oracle"]["all"]["factcls"] == 1.0  # the factchd scorer judged the verdicts
    assert "| factcls | 1.0 |" in (out / "report.md").read_text()
    assert (out / "report.html").exists() and not (out / "target").exists()


def test_a_failed_call_stops_at_ask_and_resume_asks_only_it(tmp_path: Path) -> None:
    fakes, out = Fakes(tmp_path), tmp_path / "run"
    fakes.target_model.fail_on = 2
    with pytest.raises(LoopError, match=r"1 of 6 calls .* --resume"):
        run_loop(config(), fakes.context(out))
    assert finished_nodes(out) == ["generate"] and fakes.target_model.calls == 6
    run_loop(config(), fakes.context(out))
    assert fakes.target_model.calls == 7 and finished_nodes(out)[-1] == "report"
