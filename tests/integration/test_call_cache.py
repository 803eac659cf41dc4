"""The call cache with the real verifier: seed KB and Prolog, the shipped judge, the Guardian on the local server."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

import pytest

from agents.verifier.accounting import RoleUsage
from agents.verifier.runner import Verifier
from agents.verifier.settings import VerifierSettings
from drowzee_core.kb.model import Stats
from drowzee_core.records.verdict import Verdict, VerifyRequest

pytestmark = [
    pytest.mark.integration,
    pytest.mark.slow,
    pytest.mark.filterwarnings("ignore:The function `load` is in beta"),
]

PAIRS = [
    VerifyRequest(id="a", query="When was Hirohito born?", response="Hirohito was born in 1886."),
    VerifyRequest(
        id="b", query="", response="Zyx Qwert was born in 1949.", evidence=[["Zyx Qwert", "year of birth", "1950"]]
    ),
]


def _timeless(v: Verdict) -> dict[str, Any]:
    return v.model_dump(mode="json", exclude={"provenance": {"timings"}})


def test_a_second_run_reads_every_call_from_the_cache(
    seed_kb: tuple[Path, Stats], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = VerifierSettings.load({"kb": seed_kb[0], "extractor": "templates", "cache_path": tmp_path / "c.sqlite"})
    with Verifier(settings) as v:
        first = [v.verify(p) for p in PAIRS]
        stats = v.call_stats()
    assert all(not f.degraded for f in first)
    guardian, judge = stats.roles["guardian"], stats.roles["judge"]
    assert guardian.calls == 2 and guardian.cache_hits == 0 and guardian.output_tokens == 2  # one label token each
    assert guardian.input_tokens > 50 and guardian.cost_usd == 0.0  # the local server reports usage
    assert judge.calls >= 2 and judge.input_tokens > 0 and judge.cache_hits == 0
    assert stats.misses == {"prove": 2} and stats.hits == {}
    assert first[0].provenance.roles["judge"].adapter_sha256  # the in-process judge's weights are named

    kb_check = importlib.import_module("agents.verifier.nodes.kb_check")

    def no_prover(*args: object) -> None:
        raise AssertionError("Prolog was asked on a cached pair")

    monkeypatch.setattr(kb_check, "check_claims", no_prover)
    with Verifier(settings) as v:
        second = [v.verify(p) for p in PAIRS]
        again = v.call_stats()
        assert "reasoner" not in v.services.__dict__  # the KB was never loaded into Prolog
        assert v.services.judge.inner._model is None  # type: ignore[attr-defined]  # nor the judge model
    assert [_timeless(s) for s in second] == [_timeless(f) for f in first]
    assert [Verdict.model_validate_json(s.model_dump_json()) for s in second] == second
    assert again.roles["guardian"] == RoleUsage(cache_hits=2)
    assert again.roles["judge"] == RoleUsage(cache_hits=judge.calls)
    assert again.hits == {"prove": 2} and again.misses == {}


def test_no_cache_reads_and_writes_nothing(seed_kb: tuple[Path, Stats], tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    explicit = {"kb": seed_kb[0], "extractor": "templates", "use_guardian": False, "cache": False, "cache_path": path}
    with Verifier(VerifierSettings.load(explicit)) as v:
        v.verify(PAIRS[0])
        v.verify(PAIRS[0])
        stats = v.call_stats()
    assert not path.exists()
    assert stats.misses == {"prove": 2} and stats.roles["judge"].cache_hits == 0
