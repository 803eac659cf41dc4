"""Temporal reasoning end to end: Drowzee's dev queries, fact files, KB events, generation, the CLI."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from drowzee_core.errors import DrowzeeError, LogicError
from drowzee_core.generate.templates_mtl import drowzee_question
from drowzee_core.generate.temporal_qa import TemporalQAConfig, generate_temporal_qa
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.writer import KBWriter
from drowzee_core.logic.events import EventTable, drowzee_key, events_from_kb, load_fact_file
from drowzee_core.logic.mtl_reference import ReferenceEvaluator
from drowzee_core.logic.mtl_syntax import from_json, parse_query
from drowzee_core.logic.temporal import AUTHORS_HORIZON, TemporalEngine, default_horizon, kb_horizon
from drowzee_core.logic.temporal_check import check_file
from tests.conftest import peers_path

pytestmark = pytest.mark.integration
runner = CliRunner()


@pytest.fixture(scope="module")
def drowzee_facts() -> EventTable:
    return load_fact_file(peers_path("drowzee_temporal", "facts.pl"))


def test_authors_dev_queries_agree(drowzee_facts: EventTable, tmp_path: Path) -> None:
    """All 2,013 dev queries agree with the authors' `res`, horizon [0, 2024] (timing: bench/temporal.py)."""
    queries = peers_path("drowzee_temporal", "mtl_queries_dev.jsonl")
    summary = check_file(TemporalEngine(drowzee_facts, AUTHORS_HORIZON), queries, tmp_path / "out.jsonl")
    assert summary["queries"] == summary["with_res"] == 2013
    assert summary["agree"] == 2013 and summary["disagreements"] == []
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert len(lines) == 2014 and json.loads(lines[-1])["summary"]["agree"] == summary["agree"]
    first = json.loads(lines[0])
    assert set(first) >= {"mtl", "res", "truth", "intervals", "agrees"}


def test_templates_reproduce_the_authors_questions() -> None:
    rows = [json.loads(x) for x in peers_path("drowzee_temporal", "mtl_queries_dev.jsonl").read_text().splitlines()]
    mismatched = []
    for r in rows:
        q = parse_query(r["mtl"])
        if drowzee_question(q.formula, q.year) != r["question"]:
            mismatched.append(r["mtl"])
    assert not mismatched


def test_fact_file_cross_product_and_bad_clauses(tmp_path: Path) -> None:
    facts = tmp_path / "facts.pl"
    facts.write_text(
        "begin('war', 1, 1, 1900).\nbegin('war', 1, 1, 1910).\nend('war', 1, 1, 1905).\nend('war', 1, 1, 1915).\n"
        "begin('late', 1, 1, 2000).\nend('late', 1, 1, 1990).\n"
        ":- shell('touch pwned').\nborn(x, y).\nbegin('bad', 1, 1, year).\n",
        encoding="utf-8",
    )
    table = load_fact_file(facts)
    war = table.resolve("War")
    assert war is not None and war.intervals == ((1900, 1905), (1900, 1915), (1910, 1915))
    late = table.resolve("late")
    assert late is not None and late.intervals == ()
    assert any("no begin <= end pair" in p for p in table.problems)
    assert any("facts.pl:7" in p and "directives" in p for p in table.problems)
    assert any("facts.pl:8" in p for p in table.problems) and any("facts.pl:9" in p for p in table.problems)
    assert not (tmp_path / "pwned").exists()
    engine = TemporalEngine(table, AUTHORS_HORIZON)
    assert engine.intervals(parse_query("Atom(war), 1").formula) == [(1900, 1915)]
    answer = engine.check(parse_query("Globally[0, 15](Atom(War)), 1900"))
    assert answer.truth and answer.events[0].key == "war"
    missing = engine.check(parse_query("Neg(Atom(Nowhere)), 1950"))
    assert missing.truth and missing.missing == ["Nowhere"]
    hostile = "x', halt, shell('touch pwned'), '"
    answer = engine.check(parse_query(f"Disj(Atom({hostile}), Atom(war)), 1901"))
    assert answer.truth and answer.missing == [hostile]  # names stay in Python; Prolog sees ids
    unbalanced = "x')). :- shell('touch pwned'). %"
    formula = from_json({"op": "conj", "left": {"atom": unbalanced}, "right": {"atom": "war"}})
    assert engine.intervals(formula) == []
    assert not (tmp_path / "pwned").exists()


