from pathlib import Path

import pytest
from langchain_core.language_models import FakeListChatModel

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.roles import LOCAL_BASE_URL, RoleError, load_role
from drowzee_core.llm.runner import AnswerCache, CacheIdentity, client_identity, role_identity, run_cases
from drowzee_core.records.provenance import provenance

META = provenance("run-llm", {"test": True})


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


ID = CacheIdentity(endpoint="fake", model="m", params={})


def test_runner_caches_and_resumes(tmp_path: Path) -> None:
    cases = [{"id": f"c{i}", "prompt": f"Question {i}?"} for i in range(5)]
    cache = AnswerCache(tmp_path / "c.sqlite")
    out = tmp_path / "a.jsonl"
    first = run_cases(
        cases[:3], FakeListChatModel(responses=["Yes.", "No.", "I don't know."]), ID, "fake", cache, out, META
    )
    assert (first.called, first.cached) == (3, 0)
    # the second run answers only the two new cases; a model that would answer differently is not asked again
    second = run_cases(cases, FakeListChatModel(responses=["No, because.", "Yes."]), ID, "fake", cache, out, META)
    assert (second.called, second.cached) == (2, 3)
    lines = out.read_text().splitlines()
    assert len(lines) == 5 and '"llm_answer": "Yes."' in lines[0] and '"llm_answer": "Yes."' in lines[4]
    with pytest.raises(DrowzeeError, match="twice"):
        run_cases([cases[0], cases[0]], FakeListChatModel(responses=["x"]), ID, "fake", cache, out, META)
    with pytest.raises(DrowzeeError, match="prompt"):
        run_cases([{"id": "x"}], FakeListChatModel(responses=["x"]), ID, "fake", cache, out, META)


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


def _adapter(folder: Path, weights: bytes) -> Path:
    folder.mkdir(parents=True)
    (folder / "adapter_config.json").write_text("{}")
    (folder / "manifest.json").write_text('{"name": "guardian", "base_model": "smollm2-135m"}')
    (folder / "adapter_model.safetensors").write_bytes(weights)
    return folder


def test_retrained_adapter_is_not_answered_from_the_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path / "home"))
    cfg = load_role("guardian", {"model": "guardian", "max_tokens": 16})
    client = FakeListChatModel(responses=["FACTUAL."])
    cases = [{"id": "c0", "prompt": "Is it?"}]
    cache, out = AnswerCache(tmp_path / "c.sqlite"), tmp_path / "a.jsonl"
    old = role_identity(cfg, client, adapter=_adapter(tmp_path / "old", b"weights v1"))
    new = role_identity(cfg, client, adapter=_adapter(tmp_path / "new", b"weights v2"))
    assert old.weights_sha256 and old.weights_sha256 != new.weights_sha256
    assert old.endpoint == new.endpoint == LOCAL_BASE_URL  # a private server's random port is not part of it
    assert run_cases(cases, client, old, "guardian", cache, out, META).called == 1
    assert run_cases(cases, client, old, "guardian", cache, out, META).cached == 1
    again = run_cases(cases, FakeListChatModel(responses=["NON-FACTUAL."]), new, "guardian", cache, out, META)
    assert (again.called, again.cached) == (1, 0) and "NON-FACTUAL." in out.read_text()
    # an adapter the local server finds by name (home adapters) is hashed the same way
    _adapter(tmp_path / "home" / "adapters" / "g", b"weights v2")
    assert role_identity(cfg, client).weights_sha256 == new.weights_sha256
    assert role_identity(cfg.model_copy(update={"model": "smollm2-135m"}), client).weights_sha256 is None


def test_every_generation_parameter_is_in_the_key() -> None:
    from langchain_openai import ChatOpenAI

    def key(**kw: object) -> str:
        args = {"base_url": "http://x/v1", "model": "m", "api_key": "k", "temperature": 0.0} | kw
        client = ChatOpenAI(**args)  # type: ignore[arg-type]
        return client_identity(client, "http://x/v1", "m").key("prompt")

    base = key(max_completion_tokens=160, stop_sequences=["\n#"])
    variants = [
        key(max_completion_tokens=161, stop_sequences=["\n#"]),
        key(max_completion_tokens=160, stop_sequences=["\n###"]),
        key(max_completion_tokens=160),
        key(max_completion_tokens=160, stop_sequences=["\n#"], temperature=0.7),
        key(max_completion_tokens=160, stop_sequences=["\n#"], top_p=0.9),
        key(max_completion_tokens=160, stop_sequences=["\n#"], seed=3),
    ]
    assert base == key(max_completion_tokens=160, stop_sequences=["\n#"])  # stable
    assert len({base, *variants}) == 1 + len(variants)
    ident = CacheIdentity(endpoint="e", model="m", params={"temperature": 0.0})
    assert ident.key("p") != ident.model_copy(update={"model": "n"}).key("p") != ident.key("q")
