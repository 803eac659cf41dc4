"""User relation declarations: checked whole, merged into a KB's catalog, kept by later loads."""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from pathlib import Path

import pytest

from drowzee_core.errors import CatalogError
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.declarations import (
    META_BASE,
    META_DECLARED,
    USER_BASE,
    Declarations,
    declared_catalog,
    logic_of,
    parse_declarations,
    read_declarations,
)
from drowzee_core.kb.loaders.tabular import load_csv
from drowzee_core.kb.loading import finish_load, writer_for_load
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.store import KBStore

GUILDS = """
[[relation]]
name = "apprenticed_to"
label = "apprenticed to"
category = "passive_verb"
functional = true
inverse_of = "master_of"
positive = "{s} is apprenticed to {o}."
negative = "{s} is not apprenticed to {o}."
question = "Is {s} apprenticed to {o}?"
phrase = "the master of {s}"

[[relation]]
name = "master_of"
label = "master of"
category = "noun_phrase"
inverse_of = "apprenticed_to"
positive = "{s} is the master of {o}."
negative = "{s} is not the master of {o}."
question = "Is {s} the master of {o}?"

[[relation]]
name = "chartered_in"
label = "chartered in"
category = "passive_verb"
functional = true
object_kind = "year"
positive = "{s} was chartered in {o}."
negative = "{s} was not chartered in {o}."
question = "Was {s} chartered in {o}?"
"""

CSV = """subject,relation,object
Wren Tallow,apprenticed_to,Odo Marsh
Candlers Guild,chartered_in,1402
Odo Marsh,located_in,Port Sable
Candlers Guild,rivals,Weavers Guild
"""


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _load(store: KBStore, csv: Path, toml: Path | None) -> tuple[list[str], list[str], list[str]]:
    """(declared, undeclared, row errors) of one load, as `kb load` does it."""
    plan = writer_for_load(store, read_declarations(toml) if toml else None, Catalog.from_toml())
    report = load_csv(csv, plan.writer)
    finish_load(store, plan, report)
    return list(plan.declared), report.undeclared, [e.reason for e in report.errors]


def test_a_declared_kb_holds_its_relations_the_bundled_ones_it_uses_and_lists_the_undeclared(tmp_path: Path) -> None:
    store = KBStore(":memory:", create=True)
    declared, undeclared, errors = _load(store, _write(tmp_path, "kb.csv", CSV), _write(tmp_path, "r.toml", GUILDS))
    assert errors == []
    assert declared == ["apprenticed_to", "master_of", "chartered_in"]
    assert undeclared == ["rivals"]
    names = {r.name for r in store.catalog()}
    # located_in comes from the bundled catalog with the relation it names (its inverse); nothing else does
    assert names == {"apprenticed_to", "master_of", "chartered_in", "located_in", "contains", "rivals"}
    meta = store.meta()
    assert meta[META_BASE] == USER_BASE
    assert json.loads(meta[META_DECLARED]) == declared
    year = store.entity(store.resolve("1402")[0])
    assert year.kind == ValueKind.YEAR


def test_later_loads_keep_the_declarations(tmp_path: Path) -> None:
    store = KBStore(":memory:", create=True)
    _load(store, _write(tmp_path, "kb.csv", CSV), _write(tmp_path, "r.toml", GUILDS))
    more = _write(tmp_path, "more.csv", "subject,relation,object\nPip Ash,apprenticed_to,Odo Marsh\n")
    _load(store, more, None)
    spec = store.catalog().get("apprenticed_to")
    assert spec.functional and spec.inverse_of == "master_of"
    assert json.loads(store.meta()[META_DECLARED]) == ["apprenticed_to", "master_of", "chartered_in"]