def test_drowzee_key() -> None:
    assert drowzee_key("Council_of_Florence") == "council_of_florence"
    assert drowzee_key("ev_2006-07 La Liga") == "ev_2006_07_la_liga"
    assert drowzee_key("Lützen") == "l__tzen"


def test_events_from_kb() -> None:
    store = KBStore(":memory:", create=True)
    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    for key in ("France", "Franc", "Euro", "Curie", "year:1867", "year:1934"):
        writer.entity(key)
    writer.triple("France", "has_currency", "Franc", domain="society", source="t", start_year=1795, end_year=2001)
    writer.triple("France", "has_currency", "Euro", domain="society", source="t", start_year=2002)
    writer.triple("Curie", "born_in_year", "year:1867", domain="people", source="t", start_year=1867, end_year=1867)
    writer.triple("Curie", "died_in_year", "year:1934", domain="people", source="t", start_year=1934, end_year=1934)
    writer.triple("Curie", "has_currency", "Euro", domain="society", source="t", start_year=2025)  # a fact of 2025
    writer.flush()
    horizon = kb_horizon(date(2026, 3, 1))
    assert horizon == (0, 2026) and default_horizon(fact_file=False, today=date(2026, 3, 1)) == horizon
    table = events_from_kb(store, open_end=horizon[1])
    labels = {e.label: e.intervals for e in table}
    assert labels["the currency of France being Franc"] == ((1795, 2001),)
    assert labels["the currency of France being Euro"] == ((2002, 2026),)  # open end: "present" = today
    assert labels["the currency of Curie being Euro"] == ((2025, 2026),) and not table.problems
    assert labels["the lifetime of Curie"] == ((1867, 1934),)
    # the authors' horizon belongs to their facts.pl: with it, the 2025 fact was skipped
    assert default_horizon(fact_file=True) == AUTHORS_HORIZON == (0, 2024)
    old = events_from_kb(store, open_end=AUTHORS_HORIZON[1])
    assert [p.split(":")[1] for p in old.problems] == [
        " starts in 2025, after its end 2024 (open ends hold through 2024)"
    ]
    engine = TemporalEngine(table, horizon)
    franc, euro = "Atom(the currency of France being Franc)", "Atom(the currency of France being Euro)"
    q = parse_query(f"Until[1, 1]({franc}, {euro}), 2001")
    answer = engine.check(q)
    assert answer.truth and answer.intervals == [(2001, 2001)] and len(answer.events) == 2
    assert not engine.check(parse_query("Conj(Atom(the lifetime of Curie), Atom(the birth of Curie)), 1868")).truth


def test_one_fact_over_several_periods_is_one_event_and_shared_names_are_not_asked() -> None:
    store = KBStore(":memory:", create=True)
    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    for key in ("Mali", "CFA", "Franc", "wn:curie.n.01", "wn:curie.n.02", "year:1867", "year:1859"):
        writer.entity(key, label={"wn:curie.n.01": "Curie", "wn:curie.n.02": "Curie"}.get(key))
    writer.triple("Mali", "has_currency", "CFA", domain="society", source="t", start_year=1958, end_year=1962)
    writer.triple("Mali", "has_currency", "Franc", domain="society", source="t", start_year=1962, end_year=1984)
    writer.triple("Mali", "has_currency", "CFA", domain="society", source="t", start_year=1984)
    for who, year in (("wn:curie.n.01", "year:1867"), ("wn:curie.n.02", "year:1859")):
        y = int(year[5:])
        writer.triple(who, "born_in_year", year, domain="people", source="t", start_year=y, end_year=y)
    writer.flush()
    table = events_from_kb(store, open_end=2026)
    [cfa] = table.candidates("the currency of Mali being CFA")
    assert cfa.intervals == ((1958, 1962), (1984, 2026)) and len(cfa.facts) == 2
    assert len(table.candidates("the birth of Curie")) == 2
    engine = TemporalEngine(table, (0, 2026))
    cases = generate_temporal_qa(engine, TemporalQAConfig(n=20, seed=3, max_depth=2))
    assert {ref.label for c in cases for ref in c.events} <= {
        "the currency of Mali being CFA",
        "the currency of Mali being Franc",
    }


