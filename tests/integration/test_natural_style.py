"""`drowzee generate factchd --style natural` over the real seed KB: the same pairs as `template`, other words."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from drowzee_core.generate.factchd import FactCHDConfig, FactCHDGenerator
from drowzee_core.kb.model import Stats
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.records.pair import QRPair
from drowzee_core.records.proof import KBClaim

pytestmark = [pytest.mark.integration, pytest.mark.slow]

KEPT_APART = {"response", "meta"}


@pytest.fixture(scope="module")
def reasoner(seed_kb: tuple[Path, Stats]) -> Reasoner:
    return Reasoner(KBStore(seed_kb[0]))


def distractors(pair: QRPair) -> list[KBClaim]:
    found = (pair.meta or {}).get("distractors", [])
    assert isinstance(found, list)
    return [KBClaim.model_validate(c) for c in found]


@pytest.mark.parametrize("seed", [0, 5])
def test_natural_style_keeps_labels_grounding_and_ground_truth(reasoner: Reasoner, seed: int) -> None:
    gen = FactCHDGenerator.from_reasoner(reasoner)
    template = gen.generate(FactCHDConfig(n=40, seed=seed))
    natural = gen.generate(FactCHDConfig(n=40, seed=seed, style="natural"))
    assert len(template) == len(natural) == 40
    for t, n in zip(template, natural, strict=True):
        assert (t.id, t.label, t.grounding, t.corruption) == (n.id, n.label, n.grounding, n.corruption)
        assert t.ground_truth == n.ground_truth
        assert t.model_dump(exclude=KEPT_APART) == n.model_dump(exclude=KEPT_APART)
        assert t.meta == {"style": "template"} and n.meta is not None and n.meta["style"] == "natural"
    changed = sum(t.response != n.response for t, n in zip(template, natural, strict=True))
    assert changed >= 0.9 * len(template)


def test_every_distractor_is_proved_by_prolog(reasoner: Reasoner) -> None:
    """A distractor is a true fact: `prove` (not the generator's batch path) supports each one."""
    pairs = FactCHDGenerator.from_reasoner(reasoner).generate(FactCHDConfig(n=80, seed=2, style="natural"))
    ids, rids = reasoner.store.entity_ids(), reasoner.relation_ids
    extra = [c for p in pairs for c in distractors(p)]
    assert len(extra) >= 10
    for claim in extra:
        proof = reasoner.engine.prove(ids[claim.subject], rids[claim.relation], ids[claim.object])
        assert proof.status == "supported", claim


def test_style_from_the_cli_is_recorded_in_pairs_and_sidecar(seed_kb: tuple[Path, Stats], tmp_path: Path) -> None:
    runner = CliRunner()
    rows: dict[str, list[QRPair]] = {}
    for style in ("template", "natural"):
        out = tmp_path / f"{style}.jsonl"
        args = ["generate", "factchd", "--n", "12", "--seed", "1", "--dedupe", "0", "--kb", str(seed_kb[0])]
        res = runner.invoke(app, [*args, "--style", style, "--out", str(out), "--json"])
        assert res.exit_code == 0, res.output
        rows[style] = [QRPair.model_validate_json(x) for x in out.read_text().splitlines()]
        sidecar = json.loads(out.with_name(out.name + ".meta.json").read_text())
        assert sidecar["params"]["style"] == style
        assert {(r.meta or {}).get("style") for r in rows[style]} == {style}
    labels = [(r.id, r.label, r.grounding) for r in rows["template"]]
    assert labels == [(r.id, r.label, r.grounding) for r in rows["natural"]]
    bad = runner.invoke(app, ["generate", "factchd", "--n", "4", "--style", "poetic", "--out", str(tmp_path / "x")])
    assert bad.exit_code == 2 and "poetic" in bad.output
