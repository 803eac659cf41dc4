"""FactCHD pattern makers over a tiny in-memory KB and a dict-backed `FakeProver` (no Prolog).

The fake plays Prolog's part with a table the tests write: base facts are supported and, where a test
says so, every other object of a functional relation is contradicted (Prolog's `negation_functional`
rule). Each test then checks that the maker records the fake's statuses verbatim and grounds its label
accordingly.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable

import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.generate.factchd import GROUNDINGS, FactCHDConfig, FactCHDGenerator, grounding_shares, to_rows
from drowzee_core.generate.factchd_patterns import multi_hop, vanilla
from drowzee_core.generate.factchd_record import Knobs, grounding_of
from drowzee_core.generate.kb_index import NEGATION, KBIndex
from drowzee_core.generate.prover import NEW_CONSTANT, FakeProver, status
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.writer import KBWriter
from drowzee_core.records.enums import Grounding, Label, ProofStatus
from drowzee_core.records.pair import QRPair

SUP, CON, UNK = ProofStatus.SUPPORTED, ProofStatus.CONTRADICTED, ProofStatus.UNKNOWN
Maker = Callable[[KBIndex, random.Random, bool, Knobs], QRPair | None]
DEFAULT_KNOBS = Knobs()

COUNTRIES = {  # key: (capital, continent, population, currency)
    "country:FR": ("city:Paris", "continent:Europe", "67000000", "currency:Euro"),
    "country:DE": ("city:Berlin", "continent:Europe", "83000000", "currency:Euro"),
    "country:IT": ("city:Rome", "continent:Europe", "59000000", "currency:Euro"),
    "country:ES": ("city:Madrid", "continent:Europe", "47000000", "currency:Euro"),
    "country:JP": ("city:Tokyo", "continent:Asia", "125000000", "currency:Yen"),
    "country:KR": ("city:Seoul", "continent:Asia", "51000000", "currency:Won"),
}
ZONES = {"city:Paris": "tz:CET", "city:Berlin": "tz:CET", "city:Rome": "tz:CET", "city:Madrid": "tz:CET"}
ZONES |= {"city:Tokyo": "tz:JST", "city:Seoul": "tz:KST"}
CLASSES = [("wn:dog", "is_a", "wn:canine"), ("wn:canine", "is_a", "wn:carnivore"), ("wn:cat", "is_a", "wn:feline")]
CLASSES += [("wn:feline", "is_a", "wn:carnivore"), ("wn:wolf", "is_a", "wn:canine"), ("wn:lion", "is_a", "wn:feline")]


def geo_facts() -> list[tuple[str, str, str]]:
    """Countries with capital, continent, population and currency; capitals with a time zone."""
    out = []
    for c, (cap, cont, pop, cur) in COUNTRIES.items():
        out += [(c, "has_capital", cap), (c, "on_continent", cont), (c, "population", f"num:{pop}")]
        out += [(c, "has_currency", cur)]
    return out + [(city, "in_time_zone", tz) for city, tz in ZONES.items()]


def build(facts: Iterable[tuple[str, str, str]], negatives: Iterable[tuple[str, str, str]] = ()) -> KBStore:
    """An in-memory KB; keys `kind:Label` give the label after the colon (`num:` keys are quantities)."""
    store = KBStore(":memory:", create=True)
    writer = KBWriter(store, Catalog.from_toml())

    def ent(key: str) -> str:
        kind = ValueKind.QUANTITY if key.startswith("num:") else ValueKind.ENTITY
        return writer.entity(key, key.split(":", 1)[1], kind)

    for rows, neg in ((facts, False), (negatives, True)):
        for s, r, o in rows:
            writer.triple(ent(s), r, ent(o), domain="geography", source="test", negated=neg)
    writer.flush()
    return store


def prolog_like(store: KBStore, refute_functional: bool = True) -> FakeProver:
    """Base facts supported; with `refute_functional`, every other object of a functional relation refuted."""
    fake = FakeProver()
    facts = store.facts_of(store.relation_ids().values())
    fake.support((s, r, o) for s, r, o, _d in facts)
    if refute_functional:
        catalog, names = store.catalog(), {i: n for n, i in store.relation_ids().items()}
        objects = [*store.entity_ids().values(), NEW_CONSTANT]
        for s, r, o, _d in facts:
            if catalog.get(names[r]).functional:
                fake.refute((s, r, x) for x in objects if x != o)
    return fake


def indexed(
    facts: Iterable[tuple[str, str, str]], refute: bool = True, negatives: Iterable[tuple[str, str, str]] = ()
) -> tuple[KBIndex, FakeProver]:
    store = build(facts, negatives)
    fake = prolog_like(store, refute)
    return KBIndex(store, fake), fake


def index(
    facts: Iterable[tuple[str, str, str]], refute: bool = True, negatives: Iterable[tuple[str, str, str]] = ()
) -> KBIndex:
    return indexed(facts, refute, negatives)[0]


def make(maker: Maker, ix: KBIndex, factual: bool, knobs: Knobs = DEFAULT_KNOBS, tries: int = 300) -> list[QRPair]:
    """Every pair the maker gives over `tries` seeded draws."""
    out = []
    for seed in range(tries):
        pair = maker(ix, random.Random(seed), factual, knobs)
        if pair is not None:
            out.append(pair)
    assert out, f"{maker.__name__} made no pair in {tries} draws"
    return out


def claims_match_prover(ix: KBIndex, pair: QRPair) -> None:
    """Each recorded claim carries exactly the status the prover gives its (s, r, o)."""
    assert pair.ground_truth is not None
    ids = ix.store.entity_ids()
    for c in pair.ground_truth.claims:
        obj = ids.get(c.object, ix.value_id(ix.specs[ix.rids[c.relation]].object_kind, c.object))
        said = status(ix.prover, ids[c.subject], ix.rids[c.relation], obj)
        assert c.status == (NEGATION.get(said, said) if c.negated else said), c


# ---------------------------------------------------------------------- grounding rule
@pytest.mark.parametrize(
    ("factual", "deciding", "computed", "expected"),
    [
        (True, [SUP, SUP], False, Grounding.PROVED),
        (True, [SUP], True, Grounding.COMPUTED),
        (False, [CON], False, Grounding.PROVED),
        (False, [CON, CON], False, Grounding.PROVED),
        (False, [CON, UNK], False, Grounding.CLOSED_WORLD),
        (False, [UNK], False, Grounding.CLOSED_WORLD),
        (False, [UNK], True, Grounding.COMPUTED),
        (False, [], True, Grounding.COMPUTED),
        (False, [CON], True, Grounding.PROVED),
    ],
)
def test_grounding_of_follows_the_deciding_statuses(
    factual: bool, deciding: list[ProofStatus], computed: bool, expected: Grounding
) -> None:
    assert grounding_of(factual, deciding, computed) == expected


def test_grounding_of_refuses_inconsistent_labels() -> None:
    with pytest.raises(ValueError, match="FACTUAL pair's claims must all be supported"):
        grounding_of(True, [SUP, UNK])
    with pytest.raises(ValueError, match="cannot be supported"):
        grounding_of(False, [SUP])


def test_fake_prover_answers_only_what_an_engine_may() -> None:
    fake = FakeProver({(1, 2, 3): SUP}).refute([(1, 2, 4)])
    assert fake.statuses([(1, 2, 3), (1, 2, 4), (9, 9, 9)]) == [SUP, CON, UNK]
    assert fake.subject_sets([(2, 3), (2, 4)]) == [[1], []]
    with pytest.raises(ValueError, match="closed_world"):
        fake.set((1, 2, 5), ProofStatus.CLOSED_WORLD)


# ---------------------------------------------------------------------- vanilla
def test_vanilla_factual_is_proved_with_a_supported_claim() -> None:
    ix = index(geo_facts())
    for pair in make(vanilla, ix, True):
        assert pair.label == Label.FACTUAL and pair.grounding == Grounding.PROVED and pair.corruption is None
        assert pair.ground_truth is not None and [c.status for c in pair.ground_truth.claims] == [SUP]
        assert pair.reason is not None and pair.reason.startswith("FACTUAL.\n")
        assert pair.category == "Conventional" and pair.type == "kg" and pair.query.startswith("What is ")
        claims_match_prover(ix, pair)


def test_vanilla_corruptions_are_refuted_by_the_functional_rule() -> None:
    ix, fake = indexed(geo_facts())
    pairs = make(vanilla, ix, False, Knobs(refutable_share=1.0))  # has_currency (not functional) is never drawn
    assert {p.corruption for p in pairs} == {"wrong_entity", "wrong_number"}
    for pair in pairs:
        assert pair.label == Label.NON_FACTUAL and pair.grounding == Grounding.PROVED
        assert pair.ground_truth is not None and [c.status for c in pair.ground_truth.claims] == [CON]
        assert pair.ground_truth.correct is not None and pair.ground_truth.correct != pair.response
        claims_match_prover(ix, pair)
    # a wrong population no entity stands for reaches Prolog as a new constant
    assert any(f[2] == NEW_CONSTANT for f in fake.asked)


def test_vanilla_rests_on_absence_when_prolog_cannot_refute() -> None:
    ix = index(geo_facts(), refute=False)
    for pair in make(vanilla, ix, False):
        assert pair.grounding == Grounding.CLOSED_WORLD
        assert pair.ground_truth is not None and [c.status for c in pair.ground_truth.claims] == [UNK]


def test_vanilla_uses_explicit_negative_facts_of_a_non_functional_relation() -> None:
    negatives = [("wn:dog", "is_a", "wn:feline")]
    ix, fake = indexed(CLASSES, negatives=negatives)
    ids = ix.store.entity_ids()
    fake.refute([(ids["wn:dog"], ix.rids["is_a"], ids["wn:feline"])])  # what Prolog's `negation` rule proves
    assert ix.refutable_unique == [f for f in ix.unique if f[0] == ids["wn:dog"]]
    pairs = make(vanilla, ix, False, Knobs(refutable_share=1.0))
    assert {p.grounding for p in pairs} == {Grounding.PROVED}
    for pair in pairs:
        assert pair.ground_truth is not None
        assert [(c.subject, c.object, c.status) for c in pair.ground_truth.claims] == [("wn:dog", "wn:feline", CON)]
    # without the preference, facts without negatives come too, and those rest on absence
    mixed = make(vanilla, ix, False, Knobs(refutable_share=0.0))
    assert {p.grounding for p in mixed} == {Grounding.PROVED, Grounding.CLOSED_WORLD}


# ---------------------------------------------------------------------- multi-hop
def test_multi_hop_factual_chain_is_all_supported() -> None:
    ix = index(geo_facts())
    for pair in make(multi_hop, ix, True):
        assert pair.grounding == Grounding.PROVED and pair.hops is not None and pair.hops >= 2
        assert pair.ground_truth is not None and {c.status for c in pair.ground_truth.claims} == {SUP}
        assert len(pair.ground_truth.claims) == pair.hops == len(pair.evidence)
        claims_match_prover(ix, pair)


def test_multi_hop_corrupts_one_hop_that_prolog_refutes() -> None:
    ix = index(geo_facts())
    pairs = make(multi_hop, ix, False)
    assert {p.corruption for p in pairs} <= {"broken_hop", "wrong_entity"}
    for pair in pairs:
        truth = pair.ground_truth
        assert truth is not None and truth.broken_hop is not None and pair.grounding == Grounding.PROVED
        statuses = [c.status for c in truth.claims]
        assert statuses[truth.broken_hop] == CON
        assert statuses[: truth.broken_hop] + statuses[truth.broken_hop + 1 :] == [SUP] * (len(statuses) - 1)
        assert pair.corruption == ("wrong_entity" if truth.broken_hop == len(statuses) - 1 else "broken_hop")
        claims_match_prover(ix, pair)
    unrefuted = make(multi_hop, index(geo_facts(), refute=False), False)
    assert {p.grounding for p in unrefuted} == {Grounding.CLOSED_WORLD}


# ---------------------------------------------------------------------- comparison


def generator(refute: bool = True) -> FactCHDGenerator:
    return FactCHDGenerator(index(geo_facts() + CLASSES, refute))


def test_generation_is_deterministic_per_seed_and_records_are_typed() -> None:
    gen = generator()
    first = gen.generate(FactCHDConfig(n=24, seed=5))
    again = gen.generate(FactCHDConfig(n=24, seed=5))
    other = gen.generate(FactCHDConfig(n=24, seed=6))
    assert to_rows(first) == to_rows(again) != to_rows(other)
    rows = to_rows(first)
    assert list(rows[0])[:9] == ["id", "label", "query", "response", "evidence", "reason", "domain", "type", "category"]
    assert all(QRPair.model_validate(r) == p for r, p in zip(rows, first, strict=True))
    for p in first:
        assert p.grounding in GROUNDINGS[(p.pattern or "", p.label == Label.FACTUAL)]
    shares = grounding_shares(first)
    assert sum(shares["all"].values()) == len(first) == 24


@pytest.mark.parametrize("grounding", list(Grounding))
def test_grounding_filter_keeps_only_that_grounding(grounding: Grounding) -> None:
    pairs = generator().generate(FactCHDConfig(n=16, seed=1, grounding=grounding))
    assert pairs and {p.grounding for p in pairs} == {grounding}
    if grounding == Grounding.PROVED:  # FACTUAL proved pairs come only from vanilla and multi-hop
        assert {p.pattern for p in pairs if p.label == Label.FACTUAL} <= {"vanilla", "multi_hop"}


def test_grounding_filter_explains_an_impossible_request() -> None:
    with pytest.raises(DrowzeeError, match="no pattern"):
        FactCHDConfig(n=4, patterns=("vanilla", "multi_hop"), grounding=Grounding.COMPUTED)
