"""A pair's supplied triples as a scratch KB in its own Prolog module, reasoned over by the same rules."""

from __future__ import annotations

import pytest

from drowzee_core.errors import LogicError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.scratch import relation_for, scratch_store
from drowzee_core.logic import session
from drowzee_core.logic.engine import PrologEngine
from drowzee_core.logic.explain import reasoning_lines
from drowzee_core.logic.reasoner import Reasoner
from drowzee_core.logic.scratch import SCRATCH_MODULE, ScratchKB
from drowzee_core.records.enums import ProofStatus
from tests.conftest import make_store

pytestmark = pytest.mark.integration

# Drowzee history_dataset.json, qid of "Is it possible for 166 BC and 161 BC to be both subclass of the
# same event?" (gold "Yes.", reasoning "Transitive Inference"): its evidence, as supplied.
DROWZEE_166 = [["161 BC", "part of", "160s BC"], ["166 BC", "part of", "160s BC"]]


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.from_toml()


def test_part_of_maps_to_the_catalogs_transitive_relation(catalog: Catalog) -> None:
    # the mapping is explicit: supplied "part of" is the catalog's part_of, which is transitive and has
    # no same_object rule, so "both part of the same Z" is a common-object query over part_of.
    assert relation_for("part of", catalog) == "part_of"
    assert relation_for("Part Of", catalog) == "part_of"
    spec = catalog.get("part_of")
    assert spec.transitive and not spec.functional
    assert "part_of" not in {so.relation for so in catalog.same_object}
    store, report = scratch_store(DROWZEE_166, catalog)
    assert report.relations == {"part of": "part_of"} and report.generic == []
    store.close()


def test_both_part_of_the_same_event_from_two_supplied_facts() -> None:
    with ScratchKB(DROWZEE_166) as kb:
        verdict = kb.common_object("166 BC", "part of", "161 BC")
        assert verdict.status == ProofStatus.SUPPORTED
        assert verdict.proof is not None and verdict.proof["rule"] == "same_object"
        assert [p["fact"] for p in verdict.proof["premises"]] == [
            ["166 BC", "part_of", "160s BC"],
            ["161 BC", "part_of", "160s BC"],
        ]
        # absence is not refutation: an entity with no supplied part_of shares nothing, unknown
        assert kb.common_object("166 BC", "part of", "Norse mythology").status == ProofStatus.UNKNOWN


def test_transitive_common_object_and_transitive_fact() -> None:
    triples = [*DROWZEE_166, ["160s BC", "part of", "2nd century BC"], ["170s BC", "part of", "2nd century BC"]]
    with ScratchKB(triples) as kb:
        verdict = kb.prove("161 BC", "part of", "2nd century BC")
        assert verdict.status == ProofStatus.SUPPORTED
        assert verdict.proof is not None and verdict.proof["rule"] == "transitive"
        common = kb.common_object("161 BC", "part_of", "170s BC")
        assert common.status == ProofStatus.SUPPORTED
        assert common.proof is not None
        assert common.proof["premises"][0]["rule"] == "transitive"
        assert common.proof["premises"][0]["fact"] == ["161 BC", "part_of", "2nd century BC"]


def test_catalog_same_object_rule_over_supplied_facts() -> None:
    triples = [["France", "continent", "Europe"], ["Germany", "continent", "Europe"], ["Japan", "continent", "Asia"]]
    with ScratchKB(triples) as kb:
        assert kb.report.relations == {"continent": "on_continent"}
        same = kb.prove("France", "same_continent_as", "Germany")
        assert same.status == ProofStatus.SUPPORTED and same.proof is not None and same.proof["rule"] == "same_object"
        differ = kb.prove("France", "on the same continent as", "Japan")
        assert differ.status == ProofStatus.CONTRADICTED
        assert differ.proof is not None and differ.proof["rule"] == "negation_same_object"


def test_functional_supplied_value_contradicts_a_different_stated_year() -> None:
    with ScratchKB([["Anne Bradstreet", "year of death", "1672"]]) as kb:
        assert kb.report.relations == {"year of death": "died_in_year"}
        stated = kb.prove("Anne Bradstreet", "died_in_year", "1642")
        assert stated.status == ProofStatus.CONTRADICTED, stated.lines()
        assert stated.proof is not None and stated.proof["rule"] == "negation_functional"
        assert stated.proof["premises"][0]["fact"] == ["Anne Bradstreet", "died_in_year", "1672"]
        assert stated.object == ["year:1642"]  # the main KB's key for a year
        assert kb.prove("Anne Bradstreet", "year of death", "1672").status == ProofStatus.SUPPORTED
        # a generic relation has no rules: a different value is unknown, never "false"
    with ScratchKB([["Anne Bradstreet", "date of burial", "1672"]]) as kb:
        assert kb.report.generic == ["date_of_burial"]
        assert kb.prove("Anne Bradstreet", "date of burial", "1642").status == ProofStatus.UNKNOWN
        assert kb.prove("Anne Bradstreet", "date of burial", "1672").status == ProofStatus.SUPPORTED


