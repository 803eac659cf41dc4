"""ERBench schema files: tables over CSV or SQLite, FDs with question templates, FKs (see `erbench`)."""

from __future__ import annotations

import csv
import sqlite3
import string
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from drowzee_core.errors import DrowzeeError

MAX_ROWS = 5_000_000


class TableSpec(BaseModel):
    """A table: where its rows come from and what its columns are called."""

    model_config = ConfigDict(extra="forbid")

    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]{0,63}$")
    csv: str | None = None
    sqlite: str | None = None
    source: str | None = Field(default=None, description="Table name inside the SQLite file.")
    columns: dict[str, str] = Field(min_length=1, description="Schema column -> source column.")
    integers: list[str] = Field(default_factory=list, description="Columns shown as integers (2009.0 -> 2009).")
    key: str | None = None

    @model_validator(mode="after")
    def _check(self) -> TableSpec:
        if (self.csv is None) == (self.sqlite is None):
            raise ValueError(f"table {self.name!r}: give exactly one of `csv` or `sqlite`")
        if self.sqlite is not None and not self.source:
            raise ValueError(f"table {self.name!r}: a SQLite table needs `source` (its table name)")
        for col in [*self.integers, *([self.key] if self.key else [])]:
            if col not in self.columns:
                raise ValueError(f"table {self.name!r}: {col!r} is not one of its columns {list(self.columns)}")
        return self


class FDSpec(BaseModel):
    """A functional dependency lhs -> rhs and the templates that ask about it."""

    model_config = ConfigDict(extra="forbid")

    table: str
    lhs: list[str] = Field(min_length=1)
    rhs: str
    basic: str
    negated: str
    statement: str


class FKSpec(BaseModel):
    """A foreign key `table.column` -> the key of `references`, with its multi-hop template."""

    model_config = ConfigDict(extra="forbid")

    table: str
    column: str
    references: str
    multi_hop: str


class Schema(BaseModel):
    """A whole schema file."""

    model_config = ConfigDict(extra="forbid")

    table: list[TableSpec] = Field(min_length=1)
    fd: list[FDSpec] = Field(min_length=1)
    fk: list[FKSpec] = Field(default_factory=list)

    @model_validator(mode="after")
    def _check(self) -> Schema:
        tables = {t.name: t for t in self.table}
        for fd in self.fd:
            t = tables.get(fd.table)
            if t is None:
                raise ValueError(f"fd on unknown table {fd.table!r}")
            for col in [*fd.lhs, fd.rhs]:
                if col not in t.columns:
                    raise ValueError(f"fd {fd.lhs} -> {fd.rhs}: {col!r} is not a column of {fd.table!r}")
            _check_template(fd.basic, t.columns, f"fd {fd.rhs} basic")
            _check_template(fd.negated, t.columns, f"fd {fd.rhs} negated")
            _check_template(fd.statement, t.columns, f"fd {fd.rhs} statement")
        for fk in self.fk:
            if fk.table not in tables or fk.references not in tables:
                raise ValueError(f"fk {fk.table}.{fk.column} -> {fk.references}: unknown table")
            if fk.column not in tables[fk.table].columns:
                raise ValueError(f"fk: {fk.column!r} is not a column of {fk.table!r}")
            if tables[fk.references].key is None:
                raise ValueError(f"fk target {fk.references!r} needs a `key` column")
        return self


def _check_template(text: str, columns: dict[str, str], where: str) -> None:
    for _lit, name, _spec, _conv in string.Formatter().parse(text):
        if name and name.split(".", 1)[0] not in columns:
            raise ValueError(f"{where}: template field {{{name}}} is not a column ({list(columns)})")


def load_schema(path: Path) -> Schema:
    """Read and validate a schema file."""
    try:
        raw = tomllib.loads(path.read_text("utf-8"))
        return Schema.model_validate(raw)
    except FileNotFoundError:
        raise DrowzeeError(f"{path}: no such schema file") from None
    except tomllib.TOMLDecodeError as exc:
        raise DrowzeeError(f"{path}: not valid TOML: {exc}") from exc
    except ValidationError as exc:
        raise DrowzeeError(f"{path}: {exc}") from exc


def _cell(value: Any, integer: bool) -> str:
    text = "" if value is None else str(value).strip()
    if integer and text:
        try:
            return str(int(float(text)))
        except ValueError:
            return text
    return text


def read_table(spec: TableSpec, base: Path) -> list[dict[str, str]]:
    """The rows of a table with schema column names; rows with an empty cell are skipped."""
    src = [spec.columns[c] for c in spec.columns]
    rows: list[dict[str, str]] = []
    if spec.csv is not None:
        path = base / spec.csv
        if not path.is_file():
            raise DrowzeeError(f"table {spec.name!r}: no such CSV file {path}; pass --data DIR")
        with path.open(newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in src if c not in (reader.fieldnames or [])]
            if missing:
                raise DrowzeeError(f"{path}: missing columns {missing}; it has {reader.fieldnames}")
            raw: list[dict[str, Any]] = list(reader)
    else:
        path = base / str(spec.sqlite)
        if not path.is_file():
            raise DrowzeeError(f"table {spec.name!r}: no such SQLite file {path}")
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            db.row_factory = sqlite3.Row
            names = {r[1] for r in db.execute("SELECT * FROM pragma_table_info(?)", (spec.source,))}
            missing = [c for c in src if c not in names]
            if not names or missing:
                raise DrowzeeError(f"{path}: table {spec.source!r} lacks columns {missing or src}")
            cols = ", ".join('"' + c.replace('"', '""') + '"' for c in src)
            table = '"' + str(spec.source).replace('"', '""') + '"'
            raw = [dict(r) for r in db.execute(f"SELECT {cols} FROM {table} LIMIT ?", (MAX_ROWS,))]
        finally:
            db.close()
    for r in raw[:MAX_ROWS]:
        row = {c: _cell(r[s], c in spec.integers) for c, s in spec.columns.items()}
        if all(row.values()):
            rows.append(row)
    return rows
