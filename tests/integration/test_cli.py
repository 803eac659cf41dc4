from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app
from drowzee_core.kb.store import KBStore
from drowzee_core.records.provenance import Provenance, file_sha256, provenance, read_sidecar, write_sidecar

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
    assert json.loads(res.stdout)["partition_conflicts"] == []
    text = runner.invoke(app, ["derive", "--kb", str(kb)])
    assert text.exit_code == 0 and "partition conflicts: none" in text.output, text.output


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


# ---------------------------------------------------------------- provenance sidecars of every writing command


def sidecar(out: Path, producer: str) -> Provenance:
    """The validated sidecar of `out`, checked to name `producer` (and, for JSONL, the row count)."""
    rec = read_sidecar(out)
    assert rec is not None, f"{out} has no sidecar"
    assert rec.producer == producer and rec.packages and rec.created
    if out.is_file() and out.suffix == ".jsonl":
        assert rec.counts["rows"] == len(out.read_text("utf-8").splitlines())
    return rec


def fingerprint(kb: Path) -> str:
    with KBStore(kb) as store:
        return store.fingerprint()


def test_kb_load_sidecar_keeps_history(kb: Path, tmp_path: Path) -> None:
    first = sidecar(kb, "kb.load")
    assert first.kb_fingerprint == fingerprint(kb) and first.counts["accepted"] == 5 and not first.history
    assert list(first.inputs.values()) == [file_sha256(tmp_path / "t.csv")] and first.params["format"] == "csv"
    more = tmp_path / "more.jsonl"
    more.write_text('{"subject": "Lyon", "relation": "located_in", "object": "France"}\n', encoding="utf-8")
    res = runner.invoke(app, ["kb", "load", str(more), "--format", "jsonl", "--kb", str(kb)])
    assert res.exit_code == 0, res.output
    second = sidecar(kb, "kb.load")
    assert second.kb_fingerprint == fingerprint(kb) != first.kb_fingerprint
    assert [h.inputs for h in second.history] == [first.inputs] and str(more) in second.inputs


