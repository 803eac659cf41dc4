"""Test generation over the real seed KB: every stated answer is re-proved by Prolog."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from drowzee_core.generate import templates_kb
from drowzee_core.generate.drowzee_qa import FAMILIES, DrowzeeQAConfig, DrowzeeQAGenerator
from drowzee_core.generate.factchd import FactCHDConfig, FactCHDGenerator, grounding_shares, to_rows
from drowzee_core.generate.factchd_record import CATEGORY
from drowzee_core.generate.prover import NEW_CONSTANT
from drowzee_core.generate.splits import SplitPlan
from drowzee_core.generate.temporal_qa import TemporalQAConfig, generate_temporal_records
from drowzee_core.kb.model import DOMAINS, Stats, ValueKind
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.events import events_from_kb
from drowzee_core.logic.mtl import MTLQuery
from drowzee_core.logic.mtl_reference import ReferenceEvaluator
from drowzee_core.logic.mtl_syntax import from_json
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.logic.temporal import TemporalEngine, kb_horizon
from drowzee_core.records.pair import QRPair
from tests.conftest import peers_path

pytestmark = [pytest.mark.integration, pytest.mark.slow]


@pytest.fixture(scope="module")
def reasoner(seed_kb: tuple[Path, Stats]) -> Reasoner:
    return Reasoner(KBStore(seed_kb[0]))


@pytest.fixture(scope="module")
def qa_cases(reasoner: Reasoner) -> list[dict[str, Any]]:
    return [c.model_dump(mode="json") for c in DrowzeeQAGenerator(reasoner).generate(DrowzeeQAConfig(n=7200, seed=0))]


def test_every_drowzee_qa_answer_is_reproved(reasoner: Reasoner, qa_cases: list[dict[str, Any]]) -> None:
    """7,200 cases (the paper's size); `prove` (not the generator's path) agrees with every answer."""
    ids = reasoner.store.entity_ids()
    assert len(qa_cases) == 7200
    disagreements = []
    for case in qa_cases:
        c = case["conclusion"]
        status = reasoner.engine.prove(ids[c["subject"]], reasoner.relation_ids[c["relation"]], ids[c["object"]]).status
        if status != c["status"] or templates_kb.answer(status, case["form"]) != case["answer"]:
            disagreements.append((case["id"], case["question"], status, case["answer"]))
    assert disagreements == []
    assert Counter(c["answer"] for c in qa_cases) == {"Yes": 3600, "No": 3600}
    assert {c["rule"] for c in qa_cases} == set(FAMILIES)
    assert {c["domain"] for c in qa_cases} == set(DOMAINS)
    for family in FAMILIES:
        answers = Counter(c["answer"] for c in qa_cases if c["rule"] == family)
        assert abs(answers["Yes"] - answers["No"]) <= 1, (family, answers)


def test_drowzee_qa_records_carry_ground_truth(qa_cases: list[dict[str, Any]]) -> None:
    for case in qa_cases[:500]:
        assert case["facts"] and all(len(f) == 3 for f in case["facts"])
        assert case["reasoning"][-1] == f"So the answer is {case['answer']}."
        assert case["question"] in case["prompt"] and "I don't know" in case["prompt"]
    assert len({c["id"] for c in qa_cases}) == len(qa_cases)
    assert len(
        {(c["conclusion"]["subject"], c["conclusion"]["relation"], c["conclusion"]["object"]) for c in qa_cases}
    ) == len(qa_cases)


def test_generation_is_deterministic(reasoner: Reasoner) -> None:
    gen = DrowzeeQAGenerator(reasoner)
    cfg = DrowzeeQAConfig(n=120, seed=7, domains=("geography", "health"))
    first, second = gen.generate(cfg), gen.generate(cfg)
    assert first == second
    assert {c.domain for c in first} <= {"geography", "health"}


def test_splits_share_no_entity(reasoner: Reasoner) -> None:
    gen = DrowzeeQAGenerator(reasoner)
    train = gen.generate(DrowzeeQAConfig(n=400, seed=1, split="train"))
    test = gen.generate(DrowzeeQAConfig(n=200, seed=1, split="test"))
    assert {c.split for c in train} == {"train"} and {c.split for c in test} == {"test"}
    hubs = set(reasoner.store.keys(gen.hub_ids).values())
    shared = ({e for c in train for e in c.entities} & {e for c in test for e in c.entities}) - hubs
    assert shared == set()


def test_every_temporal_answer_is_reproved(reasoner: Reasoner) -> None:
    table = events_from_kb(reasoner.store, kb_horizon()[1])
    records = generate_temporal_records(table, kb_horizon(), TemporalQAConfig(n=1800, seed=0), SplitPlan())
    cases = [c.model_dump(mode="json") for c in records]
    engine = TemporalEngine(table, kb_horizon())
    reference = ReferenceEvaluator(table.as_mapping(), kb_horizon())
    assert len(cases) == 1800 and Counter(c["answer"] for c in cases) == {"Yes": 900, "No": 900}
    answers = engine.check_many([MTLQuery(from_json(c["formula"]), c["year"]) for c in cases])
    for case, got in zip(cases, answers, strict=True):
        truth = case["answer"] == "Yes"
        assert got.truth == truth, case["mtl"]
        assert reference.holds(from_json(case["formula"]), case["year"]) == truth, case["mtl"]
        assert case["kind"] == "temporal" and case["reasoning"][-1] == f"So the answer is {case['answer']}."


def test_factchd_pairs_follow_the_peers_schema_and_reprove(reasoner: Reasoner) -> None:
    """Every claim's status is what `prove` (not the generator's batch path) says; labels follow the grounding."""
    peers = [json.loads(x) for x in peers_path("factchd", "train_case_sample.jsonl").read_text().splitlines()]
    core = {"id", "label", "query", "response", "evidence", "reason", "domain", "type", "category"}
    assert all(core <= set(p) for p in peers)
    pairs = FactCHDGenerator.from_reasoner(reasoner).generate(FactCHDConfig(n=400, seed=3))
    assert len(pairs) == 400
    assert Counter(p.category for p in pairs) == {v: 100 for v in CATEGORY.values()}
    ids = reasoner.store.entity_ids()
    rids = reasoner.relation_ids
    for pair, row in zip(pairs, to_rows(pairs), strict=True):
        assert core <= set(row) and QRPair.model_validate(row) == pair
        assert row["label"] in {p["label"] for p in peers} and row["type"] == "kg"
        assert row["reason"].startswith(row["label"] + ".\n")
        assert all(isinstance(e, list) and len(e) == 3 and all(isinstance(x, str) for x in e) for e in row["evidence"])
        truth = pair.ground_truth
        assert truth is not None and truth.claims
        for cl in truth.claims:
            kind = "year" if reasoner.catalog.get(cl.relation).object_kind == ValueKind.YEAR else "num"
            obj = ids[cl.object] if cl.object in ids else ids.get(f"{kind}:{cl.object}", NEW_CONSTANT)
            said = reasoner.engine.prove(ids[cl.subject], rids[cl.relation], obj).status
            flipped = {"supported": "contradicted", "contradicted": "supported"}.get(said, said)
            assert cl.status == (flipped if cl.negated else said), cl
        statuses = [c.status for c in truth.claims]
        assert "closed_world" not in statuses  # claims carry Prolog's answer; closed_world is a pair's grounding
        factual = pair.label == "FACTUAL"
        if pair.pattern in ("vanilla", "multi_hop"):
            assert factual == all(s == "supported" for s in statuses), pair.id
            assert pair.grounding == ("proved" if factual or "contradicted" in statuses else "closed_world")
        elif pair.pattern == "comparison":
            assert truth.comparison is not None
            values = truth.comparison.values
            pick = max if truth.comparison.direction == "most" else min
            winner = pick(values, key=values.__getitem__)
            assert winner == truth.comparison.answer
            label = reasoner.store.labels([ids[winner]])[ids[winner]]
            assert factual == pair.response.startswith(label + " "), pair.response
            assert pair.grounding == ("proved" if "contradicted" in statuses else "computed")
        else:
            assert truth.set_operation is not None
            a, b = truth.set_operation.sets
            s1, s2 = (
                set(x)
                for x in reasoner.engine.subject_sets(
                    [(rids[a.relation], ids[a.object]), (rids[b.relation], ids[b.object])]
                )
            )
            op = truth.set_operation.operation
            answer = s1 & s2 if op == "intersection" else s1 | s2 if op == "union" else s1 - s2
            assert sorted(reasoner.store.keys(answer).values()) == truth.set_operation.answer
            assert factual == (truth.set_operation.stated is None)
            if not factual:
                wrong = set(truth.set_operation.stated or []) - set(truth.set_operation.answer)
                deciding = {c.status for c in truth.claims if c.subject in wrong}
                assert pair.grounding == ("proved" if deciding == {"contradicted"} else "closed_world")
    non = [p for p in pairs if p.label == "NON-FACTUAL"]
    proved = sum(p.grounding == "proved" for p in non)
    assert proved >= 0.8 * len(non), grounding_shares(pairs)


def test_factchd_grounding_filter_from_the_cli(seed_kb: tuple[Path, Stats], tmp_path: Path) -> None:
    out = tmp_path / "proved.jsonl"
    args = ["generate", "factchd", "--n", "40", "--seed", "1", "--kb", str(seed_kb[0]), "--out", str(out)]
    res = CliRunner().invoke(app, [*args, "--dedupe", "0", "--grounding", "proved", "--json"])
    assert res.exit_code == 0, res.output
    rows = [QRPair.model_validate_json(x) for x in out.read_text().splitlines()]
    assert len(rows) == 40 and {r.grounding for r in rows} == {"proved"}
    assert json.loads(res.stdout)["grounding_shares"]["all"] == {"proved": 40}
    bad = CliRunner().invoke(app, [*args, "--grounding", "guessed"])
    assert bad.exit_code == 2 and "guessed" in bad.output


def test_cli_generates_each_kind(seed_kb: tuple[Path, Stats], tmp_path: Path) -> None:
    runner = CliRunner()
    kb = str(seed_kb[0])
    for kind, extra in (
        ("drowzee-qa", ["--rules", "transitive", "--domain", "geography"]),
        ("temporal", ["--rules", "Until"]),
        ("factchd", ["--dedupe", "0", "--rules", "set_operation"]),
    ):
        out = tmp_path / f"{kind}.jsonl"
        args = ["generate", kind, "--n", "20", "--seed", "2", "--kb", kb, "--out", str(out), "--json", *extra]
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output
        rows = [json.loads(x) for x in out.read_text().splitlines()]
        assert len(rows) == 20
        summary = json.loads(res.stdout)
        assert summary["cases"] == 20
    assert {r["rule"] for r in map(json.loads, (tmp_path / "temporal.jsonl").read_text().splitlines())} == {"Until"}
    bad = runner.invoke(
        app,
        ["generate", "drowzee-qa", "--n", "5", "--kb", kb, "--out", str(tmp_path / "x.jsonl"), "--split", "holdout"],
    )
    assert bad.exit_code == 2 and "unknown split" in bad.output


def test_factchd_explains_a_kb_without_phrases() -> None:
    from drowzee_core.errors import DrowzeeError
    from tests.conftest import make_store

    gen = FactCHDGenerator.from_reasoner(Reasoner(make_store([("Lyon", "located_in", "France")])))
    with pytest.raises(DrowzeeError, match="no facts for patterns"):
        gen.generate(FactCHDConfig(n=4, patterns=("comparison",)))
