from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from drowzee_core.cli.main import app

pytestmark = pytest.mark.integration
runner = CliRunner()


@pytest.fixture()
def kb(tmp_path: Path) -> Path:
    data = tmp_path / "t.csv"
    data.write_text(
        "subject,relation,object,domain,start_year\n"
        "Paris,located_in,France,geography,\nFrance,located_in,Europe,geography,\n"
        "France,has_capital,Paris,geography,\nGermany,has_capital,Berlin,geography,\n"
        "Berlin,located_in,Germany,geography,1237\n,located_in,x,geography,\n",
        encoding="utf-8",
    )
    path = tmp_path / "kb.sqlite"
    res = runner.invoke(app, ["kb", "load", str(data), "--format", "csv", "--kb", str(path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["accepted"] == 5 and out["rejected"] == 1 and "t.csv:7" in out["errors"][0]
    return path


def test_stats_json_contract(kb: Path) -> None:
    res = runner.invoke(app, ["kb", "stats", "--kb", str(kb), "--json"])
    data = json.loads(res.stdout)
    assert {k: data[k] for k in ("triples", "entities", "relations", "temporal_facts")} == {
        "triples": 5,
        "entities": 5,
        "relations": 2,
        "temporal_facts": 1,
    }
    assert data["domains"] == {"geography": 5}


def test_derive_json(kb: Path) -> None:
    res = runner.invoke(app, ["derive", "--kb", str(kb), "--json"])
    assert res.exit_code == 0, res.output
    fam = json.loads(res.stdout)["families"]
    assert fam["transitive"]["facts"] == 1 and fam["negation"]["mode"] == "on_demand"
    assert all("seconds" in fam[f] for f in ("symmetric", "inverse", "transitive", "composite"))


@pytest.mark.parametrize(
    ("args", "status", "rule"),
    [
        (["Paris", "located_in", "Europe"], "supported", "transitive"),
        (["Berlin", "capital_of", "France"], "contradicted", "negation_functional"),
        (["Berlin", "located_in", "France"], "unknown", None),
    ],
)
def test_prove_json(kb: Path, args: list[str], status: str, rule: str | None) -> None:
    res = runner.invoke(app, ["prove", *args, "--kb", str(kb), "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["status"] == status
    assert (data["proof"] or {}).get("rule") == rule


def test_missing_kb_says_how_to_fix(tmp_path: Path) -> None:
    res = runner.invoke(app, ["kb", "stats", "--kb", str(tmp_path / "none.sqlite")])
    assert res.exit_code == 2
    assert "drowzee kb build" in res.output