def test_kb_build_sidecar(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from drowzee_core.kb import sources

    small = tuple(s for s in sources.SOURCES if s.name.startswith("curated"))
    monkeypatch.setattr(sources, "SOURCES", small)
    out = tmp_path / "seed.sqlite"
    res = runner.invoke(app, ["kb", "build", "--kb", str(out), "--json"])
    assert res.exit_code == 0, res.output
    rec = sidecar(out, "kb.build")
    assert rec.params["sources"] == [s.name for s in small] and rec.kb_fingerprint == fingerprint(out)
    assert rec.counts["triples"] == json.loads(res.stdout)["triples"] > 0


def test_generate_drowzee_qa_then_run_llm_then_score_carry_provenance(
    kb: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from langchain_core.language_models import FakeListChatModel

    cases = tmp_path / "qa.jsonl"
    res = runner.invoke(
        app, ["generate", "drowzee-qa", "--n", "3", "--seed", "5", "--out", str(cases), "--kb", str(kb), "--json"]
    )
    assert res.exit_code == 0, res.output
    rec = sidecar(cases, "generate.drowzee-qa")
    assert rec.seed == 5 and rec.params["n"] == 3 and rec.kb_fingerprint == fingerprint(kb)
    assert rec.counts["answer"] == json.loads(res.stdout)["answer"]

    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr("drowzee_core.llm.roles.chat_model", lambda cfg: FakeListChatModel(responses=["Yes."] * 3))
    answers = tmp_path / "answers.jsonl"
    res = runner.invoke(app, ["run-llm", "--cases", str(cases), "--out", str(answers), "--model", "fake-1"])
    assert res.exit_code == 0, res.output
    rec = sidecar(answers, "run-llm")
    assert rec.kb_fingerprint == fingerprint(kb) and rec.inputs == {str(cases): file_sha256(cases)}
    assert rec.params["resolved_role"]["model"] == "fake-1" and "api_key" not in rec.params["resolved_role"]
    assert rec.counts["called"] == 3


def test_generate_temporal_and_temporal_commands_sidecars(tmp_path: Path) -> None:
    facts = tmp_path / "facts.pl"
    facts.write_text(
        "begin('war', 1, 1, 1900).\nend('war', 1, 1, 1905).\nbegin('peace', 1, 1, 1906).\nend('peace', 1, 1, 1920).\n",
        encoding="utf-8",
    )
    for args, producer in (
        (["generate", "temporal", "--max-depth", "1"], "generate.temporal"),
        (["temporal", "generate"], "temporal.generate"),
    ):
        out = tmp_path / f"{producer}.jsonl"
        res = runner.invoke(app, [*args, "--n", "4", "--seed", "2", "--facts", str(facts), "--out", str(out)])
        assert res.exit_code == 0, res.output
        rec = sidecar(out, producer)
        assert rec.seed == 2 and rec.kb_fingerprint is None and rec.inputs == {str(facts): file_sha256(facts)}
    queries = tmp_path / "q.jsonl"
    queries.write_text('{"mtl": "Finally[0, 2](Atom(peace)), 1904"}\n', encoding="utf-8")
    out = tmp_path / "checked.jsonl"
    res = runner.invoke(app, ["temporal", "check", "--queries", str(queries), "--facts", str(facts), "--out", str(out)])
    assert res.exit_code == 0, res.output
    rec = sidecar(out, "temporal.check")
    assert rec.counts["true"] == 1 and set(rec.inputs) == {str(queries), str(facts)}


def test_generate_erbench_sidecar_names_schema_and_tables(tmp_path: Path) -> None:
    (tmp_path / "m.csv").write_text(
        "title,year,director\n" + "".join(f"Film {i},{1990 + i},Director {i % 4}\n" for i in range(12)),
        encoding="utf-8",
    )
    schema = tmp_path / "s.toml"
    schema.write_text(
        '[[table]]\nname = "movie"\ncsv = "m.csv"\n'
        'columns = { title = "title", year = "year", director = "director" }\nkey = "title"\n\n'
        '[[fd]]\ntable = "movie"\nlhs = ["director", "year"]\nrhs = "title"\n'
        'basic = "Did {director} direct a movie released in {year}?"\n'
        'negated = "Is it true that {director} directed no movie released in {year}?"\n'
        'statement = "{director} directed {title}, released in {year}."\n',
        encoding="utf-8",
    )
    out = tmp_path / "er.jsonl"
    args = ["generate", "erbench", "--n", "4", "--schema", str(schema), "--rules", "binary", "--rules", "negated"]
    res = runner.invoke(app, [*args, "--out", str(out)])
    assert res.exit_code == 0, res.output
    rec = sidecar(out, "generate.erbench")
    assert set(rec.inputs) == {str(schema), str(tmp_path / "m.csv")} and rec.params["rules"] == ["binary", "negated"]
    assert rec.counts["rows"] == 4 == sum(rec.counts["question_type"].values())
    assert rec.counts["generator"]["rows"] == {"movie": 12}


def test_score_and_report_sidecars(tmp_path: Path) -> None:
    pairs = tmp_path / "pairs.jsonl"
    pairs.write_text(
        json.dumps({"label": "FACTUAL", "reason": "FACTUAL. Paris is in France.", "prediction": "FACTUAL. Yes."})
        + "\n",
        encoding="utf-8",
    )
    write_sidecar(pairs, provenance("generate.factchd", kb_fingerprint="feedfacefeedface"))
    out = tmp_path / "judged.jsonl"
    res = runner.invoke(app, ["score", "factchd", str(pairs), "--out", str(out)])
    assert res.exit_code == 0, res.output
    rec = sidecar(out, "score.factchd")
    assert rec.kb_fingerprint == "feedfacefeedface" and rec.inputs == {str(pairs): file_sha256(pairs)}
    res = runner.invoke(app, ["score", "nope", str(pairs)])
    assert res.exit_code == 2 and "known: drowzee, erbench, factchd" in res.output

    scored = tmp_path / "scored.jsonl"
    row = {"question": "q", "answer": "Yes", "llm_answer": "Yes.", "parsed_answer": "yes", "answer_correct": True}
    scored.write_text(
        "".join(
            json.dumps(row | {"class": c, "model": "m", "domain": "geography", "rule": "inverse"}) + "\n"
            for c in ("CO", "EK")
        ),
        encoding="utf-8",
    )
    folder = tmp_path / "report"
    res = runner.invoke(app, ["report", str(scored), "--out", str(folder)])
    assert res.exit_code == 0, res.output
    rec = sidecar(folder, "report")
    assert (folder / "meta.json").is_file() and "report.md" in rec.counts["files"] and rec.counts["rows"] == 2
