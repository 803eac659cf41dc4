"""Grounded-judge data through Prolog on a small KB: the `generate judge` command and the mix builder."""

from __future__ import annotations

import json
import random
from collections import Counter
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from drowzee_core.generate.judge_parts import Pools
from drowzee_core.generate.judge_recipes import MAKERS
from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.generate.prover import EngineProver
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.judge import JudgeExample, Support
from finetune.judge.data import fingerprint, main
from tests.unit.test_factchd_patterns import build, geo_facts
from tests.unit.test_judge_data import GEO_RECIPES, _rows, _write


@pytest.fixture(scope="module")
def small_kb(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The unit tests' six-country KB, saved to a file so the CLI can load it into Prolog."""
    path = tmp_path_factory.mktemp("kb") / "geo.sqlite"
    store = build(geo_facts())
    store.commit()
    store.db.execute("VACUUM INTO ?", (str(path),))
    return path


def test_generate_judge_from_the_cli(small_kb: Path, tmp_path: Path) -> None:
    out = tmp_path / "judge.jsonl"
    args = ["generate", "judge", "--n", "54", "--seed", "0", "--kb", str(small_kb), "--out", str(out), "--json"]
    res = CliRunner().invoke(app, [*args, *(x for r in GEO_RECIPES for x in ("--rules", r))])
    assert res.exit_code == 0, res.output
    rows = [JudgeExample.model_validate_json(x) for x in out.read_text().splitlines()]
    counts = Counter((r.recipe, r.label) for r in rows)
    assert len(rows) == 54 and all(counts[(rec, Support.SUPPORTED)] == 3 for rec in GEO_RECIPES)
    meta = json.loads(out.with_suffix(".jsonl.meta.json").read_text())
    assert meta["producer"] == "generate.judge" and meta["kb_fingerprint"]
    assert json.loads(res.stdout)["label"] == {"SUPPORTED": 27, "NOT_SUPPORTED": 27}


def test_recipes_ask_prolog(small_kb: Path) -> None:
    """Kept facts are proved; a "No." or a negation is supported only by a value Prolog refutes."""
    ix = KBIndex(KBStore(small_kb), EngineProver(Reasoner(KBStore(small_kb)).engine))
    pools, rng = Pools(ix, lambda _e: True), random.Random(0)
    refuted = 0
    for recipe, maker in MAKERS.items():
        for k in range(30):
            for d in maker(pools, rng, k % 2 == 0) or []:
                assert set(ix.statuses(d.keep)) == {ProofStatus.SUPPORTED}, recipe
                if recipe in ("negation", "short_yesno") and d.variant in ("true", "no_to_refuted", "yes_to_refuted"):
                    s, r, _o = d.keep[0]
                    assert ix.status(s, r, d.entities[0]) == ProofStatus.CONTRADICTED, (recipe, d)
                    refuted += 1
    assert refuted >= 10


def test_mix_builder_writes_rows_and_their_fingerprint(small_kb: Path, tmp_path: Path) -> None:
    shared = tmp_path / "train"
    _write(shared / "snli" / "s.jsonl", _rows("snli", 200))
    _write(shared / "fever" / "f.jsonl", _rows("fever_rte_dev", 200))
    _write(shared / "recast" / "r.jsonl", _rows("recast_drop", 200))
    out = tmp_path / "mix.jsonl"
    assert main(["--kb", str(small_kb), "--shared", str(shared), "--out", str(out), "--n", "120"]) == 0
    rows = [JudgeExample.model_validate_json(x) for x in out.read_text().splitlines()]
    meta = json.loads(out.with_suffix(".jsonl.meta.json").read_text())
    assert meta["counts"]["fingerprint"] == fingerprint(rows)
    assert Counter(r.label for r in rows)[Support.SUPPORTED] == len(rows) // 2
    assert {r.split for r in rows if r.source.startswith("kb:")} == {"train"}