def test_a_mother_is_refuted_as_the_father_of_the_same_child() -> None:
    # Drowzee's "Is it possible for Aífe to be the father of Connla?" (gold "No."), its evidence as supplied
    with ScratchKB([["Connla", "mother", "Aífe"], ["Enyalius", "father", "Ares"]]) as kb:
        assert kb.report.relations == {"mother": "mother", "father": "father"}
        father = kb.prove("Connla", "father", "Aífe")
        assert father.status == ProofStatus.CONTRADICTED
        assert father.proof is not None and father.proof["rule"] == "negation_disjoint"
        assert father.proof["premises"][0]["fact"] == ["Connla", "mother", "Aífe"]
        why = reasoning_lines(father.proof, kb.catalog)
        assert why[-1].startswith("Since 'mother' and 'father' never hold between the same two"), why
        assert kb.prove("Enyalius", "mother", "Ares").proof["rule"] == "negation_disjoint"  # type: ignore[index]
        assert kb.prove("Connla", "mother", "Aífe").status == ProofStatus.SUPPORTED
        # nothing said about Connla's father beyond that: another name stays unknown
        assert kb.prove("Connla", "father", "Enyalius").status == ProofStatus.UNKNOWN


def test_factchd_qualifiers_and_values(catalog: Catalog) -> None:
    triples = [
        ["Honshu", "instance of", "island"],
        ["['Honshu', 'population', '103000000']", "point in time", "2005"],
        ["['Greece', 'population', '5536375']", "determination method", "census"],
        ["['Greece', 'population', '5536375']", "point in time", "1920"],
        ["PBS", "inception", "1969-11-03"],
    ]
    store, report = scratch_store(triples, catalog)
    rows = list(
        store.db.execute(
            "SELECT e1.key, r.name, e2.key, t.start_year, t.end_year FROM triple t JOIN entity e1 ON e1.id = t.s"
            " JOIN entity e2 ON e2.id = t.o JOIN relation r ON r.id = t.r ORDER BY t.id"
        )
    )
    store.close()
    assert rows == [
        ("Honshu", "instance_of", "island", None, None),
        ("Honshu", "population", "num:103000000", 2005, 2005),
        ("Greece", "population", "num:5536375", 1920, 1920),
        ("PBS", "inception", "year:1969", None, None),
    ]
    assert report.qualifiers == 3 and report.accepted == 5 and report.new_triples == 4 and not report.errors


def test_bad_triples_are_reported_not_raised(catalog: Catalog) -> None:
    bad: list[object] = [
        ["a", "b"],
        ["", "part of", "x"],
        "a sentence",
        ["a", 3, "b"],
        ["a", "r{s}", "b"],
        ["x" * 400, "part of", "y"],
        ["['', 'population', '5']", "point in time", "2005"],
        ["ok", "part of", "fine"],
    ]
    store, report = scratch_store(bad, catalog)
    store.close()
    assert [e.line for e in report.errors] == [1, 2, 3, 4, 5, 6, 7]
    assert "2 parts" in report.errors[0].reason and "subject is empty" in report.errors[1].reason
    assert "400 characters" in report.errors[5].reason
    assert report.accepted == 1 and report.new_triples == 1


def test_scratch_kb_does_not_disturb_the_main_kb() -> None:
    main = Reasoner(make_store([("Paris", "located_in", "France"), ("France", "located_in", "Europe")]))
    queries = [("Paris", "located_in", "Europe"), ("Europe", "contains", "Paris"), ("Paris", "located_in", "Asia")]
    before = [main.prove(*q) for q in queries]
    assert [v.status for v in before] == [ProofStatus.SUPPORTED, ProofStatus.SUPPORTED, ProofStatus.UNKNOWN]
    with ScratchKB(DROWZEE_166) as kb:
        assert kb.common_object("161 BC", "part of", "166 BC").status == ProofStatus.SUPPORTED
        assert kb.prove("Paris", "located_in", "France").status == ProofStatus.UNKNOWN  # main facts stay out
        after = [main.prove(*q) for q in queries]  # no "replaced" error, same answers and proofs
        assert [(v.status, v.proof) for v in after] == [(v.status, v.proof) for v in before]
        assert main.engine.count("t(_, _, _)") == 2
        assert kb.reasoner.engine.count("t(_, _, _)") == 2
    # a second scratch KB replaces the first one's module only
    first = ScratchKB(DROWZEE_166)
    second = ScratchKB([["Iðunn", "part of", "Norse mythology"]])
    with pytest.raises(LogicError, match="drowzee_scratch"):
        first.prove("161 BC", "part of", "160s BC")
    assert second.prove("Iðunn", "part of", "Norse mythology").status == ProofStatus.SUPPORTED
    assert main.prove("Paris", "located_in", "Europe").status == ProofStatus.SUPPORTED
    first.close()
    second.close()


