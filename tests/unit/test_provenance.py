from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from drowzee_core.records.enums import Label
from drowzee_core.records.jsonl import counts, write_jsonl
from drowzee_core.records.provenance import (
    Provenance,
    file_sha256,
    input_files,
    provenance,
    read_sidecar,
    sidecar_path,
    upstream_fingerprint,
    write_sidecar,
)
from tests.conftest import make_store


def test_write_jsonl_writes_rows_and_sidecar_atomically(tmp_path: Path) -> None:
    out = tmp_path / "cases.jsonl"
    meta = provenance("generate.test", {"n": 2}, seed=7, counts={"label": {"x": 2}})
    assert write_jsonl([{"a": 1}, {"a": "é"}], out, meta) == 2
    assert [json.loads(x) for x in out.read_text("utf-8").splitlines()] == [{"a": 1}, {"a": "é"}]
    side = read_sidecar(out)
    assert side is not None and sidecar_path(out).name == "cases.jsonl.meta.json"
    assert (side.producer, side.params, side.seed) == ("generate.test", {"n": 2}, 7)
    assert side.counts == {"rows": 2, "label": {"x": 2}} and side.created >= meta.created
    assert oct(out.stat().st_mode & 0o777) == oct(sidecar_path(out).stat().st_mode & 0o777)

    def broken():  # type: ignore[no-untyped-def]
        yield {"a": 3}
        raise RuntimeError("generator failed")

    with pytest.raises(RuntimeError):
        write_jsonl(broken(), out, provenance("generate.other"))
    assert out.read_text("utf-8").count("\n") == 2  # the earlier file and its sidecar are intact
    assert read_sidecar(out).producer == "generate.test"  # type: ignore[union-attr]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cases.jsonl", "cases.jsonl.meta.json"]


def test_write_jsonl_dumps_pydantic_records_and_counts_them(tmp_path: Path) -> None:
    rec = provenance("x")
    out = tmp_path / "r.jsonl"
    write_jsonl([rec], out, provenance("score.test"))
    row = json.loads(out.read_text("utf-8"))
    assert row["producer"] == "x" and isinstance(row["created"], str)
    assert counts([{"k": "x"}, {"k": None}, {"k": "x"}], ("k",)) == {"k": {"x": 2, "none": 1}}
    assert counts([rec, rec], ("producer", "seed")) == {"producer": {"x": 2}, "seed": {"none": 2}}
    assert counts([{"label": Label.FACTUAL}], ("label",)) == {"label": {"FACTUAL": 1}}


def test_sidecar_round_trip_validates_and_rejects_unknown_fields(tmp_path: Path) -> None:
    out = tmp_path / "f.jsonl"
    out.write_text("{}\n")
    rec = provenance("temporal.check", {"horizon": [0, 2024]}, kb_fingerprint="abc", inputs={"q": "0" * 64})
    path = write_sidecar(out, rec)
    data = json.loads(path.read_text())
    assert set(data) == set(Provenance.model_fields)
    assert Provenance.model_validate(data).params == {"horizon": [0, 2024]}
    with pytest.raises(ValueError, match="extra"):
        Provenance.model_validate(data | {"surprise": 1})
    assert read_sidecar(tmp_path / "none.jsonl") is None


def test_folder_sidecar_lives_inside(tmp_path: Path) -> None:
    folder = tmp_path / "report"
    folder.mkdir()
    assert sidecar_path(folder) == folder / "meta.json"
    write_sidecar(folder, provenance("report"))
    assert read_sidecar(folder).producer == "report"  # type: ignore[union-attr]


def test_inputs_hash_files_and_carry_the_kb_fingerprint(tmp_path: Path) -> None:
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    a.write_bytes(b"one\n")
    b.write_bytes(b"two\n")
    assert file_sha256(a) == hashlib.sha256(b"one\n").hexdigest()
    assert input_files([a, None, tmp_path / "missing", tmp_path]) == {str(a): hashlib.sha256(b"one\n").hexdigest()}
    assert upstream_fingerprint([a, b]) is None  # no sidecars
    write_sidecar(a, provenance("generate.x", kb_fingerprint="f1"))
    assert upstream_fingerprint([a, b]) == "f1"
    write_sidecar(b, provenance("generate.y", kb_fingerprint="f2"))
    assert upstream_fingerprint([a, b]) is None  # they disagree: record none rather than one of them


def test_provenance_records_code_and_packages() -> None:
    rec = provenance("p")
    assert rec.code_version is None or len(rec.code_version) == 40
    assert rec.packages["pydantic"] and "drowzee-triangulator" in rec.packages


def test_kb_fingerprint_follows_content_not_load_order() -> None:
    facts = [("Paris", "located_in", "France"), ("France", "located_in", "Europe")]
    one, two = make_store(facts), make_store(list(reversed(facts)))
    assert one.fingerprint() == two.fingerprint() and len(one.fingerprint()) == 16
    assert make_store(facts, negatives=[("Lyon", "located_in", "Spain")]).fingerprint() != one.fingerprint()
    assert make_store(facts[:1]).fingerprint() != one.fingerprint()
