"""`drowzee models list | export`: what the ONNX export adds to the listing, and a clear error for a wrong name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from cli.main import app

runner = CliRunner()


def test_the_listing_says_whether_each_adapter_has_an_onnx_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path))  # an empty home: no export there yet
    res = runner.invoke(app, ["models", "list", "--json"])
    assert res.exit_code == 0, res.output
    adapters = [m for m in json.loads(res.stdout)["models"] if m["kind"] == "adapter"]
    assert adapters and all(m["onnx_export"] is None for m in adapters)
    text = runner.invoke(app, ["models", "list"])
    assert "ONNX export: none (`drowzee models export` makes it)" in text.output


def test_exporting_an_unknown_adapter_names_the_ones_there_are(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path))
    res = runner.invoke(app, ["models", "export", "nope"])
    assert res.exit_code == 2 and "no adapter named ['nope']; adapters: ['guardian']" in res.output
    assert not (tmp_path / "models" / "onnx").exists()
