"""Prolog rule families as tables of (facts, negative facts, query, expected status, rule)."""

from __future__ import annotations

from pathlib import Path

import pytest

from agents.verifier.kb.prove import prove_claim
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import Stats
from drowzee_core.kb.store import KBStore
from drowzee_core.logic.reasoner import Reasoner
from tests.conftest import make_store

pytestmark = pytest.mark.integration

GEO = [
    ("Paris", "located_in", "France"),
    ("France", "located_in", "Europe"),
    ("Lyon", "located_in", "France"),
    ("Berlin", "located_in", "Germany"),
    ("Germany", "located_in", "Europe"),
    ("France", "has_capital", "Paris"),
    ("Germany", "has_capital", "Berlin"),
    ("France", "shares_border_with", "Germany"),
    ("France", "has_currency", "Euro"),
    ("Germany", "has_currency", "Euro"),
    ("France", "on_continent", "Europe"),
    ("Germany", "on_continent", "Europe"),
    ("Japan", "on_continent", "Asia"),
    ("Japan", "has_currency", "Yen"),
]
CASES = [
    # (query, expected status, expected top rule)
    (("Paris", "located_in", "France"), "supported", "fact"),
    (("Paris", "located_in", "Europe"), "supported", "transitive"),
    (("Europe", "contains", "Paris"), "supported", "transitive"),
    (("Europe", "contains", "France"), "supported", "inverse"),
    (("Germany", "shares_border_with", "France"), "supported", "symmetric"),
    (("Paris", "capital_of", "France"), "supported", "inverse"),
    (("Lyon", "uses_currency", "Euro"), "supported", "composite:currency_of_place"),
    (("Paris", "on_continent", "Europe"), "supported", "composite:continent_of_capital"),
    (("France", "same_currency_as", "Germany"), "supported", "same_object"),
    (("France", "same_continent_as", "Germany"), "supported", "same_object"),
    (("Berlin", "capital_of", "France"), "contradicted", "negation_functional"),
    (("France", "has_capital", "Lyon"), "contradicted", "negation_functional"),
    (("Lyon", "capital_of", "France"), "contradicted", "negation_inverse_functional"),
    (("France", "same_continent_as", "Japan"), "contradicted", "negation_same_object"),
    (("Paris", "located_in", "Germany"), "contradicted", "negation"),
    (("France", "shares_border_with", "France"), "contradicted", "negation_irreflexive"),
    (("Germany", "located_in", "Paris"), "unknown", None),  # absence alone is never "false"
    (("Lyon", "located_in", "Germany"), "unknown", None),  # no partition: these keys are not `country:...`
    (("France", "same_currency_as", "Japan"), "unknown", None),  # has_currency is not functional
    (("Japan", "shares_border_with", "France"), "unknown", None),
]


@pytest.fixture()
def reasoner() -> Reasoner:
    store = make_store(GEO, negatives=[("Paris", "located_in", "Germany")])
    r = Reasoner(store)
    r.derive()
    return r


@pytest.mark.parametrize(("query", "status", "rule"), CASES)
def test_rule_families(reasoner: Reasoner, query: tuple[str, str, str], status: str, rule: str | None) -> None:
    verdict = reasoner.prove(*query)
    assert verdict.status == status, verdict.lines()
    if rule is None:
        assert verdict.proof is None
    else:
        assert verdict.proof is not None and verdict.proof["rule"] == rule
        assert verdict.proof["fact"] == list(query)


def test_transitive_proof_is_the_path(reasoner: Reasoner) -> None:
    proof = reasoner.prove("Paris", "located_in", "Europe").proof
    assert proof is not None
    assert [p["fact"] for p in proof["premises"]] == [
        ["Paris", "located_in", "France"],
        ["France", "located_in", "Europe"],
    ]
    assert proof["text"] == "Paris is located in Europe."


def test_negative_symmetric_and_inverse_facts_contradict() -> None:
    store = make_store(
        [("A", "located_in", "B")], negatives=[("X", "shares_border_with", "Y"), ("P", "located_in", "Q")]
    )
    r = Reasoner(store)
    assert r.prove("Y", "shares_border_with", "X").proof["rule"] == "negation_symmetric"  # type: ignore[index]
    assert r.prove("Q", "contains", "P").proof["rule"] == "negation_inverse"  # type: ignore[index]