def test_generated_questions_are_balanced_and_reprove(drowzee_facts: EventTable) -> None:
    engine = TemporalEngine(drowzee_facts, (0, 2024))
    cases = [
        c.model_dump(mode="json") for c in generate_temporal_qa(engine, TemporalQAConfig(n=700, seed=11, max_depth=3))
    ]
    assert Counter(c["answer"] for c in cases) == {"Yes": 350, "No": 350}
    assert len({c["operator"] for c in cases}) == 7
    assert max(c["depth"] for c in cases) == 3
    events = drowzee_facts.as_mapping()
    reference = ReferenceEvaluator(events, (0, 2024))
    reparsed = [parse_query(c["mtl"]) for c in cases]
    for case, q, answer in zip(cases, reparsed, engine.check_many(reparsed), strict=True):
        assert from_json(case["formula"]) == q.formula
        assert answer.truth == case["truth"] == (case["answer"] == "Yes")
        assert reference.holds(q.formula, q.year) == case["truth"], case["mtl"]
        assert [list(i) for i in answer.intervals] == case["intervals"]
        assert all(e["facts"] for e in case["events"])
    again = generate_temporal_qa(engine, TemporalQAConfig(n=700, seed=11, max_depth=3))
    assert [c.mtl for c in again] == [c["mtl"] for c in cases]


def test_generation_config_errors(drowzee_facts: EventTable) -> None:
    with pytest.raises(DrowzeeError, match="`max_depth` must be in"):
        TemporalQAConfig(n=1, max_depth=0)
    with pytest.raises(DrowzeeError, match="`operators`"):
        TemporalQAConfig(n=1, operators=("Eventually",))
    with pytest.raises(LogicError, match="horizon"):
        TemporalEngine(drowzee_facts, (10, 0))


def test_replaced_engine_refuses_to_answer(drowzee_facts: EventTable) -> None:
    old = TemporalEngine(drowzee_facts, AUTHORS_HORIZON)
    TemporalEngine(EventTable(), AUTHORS_HORIZON)
    with pytest.raises(LogicError, match="replaced"):
        old.intervals(parse_query("Atom(x), 1").formula)


def test_cli_check_keeps_every_line(tmp_path: Path) -> None:
    facts = tmp_path / "facts.pl"
    facts.write_text("begin('war', 1, 1, 1900).\nend('war', 1, 1, 1905).\n", encoding="utf-8")
    queries = tmp_path / "q.jsonl"
    queries.write_text(
        '{"mtl": "Finally[1, 3](Atom(War)), 1897", "res": "true"}\n'
        "not json\n\n"
        '{"mtl": "Eventually(Atom(War)), 1"}\n'
        '{"mtl": "Neg(Atom(War)), 2030", "res": true}\n'
        '{"question": "no mtl"}\n',
        encoding="utf-8",
    )
    out = tmp_path / "out.jsonl"
    res = runner.invoke(
        app,
        [
            "temporal",
            "check",
            "--facts",
            str(facts),
            "--queries",
            str(queries),
            "--out",
            str(out),
            "--horizon",
            "0",
            "2024",
            "--json",
        ],
    )
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    assert summary["queries"] == 5 and summary["checked"] == 2 and summary["errors"] == 3
    assert summary["agree"] == 1 and summary["disagreements"] == [5]  # 2030 is outside the horizon
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == 6 and "summary" in rows[-1]
    assert rows[0]["truth"] is True and rows[0]["intervals"] == [[1897, 1904]]
    assert rows[1]["line"] == 2 and "not JSON" in rows[1]["error"]
    assert rows[2]["line"] == 4 and "'Eventually' is not one" in rows[2]["error"]
    assert rows[3]["truth"] is False and rows[3]["agrees"] is False
    assert rows[4]["line"] == 6 and "'mtl'" in rows[4]["error"]


