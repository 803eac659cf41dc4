"""`--style natural` over a tiny KB and a `FakeProver`: other words, the same pairs and ground truth."""

from __future__ import annotations

from typing import Any

import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.factchd import FactCHDConfig, FactCHDGenerator, to_rows
from drowzee_core.generate.kb_index import KBIndex
from drowzee_core.generate.natural.words import number_forms
from drowzee_core.generate.prover import status
from drowzee_core.records.enums import ProofStatus
from drowzee_core.records.pair import QRPair
from drowzee_core.records.proof import KBClaim
from tests.unit.test_factchd_patterns import CLASSES, UNK, geo_facts, indexed

KEPT_APART = {"response", "meta"}


def generate(ix: KBIndex, style: str, seed: int, n: int = 24) -> list[QRPair]:
    return FactCHDGenerator(ix).generate(FactCHDConfig(n=n, seed=seed, style=style))


@pytest.fixture(scope="module")
def ix() -> KBIndex:
    return indexed(geo_facts() + CLASSES)[0]


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_natural_pairs_differ_only_in_their_words(ix: KBIndex, seed: int) -> None:
    template, natural = generate(ix, "template", seed), generate(ix, "natural", seed)
    assert len(template) == len(natural) == 24
    for t, n in zip(template, natural, strict=True):
        assert t.model_dump(exclude=KEPT_APART) == n.model_dump(exclude=KEPT_APART)
        assert t.meta == {"style": "template"}
        assert n.meta is not None and n.meta["style"] == "natural"
    changed = sum(t.response != n.response for t, n in zip(template, natural, strict=True))
    assert changed >= 0.9 * len(template), [n.response for n in natural]


def test_natural_style_is_reproducible(ix: KBIndex) -> None:
    assert to_rows(generate(ix, "natural", 7)) == to_rows(generate(ix, "natural", 7))
    assert to_rows(generate(ix, "natural", 7)) != to_rows(generate(ix, "natural", 8))


def said_values(ix: KBIndex, claim: KBClaim) -> list[str]:
    """The ways a response may write a claim's object: its label, or an exact number form."""
    ids = ix.store.entity_ids()
    text = ix.label(ids[claim.object]) if claim.object in ids else claim.object
    return number_forms(text, ix.specs[ix.rids[claim.relation]].object_kind)


@pytest.mark.parametrize("seed", [1, 4])
def test_natural_responses_still_state_every_claimed_value(ix: KBIndex, seed: int) -> None:
    """Short answers leave the subject to the query; the stated objects and members are all there."""
    for pair in generate(ix, "natural", seed, n=40):
        gt = pair.ground_truth
        assert gt is not None
        if pair.pattern == "set_operation":
            assert gt.set_operation is not None
            keys = gt.set_operation.stated or gt.set_operation.answer
            ids = ix.store.entity_ids()
            assert all(ix.label(ids[k]) in pair.response for k in keys), pair.response
            continue
        for claim in gt.claims:
            assert any(v in pair.response for v in said_values(ix, claim)), (claim, pair.response)


def distractors(pair: QRPair) -> list[KBClaim]:
    meta: dict[str, Any] = pair.meta or {}
    return [KBClaim.model_validate(c) for c in meta.get("distractors", [])]


def test_distractors_are_proved_facts_about_the_pairs_entities(ix: KBIndex) -> None:
    pairs = [p for seed in range(4) for p in generate(ix, "natural", seed)]
    extra = [(p, c) for p in pairs for c in distractors(p)]
    assert len(extra) >= 10
    ids = ix.store.entity_ids()
    for pair, claim in extra:
        assert pair.ground_truth is not None
        claimed = {c.relation for c in pair.ground_truth.claims}
        assert claim.status == ProofStatus.SUPPORTED
        assert status(ix.prover, ids[claim.subject], ix.rids[claim.relation], ids[claim.object]) == claim.status
        assert claim.relation not in claimed | {ix.specs[ix.rids[r]].inverse_of for r in claimed}
        mentioned = {c.subject for c in pair.ground_truth.claims} | {c.object for c in pair.ground_truth.claims}
        assert claim.subject in mentioned


def test_facts_prolog_does_not_prove_are_never_distractors() -> None:
    ix, fake = indexed(geo_facts() + CLASSES)
    zones = ix.rids["in_time_zone"]
    used = {c.relation for seed in range(4) for p in generate(ix, "natural", seed) for c in distractors(p)}
    assert "in_time_zone" in used  # the relation makes distractors while Prolog proves its facts
    for s, o in ix.by_rel[zones]:
        fake.set((s, zones, o), UNK)
    used = {c.relation for seed in range(4) for p in generate(ix, "natural", seed) for c in distractors(p)}
    assert "in_time_zone" not in used


def test_an_unknown_style_is_refused() -> None:
    with pytest.raises(DrowzeeError, match="`style` must be one of"):
        FactCHDConfig(n=4, style="poetic")
