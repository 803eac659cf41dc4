from pathlib import Path

import pytest
from langchain_core.language_models import FakeListChatModel

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.roles import LOCAL_BASE_URL, RoleError, load_role
from drowzee_core.llm.runner import AnswerCache, run_cases
from drowzee_core.records.provenance import provenance, read_sidecar


def test_role_precedence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "roles.toml"
    cfg.write_text('[target]\nbase_url = "http://file:1/v1"\nmodel = "from-file"\ntemperature = 0.5\n')
    monkeypatch.setenv("DROWZEE_TARGET_MODEL", "from-env")
    role = load_role("target", {"max_tokens": 12}, cfg)
    assert (role.base_url, role.model, role.temperature, role.max_tokens) == ("http://file:1/v1", "from-env", 0.5, 12)
    assert load_role("target", {"model": "explicit"}, cfg).model == "explicit"
    monkeypatch.delenv("DROWZEE_TARGET_MODEL")
    monkeypatch.setenv("DROWZEE_ROLES", str(tmp_path / "absent.toml"))
    with pytest.raises(RoleError, match="does not exist"):
        load_role("target")
    monkeypatch.delenv("DROWZEE_ROLES")
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path))
    assert load_role("guardian").base_url == LOCAL_BASE_URL


def test_role_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path))
    with pytest.raises(RoleError, match="unknown role"):
        load_role("oracle")
    with pytest.raises(RoleError, match="base_url"):
        load_role("target", {"base_url": "ftp://x"})
    monkeypatch.setenv("DROWZEE_SEEKER_TEMPERATURE", "hot")
    with pytest.raises(RoleError, match="temperature"):
        load_role("seeker")
    bad = tmp_path / "r.toml"
    bad.write_text("[oracle]\nmodel='x'\n")
    with pytest.raises(RoleError, match="unknown roles"):
        load_role("target", config=bad)


META = provenance("run-llm")


def test_runner_caches_and_resumes(tmp_path: Path) -> None:
    cases = [{"id": f"c{i}", "prompt": f"Question {i}?"} for i in range(5)]
    cache = AnswerCache(tmp_path / "c.sqlite")
    out = tmp_path / "a.jsonl"
    model = FakeListChatModel(responses=["Yes.", "No.", "I don't know."])
    first = run_cases(cases[:3], model, "m", "fake", cache, out, META)
    assert (first.called, first.cached) == (3, 0)
    # the second run answers only the two new cases; a model that would answer differently is not asked again
    second = run_cases(cases, FakeListChatModel(responses=["No, because.", "Yes."]), "m", "fake", cache, out, META)
    assert (second.called, second.cached) == (2, 3)
    lines = out.read_text().splitlines()
    assert len(lines) == 5 and '"llm_answer": "Yes."' in lines[0] and '"llm_answer": "Yes."' in lines[4]
    side = read_sidecar(out)
    assert side is not None and side.producer == "run-llm" and side.counts["rows"] == 5
    with pytest.raises(DrowzeeError, match="twice"):
        run_cases([cases[0], cases[0]], FakeListChatModel(responses=["x"]), "m", "fake", cache, out, META)
    with pytest.raises(DrowzeeError, match="prompt"):
        run_cases([{"id": "x"}], FakeListChatModel(responses=["x"]), "m", "fake", cache, out, META)


def test_llm_extractor_parses_structured_output() -> None:
    from drowzee_core.llm.extractor import ExtractionError, LLMExtractor
    from drowzee_core.records.triple import Triple

    reply = (
        'Here you go:\n```json\n{"triples": [{"subject": "Paris", "predicate": "capital of", '
        '"object": "France"}, {"subject": "Paris", "predicate": "capital of", "object": "France"}]}\n```'
    )
    fake = FakeListChatModel(
        responses=[reply, "Paris is nice.", '{"triples": [{"subject": "", "predicate": "x", "object": "y"}]}']
    )
    ex = LLMExtractor(fake)
    assert ex.triples("Paris is the capital of France.") == [Triple("Paris", "capital of", "France")]
    with pytest.raises(ExtractionError, match="not the triples JSON"):
        ex.triples("Paris is nice.")
    with pytest.raises(ExtractionError):  # schema checked: empty subject
        ex.triples("x")
    assert ex.triples("   ") == []  # nothing asked for empty text