def test_derive_counts_every_family(reasoner: Reasoner) -> None:
    runs = {str(r.family): r.facts for r in reasoner.derive()}
    # symmetric: Germany-France; transitive: Paris, Lyon, Berlin -> Europe
    assert runs["symmetric"] == 1
    assert runs["transitive"] == 3
    assert runs["inverse"] >= 7
    assert runs["composite"] >= 4


def test_cycles_terminate_and_prove() -> None:
    store = make_store([("A", "located_in", "B"), ("B", "located_in", "C"), ("C", "located_in", "A")])
    r = Reasoner(store)
    runs = {str(x.family): x.facts for x in r.derive()}
    assert runs["transitive"] == 6  # 9 pairs incl. self-loops, minus 3 edges
    v = r.prove("A", "located_in", "A")
    assert v.status == "supported" and len(v.proof["premises"]) == 3  # type: ignore[index]


def test_prove_many_matches_prove(reasoner: Reasoner) -> None:
    ids, rids = reasoner.store.entity_ids(), reasoner.relation_ids
    queries = [(ids[s], rids[r], ids[o]) for (s, r, o), _, _ in CASES]
    assert reasoner.engine.prove_many(queries) == [status for _, status, _ in CASES]


def test_unknown_names_and_relations() -> None:
    r = Reasoner(make_store(GEO))
    assert r.prove("Atlantis", "located_in", "Europe").status == "unknown"
    with pytest.raises(Exception, match="unknown relation 'flies_to'"):
        r.prove("Paris", "flies_to", "Europe")


def test_a_replaced_engine_refuses_to_answer() -> None:
    first = Reasoner(make_store(GEO))
    Reasoner(make_store(GEO))
    with pytest.raises(Exception, match="replaced by a newer PrologEngine"):
        first.prove("Paris", "located_in", "France")


# UN member states are the cells of located_in's partition: `member_of` org:united_nations
MEMBER = "org:united_nations"
PARTITIONED = [
    ("Lyon", "located_in", "France"),
    ("Twin Town", "located_in", "France"),
    ("France", "located_in", "Western Europe"),
    ("Germany", "located_in", "Western Europe"),
    ("Brazil", "located_in", "South America"),
    ("Pointe Town", "located_in", "Territory"),  # a territory is no member state
    *((state, "member_of", MEMBER) for state in ("France", "Germany", "Brazil")),
]


@pytest.mark.parametrize(
    ("query", "status", "premises"),
    [
        (
            ("Lyon", "located_in", "Germany"),
            "contradicted",
            [
                "Lyon is located in France.",
                f"France is a member of {MEMBER}.",
                f"Germany is a member of {MEMBER}.",
            ],
        ),
        (
            ("Germany", "located_in", "Brazil"),
            "contradicted",
            [f"Germany is a member of {MEMBER}.", f"Brazil is a member of {MEMBER}."],
        ),
        (
            ("Brazil", "contains", "Germany"),
            "contradicted",
            [f"Germany is a member of {MEMBER}.", f"Brazil is a member of {MEMBER}."],
        ),
        (
            ("Germany", "contains", "Lyon"),
            "contradicted",
            [
                "Lyon is located in France.",
                f"France is a member of {MEMBER}.",
                f"Germany is a member of {MEMBER}.",
            ],
        ),
        (  # member_of has the same partition: a member state is no member of another
            ("Germany", "member_of", "Brazil"),
            "contradicted",
            [f"Germany is a member of {MEMBER}.", f"Brazil is a member of {MEMBER}."],
        ),
        (("Germany", "member_of", MEMBER), "supported", None),
        (("Lyon", "located_in", "France"), "supported", None),
        (("Lyon", "located_in", "South America"), "unknown", None),  # not a cell: absence decides nothing
        (("Pointe Town", "located_in", "Germany"), "unknown", None),  # in no cell at all
        (("Territory", "located_in", "France"), "unknown", None),
        (("Germany", "located_in", "Germany"), "unknown", None),
    ],
)
def test_a_partition_refutes_a_second_cell(
    query: tuple[str, str, str], status: str, premises: list[str] | None
) -> None:
    v = Reasoner(make_store(PARTITIONED)).prove(*query)
    assert v.status == status, v.lines()
    if premises is not None:
        assert v.proof is not None and v.proof["rule"] == "negation_partition"
        assert [p["text"] for p in v.proof["premises"]] == premises


