from __future__ import annotations

import json
from pathlib import Path

import pytest

from drowzee_core.errors import CatalogError, LoadError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.loaders import load_csv, load_jsonl, load_wikidata_json
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.writer import KBWriter, relation_name_for


def _writer(auto: bool = True) -> KBWriter:
    return KBWriter(KBStore(":memory:", create=True), Catalog.from_toml(), auto_relations=auto)


def test_csv_bad_rows_are_reported_and_the_rest_load(tmp_path: Path) -> None:
    f = tmp_path / "t.csv"
    f.write_text(
        "subject,relation,object,start_year,end_year,negated\n"
        "Paris,located_in,France,,,\n"
        ",located_in,France,,,\n"
        "Lyon,located_in,France,1900,1800,\n"
        "Nice,located_in,France,abc,,\n"
        "Oslo,located_in,Norway,,,maybe\n"
        "Rome,located_in,Italy,,,true\n"
        "a,b,c,1,2,0,extra\n",
        encoding="utf-8",
    )
    w = _writer()
    report = load_csv(f, w)
    assert report.accepted == 2 and report.new_triples == 2
    reasons = {e.line: e.reason for e in report.errors}
    assert "missing or empty subject" in reasons[3]
    assert "after end year" in reasons[4]
    assert "integer year" in reasons[5]
    assert "negated must be" in reasons[6]
    assert "more fields" in reasons[8]
    assert w.store.stats().negative_facts == 1


def test_csv_without_required_header_fails_whole_file(tmp_path: Path) -> None:
    f = tmp_path / "t.csv"
    f.write_text("s,p,o\na,b,c\n", encoding="utf-8")
    with pytest.raises(LoadError, match="header must name subject"):
        load_csv(f, _writer())


def test_jsonl_reports_bad_json_and_non_objects(tmp_path: Path) -> None:
    f = tmp_path / "t.jsonl"
    f.write_text(
        '{"subject": "A", "relation": "Place of birth", "object": "B", "domain": "people"}\n'
        "{not json}\n[1, 2]\n\n"
        '{"subject": "C", "relation": "located_in", "object": "D", "start_year": 12000}\n',
        encoding="utf-8",
    )
    w = _writer()
    report = load_jsonl(f, w)
    assert report.accepted == 1
    assert [e.line for e in report.errors] == [2, 3, 5]
    assert "place_of_birth" in w.store.relation_ids()
    assert w.store.stats().domains == {"people": 1}


def test_unknown_relation_is_refused_without_auto_relations() -> None:
    w = _writer(auto=False)
    w.entity("a")
    with pytest.raises(CatalogError, match="unknown relation"):
        w.triple("a", "frobnicates", "a", domain="d", source="s")


@pytest.mark.parametrize(
    ("text", "name"),
    [("Place of birth", "place_of_birth"), ("  née  à ", "nee_a"), ("123", "rel_123"), ("!!!", "rel")],
)
def test_relation_names_for_loaded_data(text: str, name: str) -> None:
    assert relation_name_for(text) == name


def test_wikidata_sparql_json(tmp_path: Path) -> None:
    data = {
        "head": {"vars": ["item", "itemLabel", "value", "valueLabel", "start"]},
        "results": {
            "bindings": [
                {
                    "item": {"type": "uri", "value": "http://www.wikidata.org/entity/Q90"},
                    "itemLabel": {"type": "literal", "value": "Paris"},
                    "value": {"type": "uri", "value": "http://www.wikidata.org/entity/Q142"},
                    "valueLabel": {"type": "literal", "value": "France"},
                    "start": {"type": "literal", "value": "0508-01-01T00:00:00Z"},
                },
                {"item": {"type": "uri", "value": "http://www.wikidata.org/entity/Q64"}},
            ]
        },
    }
    f = tmp_path / "w.json"
    f.write_text(json.dumps(data), encoding="utf-8")
    w = _writer()
    report = load_wikidata_json(f, w, relation="capital_of")
    assert report.accepted == 1 and len(report.errors) == 1 and report.errors[0].line == 2
    assert w.store.resolve("Paris") == [w.store.entity_ids()["wd:Q90"]]
    assert w.store.stats().temporal_facts == 1


def test_wikidata_needs_a_relation(tmp_path: Path) -> None:
    f = tmp_path / "w.json"
    f.write_text(json.dumps({"head": {"vars": ["s", "o"]}, "results": {"bindings": []}}), encoding="utf-8")
    with pytest.raises(LoadError, match="--relation"):
        load_wikidata_json(f, _writer())
