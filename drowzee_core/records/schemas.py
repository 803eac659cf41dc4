"""JSON Schemas of the public records, written to `docs/schemas/<name>.schema.json`.

`drowzee schemas export` writes them; `--check` (and a test) compares the checked-in files with
freshly generated ones, so a change to a record shows up as a stale schema.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from drowzee_core.records.cases import ERBenchQuestion, QACase, TemporalCase
from drowzee_core.records.judge import JudgeExample
from drowzee_core.records.judged import JudgedDrowzeeRow, JudgedERBenchRow, JudgedFactCHDRow
from drowzee_core.records.pair import QRPair
from drowzee_core.records.provenance import Provenance
from drowzee_core.records.verdict import Verdict, VerifyRequest

PUBLIC_RECORDS: dict[str, type[BaseModel]] = {
    "qa_case": QACase,
    "temporal_case": TemporalCase,
    "qr_pair": QRPair,
    "erbench_question": ERBenchQuestion,
    "judged_drowzee": JudgedDrowzeeRow,
    "judged_erbench": JudgedERBenchRow,
    "judged_factchd": JudgedFactCHDRow,
    "verify_request": VerifyRequest,
    "verdict": Verdict,
    "provenance": Provenance,
    "judge_example": JudgeExample,
}
"""Schema name -> record; the file is `<name>.schema.json`."""

DEFAULT_DIR = Path(__file__).resolve().parents[2] / "docs" / "schemas"
"""`docs/schemas/` of the checkout."""


def schema_of(model: type[BaseModel]) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of `model` as written, with the `$schema` key first."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema"} | model.model_json_schema(by_alias=True)


def render(name: str) -> str:
    """The text of `<name>.schema.json`: two-space indented JSON and a final newline."""
    return json.dumps(schema_of(PUBLIC_RECORDS[name]), indent=2, ensure_ascii=False) + "\n"


def export(out: Path = DEFAULT_DIR) -> list[Path]:
    """Write every public record's schema under `out`; returns the paths written."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for name in PUBLIC_RECORDS:
        path = out / f"{name}.schema.json"
        path.write_text(render(name), encoding="utf-8")
        paths.append(path)
    return paths


def stale(out: Path = DEFAULT_DIR) -> list[str]:
    """Names whose file under `out` is missing or differs from the freshly generated schema."""
    return [
        name
        for name in PUBLIC_RECORDS
        if not (path := out / f"{name}.schema.json").is_file() or path.read_text(encoding="utf-8") != render(name)
    ]


__all__ = ["DEFAULT_DIR", "PUBLIC_RECORDS", "export", "render", "schema_of", "stale"]
