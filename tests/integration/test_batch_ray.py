"""`drowzee batch --engine ray`: the same records as the local engine, from a local Ray with two workers."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from cli.main import app
from drowzee_core.kb.model import Stats
from drowzee_core.records.provenance import read_sidecar

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROWS = [
    {"id": "a", "query": "When was Hirohito born?", "response": "Hirohito was born in 1886.", "label": "NON-FACTUAL"},
    {"id": "b", "query": "When was Hirohito born?", "response": "Hirohito was born in 1901.", "label": "FACTUAL"},
    {"id": "c", "query": "What is the year of birth of Hirohito?", "response": "1886.", "label": "NON-FACTUAL"},
    {"id": "d", "query": "", "response": "Zyx was born in 1949.", "ev": [["Zyx", "year of birth", "1950"]]},
    {"id": "e", "query": "Q"},
    {"id": "a", "query": "Q", "response": "a repeated id"},
]


def _core(out: Path) -> dict[int, Any]:
    recs = [json.loads(x) for x in out.read_text("utf-8").splitlines()]
    assert len({r["row"] for r in recs}) == len(recs)
    return {
        r["row"]: (r["id"], r.get("error"))
        if "error" in r
        else (r["id"], r["verdict"]["label"], [c["status"] for c in r["verdict"]["claims"]], r.get("expected"))
        for r in recs
    }


def test_ray_engine_writes_what_the_local_engine_writes(seed_kb: tuple[Path, Stats], tmp_path: Path) -> None:
    src = tmp_path / "in.jsonl"
    src.write_text("".join(json.dumps(r) + "\n" for r in ROWS), encoding="utf-8")
    base = ["batch", str(src), "--kb", str(seed_kb[0]), "--no-guardian", "--no-seeker", "--evidence-field", "ev"]
    local, ray = tmp_path / "local.jsonl", tmp_path / "ray.jsonl"
    res = CliRunner().invoke(app, [*base, "--out", str(local), "--no-cache"])
    assert res.exit_code == 1, res.output
    res = CliRunner().invoke(app, [*base, "--out", str(ray), "--engine", "ray", "--concurrency", "2", "--no-cache"])
    assert res.exit_code == 1, res.output
    assert _core(ray) == _core(local)
    assert _core(local)[1][1] == "NON-FACTUAL" and _core(local)[2][1] == "FACTUAL"
    assert "duplicate id 'a'" in str(_core(local)[6][1])
    meta = read_sidecar(ray)
    assert meta is not None and meta.params["engine"] == "ray"
    assert meta.counts["metrics"]["rows"] == 3 and meta.counts["calls"]["misses"].get("prove", 0) >= 4
