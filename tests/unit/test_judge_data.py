"""Grounded-judge data: KB recipes over a tiny KB and a dict-backed prover, the shared-file reader, the mix,
the fingerprint and the surface-cue check (no Prolog)."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.judge import RECIPES, JudgeConfig, JudgeGenerator
from drowzee_core.generate.judge_parts import Pools
from drowzee_core.generate.judge_recipes import MAKERS
from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.generate.splits import SplitPlan
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.judge import JudgeExample, Support
from finetune.judge.cues import surface_cue_check
from finetune.judge.data import MixConfig, fingerprint, group_of, held_out_claims, mix, parse_shares, read_shared
from tests.unit.test_factchd_patterns import build, geo_facts, prolog_like

SUP, NOT = Support.SUPPORTED, Support.NOT_SUPPORTED
GEO_RECIPES = tuple(r for r in RECIPES if r != "wrong_relation")  # the tiny KB has no second city relation


@pytest.fixture(scope="module")
def geo() -> KBIndex:
    store = build(geo_facts())
    return KBIndex(store, prolog_like(store))


@pytest.fixture(scope="module")
def examples(geo: KBIndex) -> list[JudgeExample]:
    return JudgeGenerator(geo).generate(JudgeConfig(n=180, seed=3, recipes=GEO_RECIPES))


def test_every_recipe_balances_its_labels(examples: list[JudgeExample]) -> None:
    counts = Counter((e.recipe, e.label) for e in examples)
    for recipe in GEO_RECIPES:
        assert counts[(recipe, SUP)] == counts[(recipe, NOT)] == 10, recipe
    assert all(e.source == f"kb:{e.recipe}" and e.evidence for e in examples)
    assert len({e.id for e in examples}) == len(examples)


def test_supported_drafts_are_proved_and_unsupported_claims_are_not(geo: KBIndex) -> None:
    pools = Pools(geo, lambda _e: True)
    rng = random.Random(0)
    for recipe, maker in MAKERS.items():
        for k in range(40):
            drafts = maker(pools, rng, k % 2 == 0)
            for d in drafts or []:
                kept = [f for f in d.keep if f not in d.drop]
                assert all(st == ProofStatus.SUPPORTED for st in geo.statuses(d.keep)), recipe
                if d.supported:
                    assert not d.drop and kept == d.keep, recipe
                else:  # unsupported: a claim Prolog does not support, or its support left out
                    assert d.drop or d.variant != "true", recipe


def test_contrast_pairs_differ_by_the_support_sentence_only(examples: list[JudgeExample]) -> None:
    by_id = {e.id: e for e in examples}
    pairs = [(by_id[e.contrast_of], e) for e in examples if e.contrast_of]
    assert len(pairs) == 10
    for base, con in pairs:
        assert (base.label, con.label) == (SUP, NOT)
        assert (base.query, base.response) == (con.query, con.response)
        if len(con.evidence) == len(base.evidence):  # replaced in place by a fact about the same subject
            changed = [i for i, (a, b) in enumerate(zip(base.evidence, con.evidence, strict=True)) if a != b]
            assert len(changed) == 1
        else:  # no spare fact: left out
            assert any(base.evidence[:i] + base.evidence[i + 1 :] == con.evidence for i in range(len(base.evidence)))


def test_short_answers_need_the_query(examples: list[JudgeExample]) -> None:
    yesno = [e for e in examples if e.recipe == "short_yesno"]
    answers = Counter((e.response.split(",")[0].rstrip("."), e.label) for e in yesno)
    assert {a for a, _ in answers} == {"Yes", "No"}
    assert all(e.query.endswith("?") for e in yesno)
    assert all(len(e.response.split()) <= 3 for e in examples if e.recipe == "short_wh")


def test_generation_is_seeded(geo: KBIndex, examples: list[JudgeExample]) -> None:
    again = JudgeGenerator(geo).generate(JudgeConfig(n=180, seed=3, recipes=GEO_RECIPES))
    assert fingerprint(again) == fingerprint(examples)
    other = JudgeGenerator(geo).generate(JudgeConfig(n=180, seed=4, recipes=GEO_RECIPES))
    assert fingerprint(other) != fingerprint(examples)


def test_a_split_holds_only_its_entities(geo: KBIndex) -> None:
    gen = JudgeGenerator(geo, hub_degree=4)
    plan = SplitPlan(0, (0.5, 0.25, 0.25))
    got = gen.generate(JudgeConfig(n=40, seed=0, split="train", plan=plan, recipes=("wrong_entity", "short_wh")))
    hubbed = SplitPlan(0, (0.5, 0.25, 0.25), gen.hubs)
    assert got and all(e.split == "train" for e in got)
    assert all(hubbed.admits(k, "train") for e in got for k in e.entities)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n": 0}, "`n`"),
        ({"n": 5, "recipes": ("nope",)}, "recipes"),
        ({"n": 5, "triple_share": 0.8, "mixed_share": 0.5}, "triple_share"),
        ({"n": 5, "evidence_len": (4, 2)}, "evidence_len"),
        ({"n": 5, "split": "val"}, "split"),
    ],
)
def test_config_says_what_to_fix(kwargs: dict[str, object], message: str) -> None:
    with pytest.raises(DrowzeeError, match=message):
        JudgeConfig(**kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------------- shared files and the mix
def _write(path: Path, rows: list[dict[str, str]]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))


def _rows(source: str, n: int, sup_every: int = 2) -> list[dict[str, str]]:
    return [
        {
            "id": f"{source}-{i}",
            "evidence": f"passage {source} {i}",
            "claim": f"claim {i}",
            "label": "SUPPORTED" if i % sup_every == 0 else "NOT_SUPPORTED",
            "source": source,
        }
        for i in range(n)
    ]


@pytest.fixture
def shared(tmp_path: Path) -> Path:
    root = tmp_path / "train"
    _write(root / "snli" / "snli.jsonl", _rows("snli", 400, 3))
    _write(root / "fever" / "a.jsonl", _rows("fever_a", 30))
    _write(root / "fever" / "b.jsonl", _rows("fever_b", 400) + _rows("fever_b", 10))  # 10 exact repeats
    _write(root / "recast" / "x.jsonl", _rows("recast_x", 300))
    return root


def test_read_shared_keeps_sources_and_refuses_peers(shared: Path, tmp_path: Path) -> None:
    rows = read_shared(shared)
    assert len(rows) == 1140 and {r.query for r in rows} == {""}
    assert {group_of(r.source) for r in rows} == {"snli", "fever", "recast"}
    assert rows[0].evidence == [rows[0].evidence[0]] and rows[0].label in (SUP, NOT)
    _write(tmp_path / "peers" / "x.jsonl", _rows("snli", 2))
    with pytest.raises(DrowzeeError, match="peers"):
        read_shared(tmp_path / "peers")
    (shared / "snli" / "bad.jsonl").write_text('{"id": "1"}\n')
    with pytest.raises(DrowzeeError, match=r"bad\.jsonl:1"):
        read_shared(shared)


def test_held_out_claims_and_shares_parse(shared: Path, tmp_path: Path) -> None:
    held_file = tmp_path / "held.jsonl"
    _write(held_file, [{"claim": "Claim  3"}, {"claim": "claim 5"}])
    held = held_out_claims([held_file])
    assert held == {"claim 3", "claim 5"}  # spaces and case folded
    kept = [r for r in read_shared(shared) if " ".join(r.response.split()).casefold() not in held]
    assert not {"claim 3", "claim 5"} & {r.response for r in kept} and len(kept) < 1140
    manager = tmp_path / "train"
    for name, path in (
        ("fever_symmetric", "fever/fever_symmetric.jsonl"),
        ("fever_rte", "fever/fever_rte_dev.jsonl"),
        ("snli", "snli/snli_dev_test.jsonl"),
        ("kg", "recast/kg_relations.jsonl"),
    ):
        _write(manager / path, _rows(name, 20))
    assert len(held_out_claims([], manager)) == 20  # the mix samples every row of these small files
    assert parse_shares("kb=0.3, snli=0.7") == {"kb": 0.3, "snli": 0.7} and parse_shares("")["kb"] == 0.5
    with pytest.raises(DrowzeeError, match="group=share"):
        parse_shares("kb:0.3")


def test_mix_balances_caps_and_shares(shared: Path, examples: list[JudgeExample]) -> None:
    cfg = MixConfig(n=600, shares={"kb": 0.25, "snli": 0.25, "fever": 0.25, "recast": 0.25}, cap_per_source=100)
    got = mix(examples, read_shared(shared), cfg)
    by_source = Counter(e.source for e in got)
    assert by_source["snli"] == 100 and by_source["recast_x"] == 100  # capped
    assert by_source["fever_a"] == 30 and by_source["fever_b"] == 100  # a short source hands over, then the cap
    assert sum(v for k, v in by_source.items() if k.startswith("kb:")) == 150
    for source in by_source:
        labels = Counter(e.label for e in got if e.source == source)
        assert labels[SUP] == labels[NOT], source
    assert len({(*e.evidence, e.response) for e in got}) == len(got)
    assert fingerprint(mix(examples, read_shared(shared), cfg)) == fingerprint(got)
    assert fingerprint(list(reversed(got))) != fingerprint(got)
    with pytest.raises(DrowzeeError, match="shares"):
        MixConfig(shares={"kb": 0.5, "web": 0.5})


# ---------------------------------------------------------------------- surface cues
def _toy(n: int, cue: bool) -> list[JudgeExample]:
    rng = random.Random(0)
    out = []
    for i in range(n):
        sup = i % 2 == 0
        words = rng.randint(3, 9) + (6 if cue and sup else 0)
        out.append(
            JudgeExample(
                id=str(i),
                response=" ".join(["word"] * words),
                evidence=["some evidence here"],
                label=SUP if sup else NOT,
                source="kb:toy",
                recipe="toy",
            )
        )
    return out


def test_surface_cue_check_finds_a_length_cue_and_not_a_missing_one() -> None:
    cued = surface_cue_check(_toy(200, cue=True))
    assert cued.overall.balanced_accuracy > 0.9 and cued.per_recipe["toy"].n == 200
    fair = surface_cue_check(_toy(200, cue=False))
    lo, hi = fair.overall.ci95
    assert lo < 0.5 < hi + 0.05 and fair.overall.balanced_accuracy < 0.65
    assert fair.baselines["majority"] == 0.5