def test_a_partition_refutes_only_the_first_reading_of_a_name() -> None:
    """ "Puerto Rico" reads first as the territory (in no member state), not as a town in Argentina."""
    store = make_store([*PARTITIONED, ("Argentina", "member_of", MEMBER), ("Puerto Rico", "located_in", "Argentina")])
    # keys as the seed KB writes them, so that the name is looked up by label: the territory was stored first
    store.db.execute("UPDATE entity SET key = 'country:PR', label = 'Puerto Rico' WHERE key = 'Territory'")
    store.db.execute("UPDATE entity SET key = 'geonames:1' WHERE key = 'Puerto Rico'")
    store._entity_ids = None
    r = Reasoner(store)
    assert len(store.resolve("Puerto Rico")) == 2
    assert r.prove("Puerto Rico", "located_in", "Germany").status == "unknown"
    assert prove_claim(r, "Puerto Rico", "located_in", "Germany").status == "unknown"  # the verifier's path
    assert prove_claim(r, "Pointe Town", "located_in", "Germany").status == "unknown"
    assert r.prove("Pointe Town", "located_in", "Puerto Rico").status == "supported"


def test_partition_conflicts_name_a_subject_in_two_cells() -> None:
    assert Reasoner(make_store(PARTITIONED)).partition_conflicts() == []
    broken = make_store([*PARTITIONED, ("Twin Town", "located_in", "Germany"), ("Germany", "located_in", "Brazil")])
    conflicts = {(s, r, frozenset((a, b))) for s, r, a, b in Reasoner(broken).partition_conflicts()}
    assert conflicts == {
        ("Twin Town", "located_in", frozenset(("Germany", "France"))),
        ("Germany", "located_in", frozenset(("Brazil", "Germany"))),
    }


def test_the_seed_kb_keeps_its_partition(seed_kb: tuple[Path, Stats]) -> None:
    """193 UN member states; no place of the bundled KB lies in two, and no member in another."""
    with KBStore(seed_kb[0]) as store:
        members = store.db.execute(
            "SELECT count(*) FROM triple t JOIN entity e ON e.id = t.o WHERE e.key = ?", (MEMBER,)
        ).fetchone()[0]
        assert members == 193
        r = Reasoner(store)
        assert r.partition_conflicts() == []
        assert r.prove("Lyon", "located_in", "Germany").status == "contradicted"
        assert r.prove("Germany", "located_in", "Brazil").status == "contradicted"
        for territory in ("Puerto Rico", "Greenland", "Hong Kong"):  # territories are no cells
            assert r.prove(territory, "located_in", "Brazil").status == "unknown", territory


def test_a_composite_over_a_transitive_first_relation_holds_of_the_holder_itself(reasoner: Reasoner) -> None:
    v = reasoner.prove("Japan", "uses_currency", "Yen")  # Japan is located in nothing: a chain of no step
    assert v.status == "supported", v.lines()
    assert v.proof is not None and v.proof["rule"] == "composite:currency_of_place"
    assert [p["text"] for p in v.proof["premises"]] == ["The currency of Japan is Yen."]
    # the currency lists are complete (`complete = true`): Japan's leaves the euro out
    assert reasoner.prove("Japan", "uses_currency", "Euro").status == "contradicted"


NAMED = [
    ("Newton", "located_in", "Kent"),  # a town
    ("Isaac Newton", "born_in_year", "1642"),
    ("Japan", "has_currency", "Japanese Yen"),
    ("Yen", "located_in", "Vinh"),  # a place that bears the currency's short name
    ("Vinh", "has_currency", "Dong"),
]