def test_text_in_a_year_column_is_a_row_error_and_the_rest_loads(tmp_path: Path) -> None:
    store = KBStore(":memory:", create=True)
    bad = _write(
        tmp_path, "bad.csv", "subject,relation,object\nA Guild,chartered_in,long ago\nB Guild,chartered_in,1350\n"
    )
    _, _, errors = _load(store, bad, _write(tmp_path, "r.toml", GUILDS))
    assert errors == ["relation 'chartered_in' takes a year (object_kind = year); got 'long ago'"]
    assert store.stats().triples == 1


@pytest.mark.parametrize(
    ("edit", "message"),
    [
        (
            lambda t: t.replace('positive = "{s} was chartered', 'positve = "{s} was chartered'),
            "unknown key 'positve'; did you mean 'positive'",
        ),
        (lambda t: t.replace('inverse_of = "apprenticed_to"\n', ""), None),
        (
            lambda t: t.replace('inverse_of = "master_of"', 'inverse_of = "teacher_of"'),
            "key 'inverse_of' names 'teacher_of'",
        ),
        (
            lambda t: t.replace('functional = true\nobject_kind = "year"', 'object_kind = "year"\ntransitive = true'),
            "key 'transitive' relates two things",
        ),
        (
            lambda t: t.replace(
                'functional = true\ninverse_of = "master_of"',
                'functional = true\nsymmetric = true\ninverse_of = "master_of"',
            ),
            "symmetric and functional together",
        ),
        (lambda t: t + t[t.index('[[relation]]\nname = "chartered_in"') :], "'chartered_in' is declared twice"),
        (lambda t: t.replace("[[relation]]", "[[relaton]]", 1), "unknown table 'relaton'"),
        (lambda t: t.replace('label = "master of"', 'label = "master of'), "not valid TOML"),
    ],
)
def test_a_bad_declaration_names_file_relation_and_key_and_loads_nothing(
    tmp_path: Path, edit: Callable[[str], str], message: str | None
) -> None:
    store = KBStore(":memory:", create=True)
    _load(store, _write(tmp_path, "kb.csv", "subject,relation,object\nX,knows,Y\n"), None)
    before = (store.stats().triples, sorted(r.name for r in store.catalog()))
    toml = _write(tmp_path, "bad.toml", edit(GUILDS))
    if message is None:  # a one-sided inverse is completed from the other side's declaration: no error
        _load(store, _write(tmp_path, "kb.csv", CSV), toml)
        assert ("apprenticed_to", "master_of") in store.catalog().inverse_pairs()
        return
    with pytest.raises(CatalogError) as err:
        _load(store, _write(tmp_path, "kb.csv", CSV), toml)
    assert str(toml) in str(err.value) and message in str(err.value)
    assert (store.stats().triples, sorted(r.name for r in store.catalog())) == before


def test_a_relation_with_stored_facts_keeps_its_object_kind(tmp_path: Path) -> None:
    store = KBStore(":memory:", create=True)
    _load(store, _write(tmp_path, "kb.csv", "subject,relation,object\nCandlers Guild,chartered_in,1402\n"), None)
    with pytest.raises(CatalogError, match="holds 1 facts of it stored as 'entity' values"):
        _load(store, _write(tmp_path, "none.csv", "subject,relation,object\n"), _write(tmp_path, "r.toml", GUILDS))
    assert store.stats().triples == 1


def test_declarations_extend_a_kb_built_from_the_bundled_catalog() -> None:
    base = Catalog.from_toml()
    declared = read_declarations_text(GUILDS)
    merged = declared_catalog(base, declared, base)
    assert len(merged) == len(base) + 3 and merged.get("chartered_in").object_kind == ValueKind.YEAR


def test_logic_in_words() -> None:
    declared = read_declarations_text(GUILDS)
    specs = {r.name: r for r in declared.relations}
    assert logic_of(specs["apprenticed_to"]) == "functional, inverse of master_of"
    assert logic_of(specs["chartered_in"]) == "functional, year values"
    assert logic_of(Catalog.from_toml().get("shares_border_with")) == "symmetric, irreflexive, complete"


def read_declarations_text(text: str) -> Declarations:
    return parse_declarations(tomllib.loads(text), "test.toml")
