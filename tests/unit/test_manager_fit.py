"""The Manager's dev mix and its fit (pure): judge threshold, reliabilities, lean, confidences, figures."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from agents.reading.claim_types import ClaimKind
from agents.verifier.aggregation import FEATURES, Calibration
from agents.verifier.calibrate import (
    carried,
    ece,
    figures,
    fit_manager,
    judge_reject_threshold,
    judge_threshold,
    outcome,
    reliability_table,
    report,
    source_reliability,
    wilson_low,
)
from agents.verifier.fit import ManagerRun, RunClaim, merge_guardian
from drowzee_core.records.enums import Label, ProofStatus
from drowzee_core.records.verdict import DecidedBy, Decision
from finetune.manager_mix import MixSource, build_mix, half_of, train_pairs

F, N = Label.FACTUAL, Label.NON_FACTUAL


def run(
    i: int,
    gold: Label,
    *,
    p: float | None = 0.5,
    status: ProofStatus = ProofStatus.UNKNOWN,
    kb: Label | None = None,
    supplied: bool = False,
    seeker: Label | None = None,
    guardian: Label | None = None,
    half: str = "fit",
    by: DecidedBy | None = None,
    unanswered: str | None = None,
    unsupported: str = "",
) -> ManagerRun:
    claim = RunClaim(
        id="C1",
        kind=ClaimKind.TEXT,
        status=status,
        decided_by=by,
        p_supported=p,
        judged_ids=["D1"],
        unsupported=unsupported,
    )
    return ManagerRun(
        id=f"r{i}",
        item=f"i{i}",
        source="test",
        half=half,
        supplied=supplied,
        gold=gold,
        kb_label=kb,
        seeker_p=p,
        seeker_label=seeker,
        guardian_label=guardian,
        unanswered=unanswered,
        claims=[claim],
    )


def test_wilson_bound_is_below_the_rate_and_tightens_with_n() -> None:
    assert wilson_low(9, 10) < 0.9 < 1.0
    assert wilson_low(90, 100) > wilson_low(9, 10)
    assert wilson_low(0, 0) == 0.0


def test_the_judge_is_trusted_only_where_its_supported_pairs_are_precise() -> None:
    # above 0.9 every pair is FACTUAL; below, a coin flip
    rng = random.Random(0)
    good = [run(i, F, p=0.9 + rng.random() * 0.1) for i in range(60)]
    noisy = [run(100 + i, rng.choice([F, N]), p=rng.random() * 0.9) for i in range(200)]
    t, info = judge_threshold(good + noisy)
    assert t is not None and t > 0.5 and int(str(info["decided"])) >= 20
    assert float(str(info["low"])) >= 0.85 and float(str(info["precision"])) >= 0.9
    chance = [run(i, rng.choice([F, N]), p=rng.random()) for i in range(300)]
    assert judge_threshold(chance)[0] is None


def test_the_judge_rejects_only_where_its_unsupported_pairs_are_precise() -> None:
    # below 0.1 every pair with supplied evidence is NON-FACTUAL; above, a coin flip
    rng = random.Random(2)
    bad = [run(i, N, p=rng.random() * 0.1, supplied=True) for i in range(60)]
    noisy = [run(100 + i, rng.choice([F, N]), p=0.1 + rng.random() * 0.9, supplied=True) for i in range(200)]
    bare = [run(400 + i, F, p=rng.random() * 0.1) for i in range(40)]  # no supplied evidence: never rejected
    t, info = judge_reject_threshold(bad + noisy + bare, None)
    assert t is not None and 0.05 < t <= 0.2 and int(str(info["decided"])) >= 20
    assert float(str(info["low"])) >= 0.85 and int(str(info["candidates"])) == 260
    rejected = [r.assessment(None, t) for r in bad]
    assert sum(a.decision == Decision.UNSUPPORTED and a.decided_by == DecidedBy.JUDGE for a in rejected) >= 50
    assert all(r.assessment(None, t).decision == Decision.UNDECIDED for r in bare)
    chance = [run(i, rng.choice([F, N]), p=rng.random(), supplied=True) for i in range(300)]
    assert judge_reject_threshold(chance, None)[0] is None
    absent = [run(i, N, p=0.01, supplied=True, unsupported="the evidence does not mention X") for i in range(40)]
    assert int(str(judge_reject_threshold(absent, None)[1]["candidates"])) == 0  # already unsupported by the reader
    cal = fit_manager(bad + noisy + bare, {"data": "synthetic"})
    assert cal.judge_reject_threshold == t and "judge_reject" in cal.fitted_on


def test_a_source_at_chance_is_not_counted_and_one_above_is() -> None:
    rng = random.Random(1)
    runs = []
    for i in range(300):
        gold = rng.choice([F, N])
        wrong = N if gold == F else F
        runs.append(run(i, gold, seeker=gold if rng.random() < 0.85 else wrong, guardian=rng.choice([F, N])))
    seeker, low, _, n = source_reliability(runs, "seeker")
    assert seeker > 0.8 and low > 0.5 and n == 300
    cal = fit_manager(runs, {"data": "synthetic"})
    assert cal.counted == {"seeker": True, "guardian": False}
    assert cal.p_factual(runs[0].signals().__class__(None, 0.0, 0.5, None, F)) == pytest.approx(
        cal.p_factual(runs[0].signals().__class__(None, 0.0, 0.5, None, N))
    )


def test_a_fitted_manager_keeps_undecided_confidence_at_most_070_and_measures_decided_kinds() -> None:
    rng = random.Random(2)
    runs = [run(i, F, status=ProofStatus.SUPPORTED, kb=F) for i in range(40)]
    runs += [run(50 + i, N, status=ProofStatus.CONTRADICTED, kb=N) for i in range(39)]
    runs.append(run(99, F, status=ProofStatus.CONTRADICTED, kb=N))  # a proof that linked the wrong entity
    runs += [run(100 + i, rng.choice([F, N]), p=rng.random(), seeker=rng.choice([F, N])) for i in range(100)]
    cal = fit_manager(runs, {})
    assert cal.confidence["refuted:proof"] == pytest.approx((39 + 1) / (40 + 2), abs=1e-4)
    outs = [outcome(r, cal) for r in runs]
    assert all(o.confidence <= 0.70 for o in outs if o.decision == Decision.UNDECIDED)
    assert {o.decision for o in outs} == {Decision.SUPPORTED, Decision.REFUTED, Decision.UNDECIDED}


def test_the_evidence_readers_decisions_are_measured_apart_from_proofs() -> None:
    runs = [run(i, F, status=ProofStatus.SUPPORTED, by=DecidedBy.EVIDENCE, supplied=True) for i in range(8)]
    runs += [run(10 + i, N, status=ProofStatus.SUPPORTED, by=DecidedBy.EVIDENCE, supplied=True) for i in range(2)]
    runs += [run(20 + i, F, status=ProofStatus.SUPPORTED, kb=F) for i in range(10)]
    cal = fit_manager(runs, {})
    assert cal.confidence["supported:evidence"] == pytest.approx((8 + 1) / (10 + 2), abs=1e-4)
    assert cal.confidence["supported:proof"] == pytest.approx((10 + 1) / (10 + 2), abs=1e-4)
    old = run(30, F, status=ProofStatus.SUPPORTED)  # a run written before `decided_by`: a decided status is a proof
    assert outcome(old, cal).decided_by == DecidedBy.PROOF
    dodged = run(31, N, status=ProofStatus.SUPPORTED, by=DecidedBy.EVIDENCE, supplied=True, unanswered="no year")
    assert (outcome(dodged, cal).decision, outcome(dodged, cal).correct) == (Decision.UNSUPPORTED, True)


def test_a_source_not_rerun_keeps_its_earlier_reliability_and_says_so() -> None:
    cal = fit_manager([run(i, F, status=ProofStatus.SUPPORTED, kb=F) for i in range(10)], {})
    earlier = cal.model_copy(
        update={"reliability": {"guardian": 0.54}, "counted": {"guardian": False}, "fitted_on": {"guardian_runs": "g"}}
    )
    out = carried(cal, earlier, "guardian", "not rerun")
    assert (out.reliability["guardian"], out.counts("guardian")) == (0.54, False)
    assert out.fitted_on["guardian_carried"] == {"reliability": 0.54, "counted": False, "why": "not rerun", "from": "g"}
    with pytest.raises(ValueError, match="did not measure the guardian"):
        carried(cal, cal, "guardian", "x")
    with pytest.raises(ValueError, match="these runs measured the guardian"):
        carried(out, earlier, "guardian", "x")


def test_supplied_evidence_that_never_mentions_a_claims_name_makes_the_pair_unsupported() -> None:
    cal = Calibration(features=list(FEATURES), coef=[0.0] * len(FEATURES), intercept=0.0)
    o = outcome(run(1, N, supplied=True, unsupported="the evidence does not mention Toronto"), cal)
    assert (o.decision, o.label, o.correct) == (Decision.UNSUPPORTED, N, True)


def test_supplied_evidence_that_mentions_everything_but_aligns_nothing_leaves_the_pair_undecided() -> None:
    cal = Calibration(features=list(FEATURES), coef=[0.0] * len(FEATURES), intercept=0.0)
    o = outcome(run(1, N, supplied=True), cal)
    assert o.decision == Decision.UNDECIDED


def test_figures_report_coverage_decided_accuracy_and_the_constants() -> None:
    cal = Calibration(features=list(FEATURES), coef=[0.0] * len(FEATURES), intercept=0.0)
    runs = [run(i, F, status=ProofStatus.SUPPORTED, kb=F, half="check") for i in range(6)]
    runs += [run(10 + i, N, half="check") for i in range(4)]
    fig = figures(runs, lambda r: outcome(r, cal))
    assert fig["coverage"]["value"] == pytest.approx(0.6)
    assert fig["accuracy"]["decided"]["verifier"]["value"] == 1.0
    assert fig["accuracy"]["all"]["always_factual"]["value"] == pytest.approx(0.6)
    assert {k: v for k, v in fig["decisions"].items() if v} == {"supported": 6, "undecided": 4}
    rep = report(runs, cal, old=cal)
    assert set(rep["groups"]["all"]) == {"now", "before"}


def test_reliability_table_and_ece() -> None:
    from agents.verifier.calibrate import Outcome

    sure = [Outcome(Decision.REFUTED, None, N, 0.95, True) for _ in range(10)]
    assert ece(sure) == pytest.approx(0.05)
    assert reliability_table(sure) == [{"low": 0.9, "high": 0.95, "rows": 10, "confidence": 0.95, "accuracy": 1.0}] or (
        reliability_table(sure)[0]["rows"] == 10
    )


def test_guardian_runs_merge_by_id() -> None:
    base = [run(1, F), run(2, N)]
    said = [run(1, F, guardian=N).model_copy(update={"guardian_p": 0.8})]
    merged = merge_guardian(base, said)
    assert (merged[0].guardian_label, merged[0].guardian_p, merged[1].guardian_label) == (N, 0.8, None)


def _train_file(tmp: Path) -> Path:
    rows = [
        {"id": f"t{i}", "evidence": f"E {i}.", "claim": f"C {i}.", "label": lab, "label3": l3, "source": "x"}
        for i, (lab, l3) in enumerate(
            [("SUPPORTED", "SUPPORTS"), ("NOT_SUPPORTED", "REFUTES"), ("NOT_SUPPORTED", "NOT ENOUGH INFO")] * 4
        )
    ]
    (tmp / "f").mkdir()
    path = tmp / "f" / "t.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")
    return path


def test_train_pairs_are_bare_only_where_the_label_is_world_truth(tmp_path: Path) -> None:
    _train_file(tmp_path)
    pairs = list(train_pairs(tmp_path, MixSource("t", "f/t.jsonl", 12, bare=True), seed=0))
    facts = [p for p in pairs if p.evidence]
    bare = [p for p in pairs if not p.evidence]
    assert len(facts) == 12 and len(bare) == 8  # NOT ENOUGH INFO is never run without evidence
    assert all(p.query == "" for p in pairs)
    by_item = {(p.meta or {})["item"]: (p.meta or {})["half"] for p in pairs}
    assert all(half_of(str(item)) == half for item, half in by_item.items())
    nei = next(p for p in facts if p.response == "C 2.")
    assert nei.label == N


def test_the_mix_refuses_test_split_pairs_and_missing_train_files(tmp_path: Path) -> None:
    from drowzee_core.errors import DrowzeeError
    from drowzee_core.records.pair import QRPair

    test_pair = QRPair.model_validate({"id": "g1", "label": "FACTUAL", "query": "q", "response": "r", "split": "test"})
    with pytest.raises(DrowzeeError, match="test split"):
        build_mix([test_pair], tmp_path, sources=())
    with pytest.raises(DrowzeeError, match="--train"):
        build_mix([], tmp_path, sources=(MixSource("t", "missing.jsonl", 1, bare=False),))


def test_generated_pairs_of_two_styles_hold_the_same_items_on_the_same_half() -> None:
    from drowzee_core.records.pair import QRPair

    def pair(i: int, style: str) -> QRPair:
        row = {"id": f"g{i}", "label": "FACTUAL", "query": "q", "response": f"{style} {i}", "meta": {"style": style}}
        return QRPair.model_validate(row | {"evidence": [["a", "b", "c"]]})

    rows = [pair(i, "template") for i in range(30)] + [pair(i, "natural") for i in range(30)]
    mix = build_mix(rows, Path("."), seed=3, sources=())
    by_source: dict[str, set[tuple[str, str]]] = {}
    for p in mix:
        meta = p.meta or {}
        by_source.setdefault(str(meta["mix_source"]), set()).add((p.id.split(":")[1], str(meta["half"])))
    assert set(by_source) == {"generated", "generated-natural"}
    assert by_source["generated"] == by_source["generated-natural"]  # same items, same halves
    assert len(mix) == 2 * 2 * min(30, 150)  # each item with and without its evidence, in both styles