def test_module_names_are_validated() -> None:
    assert session.kb_module(SCRATCH_MODULE) == SCRATCH_MODULE
    for bad in ("lists", "drowzee_mtl", "Drowzee", "drowzee-x", "drowzee:x"):
        with pytest.raises(LogicError, match="module name"):
            PrologEngine(bad)


def test_comparison_of_dated_supplied_values() -> None:
    from agents.verifier.kb.prove import compare

    triples = [
        ["['Avalon', 'population', '4000']", "point in time", "1967"],
        ["['Avalon', 'population', '9000']", "point in time", "2005"],
        ["['Brynmor', 'population', '5000']", "point in time", "1967"],
        ["['Brynmor', 'population', '6000']", "point in time", "2005"],
    ]
    with ScratchKB(triples) as kb:
        in_1967 = compare(kb.reasoner, "Avalon", "population", "most", ("Avalon", "Brynmor"), 1967)
        assert in_1967.status == ProofStatus.CONTRADICTED
        assert (
            in_1967.proof is not None
            and in_1967.proof.text == "Brynmor, not Avalon, has the largest population in 1967 (5000)."
        )
        assert [(p.fact, p.text) for p in in_1967.proof.premises] == [
            (("Avalon", "population", "4000"), "The population of Avalon is 4000 (1967)."),
            (("Brynmor", "population", "5000"), "The population of Brynmor is 5000 (1967)."),
        ]
        in_2005 = compare(kb.reasoner, "Avalon", "population", "most", ("Avalon", "Brynmor"), 2005)
        assert in_2005.status == ProofStatus.SUPPORTED
        # two different values and no year to choose by, a year no value covers, nothing to compare with
        assert compare(kb.reasoner, "Avalon", "population", "most", ("Avalon", "Brynmor")).status == ProofStatus.UNKNOWN
        assert compare(kb.reasoner, "Avalon", "population", "most", ("Brynmor",), 1990).status == ProofStatus.UNKNOWN
        assert compare(kb.reasoner, "Avalon", "population", "most", (), 1967).status == ProofStatus.UNKNOWN
        # "smaller than Brynmor and Cardell": a list of names the KB holds one by one; an unknown one decides nothing
        listed = compare(kb.reasoner, "Brynmor", "population", "least", ("Brynmor", "Avalon and Cardell"), 1967)
        assert listed.status == ProofStatus.UNKNOWN and "Cardell" in listed.note
        both = compare(kb.reasoner, "Avalon", "population", "least", ("Avalon", "Brynmor and Avalon"), 1967)
        assert both.status == ProofStatus.SUPPORTED and both.proof is not None and len(both.proof.premises) == 2


def test_a_past_tense_value_is_not_refuted_by_the_unique_value_held_now() -> None:
    from agents.reading.claim_types import (
        ClaimOrigin,
        TripleClaim,
    )
    from agents.reading.templates.statements import StatementReader
    from agents.verifier.nodes.kb_check import check_claims

    reader = StatementReader(Catalog.from_toml())
    said = [*reader.read("The population of Avalon is 5000."), *reader.read("Avalon had a population of 5000.")]
    assert [c.past for c in said if hasattr(c, "past")] == [False, True]
    claims = [
        TripleClaim(
            id=f"C{i}",
            text=c.text,
            origin=ClaimOrigin.TEMPLATE,
            subject=c.subject,
            relation=c.relation,
            object=c.object,
            past=getattr(c, "past", False),
        )
        for i, c in enumerate(said, 1)
    ]
    with ScratchKB([["Avalon", "population", "4000"]]) as kb:
        now, then = check_claims(None, kb.reasoner, claims)
    assert now.status == ProofStatus.CONTRADICTED and now.proof is not None, now
    assert now.proof.rule == "negation_functional"
    assert then.status == ProofStatus.UNKNOWN and "past-tense" in then.note


def test_a_past_tense_place_is_not_refuted_by_the_country_it_is_in_now() -> None:
    """ "Königsberg was located in Germany" is not refuted by `[Königsberg, located_in, Russia]` (borders move)."""
    from agents.reading.claim_types import (
        ClaimOrigin,
        TripleClaim,
    )
    from agents.verifier.nodes.kb_check import check_claims

    member = "org:united_nations"
    main = Reasoner(
        make_store(
            [
                ("Königsberg", "located_in", "Russia"),
                ("Russia", "member_of", member),
                ("Germany", "member_of", member),
            ]
        )
    )
    claims = [
        TripleClaim(
            id=f"C{i}",
            text=f"Königsberg {verb} located in Germany.",
            origin=ClaimOrigin.TEMPLATE,
            subject="Königsberg",
            relation="located_in",
            object="Germany",
            past=past,
        )
        for i, (verb, past) in enumerate((("is", False), ("was", True)), 1)
    ]
    now, then = check_claims(main, None, claims)
    assert now.status == ProofStatus.CONTRADICTED and now.proof is not None, now
    assert now.proof.rule == "negation_partition"
    assert then.status == ProofStatus.UNKNOWN and "past-tense" in then.note