def test_cli_ask_and_generate(tmp_path: Path) -> None:
    facts = tmp_path / "facts.pl"
    facts.write_text(
        "begin('war', 1, 1, 1900).\nend('war', 1, 1, 1905).\nbegin('peace', 1, 1, 1906).\nend('peace', 1, 1, 1920).\n",
        encoding="utf-8",
    )
    res = runner.invoke(
        app, ["temporal", "ask", "Until[1, 3](Atom(war), Atom(peace)), 1903", "--facts", str(facts), "--json"]
    )
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["truth"] is True and data["intervals"] == [[1903, 1905]]  # peace must start within 3 years
    assert {e["key"] for e in data["events"]} == {"war", "peace"}
    res = runner.invoke(app, ["temporal", "ask", "Until[3, 1](Atom(war), Atom(peace)), 1903", "--facts", str(facts)])
    assert res.exit_code == 2 and "0 <= a <= b" in res.output
    out = tmp_path / "gen.jsonl"
    res = runner.invoke(
        app, ["temporal", "generate", "--n", "10", "--seed", "1", "--facts", str(facts), "--out", str(out), "--json"]
    )
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["answer"] == {"Yes": 5, "No": 5}
    assert len(out.read_text().splitlines()) == 10


def test_cli_kb_events_run_to_the_current_year_by_default(tmp_path: Path) -> None:
    kb = tmp_path / "kb.sqlite"
    store = KBStore(kb, create=True)
    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    for key in ("Ruritania", "Crown"):
        writer.entity(key)
    writer.triple("Ruritania", "has_currency", "Crown", domain="society", source="t", start_year=2025)
    writer.flush()
    store.close()
    year = date.today().year
    atom = "Atom(the currency of Ruritania being Crown)"
    res = runner.invoke(app, ["temporal", "ask", f"{atom}, {year}", "--kb", str(kb), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["truth"] is True and data["intervals"] == [[2025, year]] and "skipped" not in res.stderr
    res = runner.invoke(app, ["temporal", "ask", f"{atom}, 2025", "--kb", str(kb), "--horizon", "0", "2024", "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["truth"] is False and "starts in 2025, after its end 2024" in res.stderr


def test_an_mtl_claim_tries_every_reading_of_a_shared_event_name() -> None:
    from agents.verifier.kb.prove import temporal
    from drowzee_core.logic.events import Event
    from drowzee_core.records.enums import ProofStatus

    table = EventTable()
    table.add(Event("life:marie", "the lifetime of Curie", ((1867, 1934),), ()))
    table.add(Event("life:pierre", "the lifetime of Curie", ((1859, 1906),), ()))
    engine = TemporalEngine(table, (0, 2024))
    # 1860: Pierre was alive, Marie not yet born: "it held" is right under one reading
    held = temporal(engine, "Atom(the lifetime of Curie), 1860")
    assert held.status == ProofStatus.SUPPORTED and "2 readings" in held.note and "1 give this answer" in held.note
    assert held.proof is not None and held.proof.premises[0].text == "The lifetime of Curie holds in 1859-1906."
    # "it did not hold" is right under the other reading, so it is not refuted either
    assert temporal(engine, "Atom(the lifetime of Curie), 1860", negated=True).status == ProofStatus.SUPPORTED
    # 1850: neither was alive; both readings refute "it held"
    refuted = temporal(engine, "Atom(the lifetime of Curie), 1850")
    assert refuted.status == ProofStatus.CONTRADICTED and refuted.proof is not None
    assert refuted.proof.text.endswith("and 1850 is not among those years.")
    unknown = temporal(engine, "Conj(Atom(the lifetime of Curie), Atom(the reign of Nobody)), 1900")
    assert unknown.status == ProofStatus.UNKNOWN and not unknown.linked