def test_a_name_stands_for_the_entities_its_relation_can_hold() -> None:
    from drowzee_core.kb.naming import TypeCheck, typed_names

    store = make_store(NAMED)
    r = Reasoner(store)
    ids = store.entity_ids()
    assert typed_names(store, r.catalog, "yen", "has_currency", "o", 12) == [ids["Japanese Yen"]]
    assert typed_names(store, r.catalog, "Yen", "located_in", "s", 12) == [ids["Yen"]]
    assert r.prove("Japan", "has_currency", "yen").status == "supported"
    assert r.prove("Japan", "uses_currency", "yen").status == "supported"
    check = TypeCheck(store, r.catalog)
    assert check("has_currency", "Japan", "yen") and not check("same_currency_as", "Japan", "yen")
    assert check("father", "Japan", "yen") and not check("father", "Japan", "yen", strict=True)  # no facts


def test_a_name_said_by_an_alias_stands_for_every_entity_that_bears_its_label() -> None:
    from drowzee_core.kb.writer import KBWriter

    # two sources keep "Norland" apart: one gives it the alias "NL" and a place, the other its capital
    store = KBStore(":memory:", create=True)
    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    listed = writer.entity("wn:norland", "Norland", aliases=("NL",))
    country = writer.entity("country:NO", "Norland")
    writer.triple(listed, "located_in", writer.entity("Vell Isles"), domain="test", source="test")
    writer.triple(country, "has_capital", writer.entity("Orvin"), domain="test", source="test")
    writer.flush()
    r = Reasoner(store)
    assert r.prove("NL", "has_capital", "Orvin").status == "supported"  # never "not Orvin" of the other one
    assert r.prove("NL", "has_capital", "Vell Isles").status == "contradicted"
    assert r.prove("NL", "located_in", "Vell Isles").status == "supported"


def test_a_name_with_diacritics_stands_for_the_entity_a_source_wrote_without_them() -> None:
    from drowzee_core.kb.writer import KBWriter

    # one source writes "Tová Brénn" (a label with no dates), another "Brenn" with the alias "Tova Brenn"
    store = KBStore(":memory:", create=True)
    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    writer.entity("curated:tova", "Tová Brénn")
    person = writer.entity("wn:brenn", "Brenn", aliases=("Tova Brenn",))
    writer.triple(person, "died_in_year", writer.entity("1650"), domain="test", source="test")
    writer.entity("1651")  # a year the KB knows, as the seed KB knows every year a fact gives
    writer.flush()
    r = Reasoner(store)
    assert r.prove("Tová Brénn", "died_in_year", "1650").status == "supported"
    assert r.prove("Tová Brénn", "died_in_year", "1651").status == "contradicted"


def test_an_alias_longer_than_its_label_stands_for_no_homonym_of_the_label() -> None:
    from drowzee_core.kb.naming import homonyms, resolved
    from drowzee_core.kb.writer import KBWriter

    # WordNet's "Brenn" (the person, alias "Tova Brenn") and a town called Brenn are two things
    store = KBStore(":memory:", create=True)
    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    person = writer.entity("wn:brenn", "Brenn", aliases=("Tova Brenn",))
    town = writer.entity("place:brenn", "Brenn")
    writer.triple(person, "born_in_year", writer.year(1901), domain="test", source="test")
    writer.triple(town, "population", writer.quantity(12000), domain="test", source="test")
    writer.flush()
    ids = store.entity_ids()
    assert homonyms(store, "Tova Brenn", [ids["wn:brenn"]], 5) == []
    assert resolved(store, "Tova Brenn", 5) == [ids["wn:brenn"]]
    assert Reasoner(store).prove("Tova Brenn", "population", "12000").status == "unknown"


def test_a_shortened_name_is_not_taken_when_it_is_too_vague() -> None:
    from drowzee_core.kb.naming import shortened

    store = make_store([(f"Country {i}", "has_currency", f"Currency {i} Dollar") for i in range(25)])
    rid = store.relation_ids()["has_currency"]
    assert shortened(store, "dollar", [(rid, "o")]) == []
    assert len(shortened(store, "dollar", [(rid, "o")], limit=30)) == 25
