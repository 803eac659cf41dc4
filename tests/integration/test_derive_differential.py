"""Derivation against the recorded engine: the same facts and the same proofs on a seeded KB (issue 36).

`tests/data/derive_golden.json.gz` was written by the engine before derivation was rewritten
(`tests/derive_kb.py`); the KB is rebuilt from its seed, derived again and compared: the counts
and facts of every materialized family, every fact that holds at any level, and the status and
proof of every derived fact and of 900 seeded queries.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from tests.derive_kb import derive, kb_rows, queries, relation_ids

pytestmark = pytest.mark.integration

GOLDEN = Path(__file__).parents[1] / "data" / "derive_golden.json.gz"


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    with gzip.open(GOLDEN, "rt", encoding="utf-8") as f:
        body: dict[str, Any] = json.load(f)
    return body


def test_the_same_facts_and_proofs_as_the_recorded_engine(golden: dict[str, Any]) -> None:
    catalog, rid = relation_ids()
    rows = kb_rows(rid)
    assert len(rows) == golden["rows"]
    engine, derived = derive(catalog, rid, rows)
    assert derived["counts"] == golden["counts"]
    for family, facts in golden["facts"].items():
        assert [list(f) for f in derived["facts"][family]] == facts, family
    assert derived["holds"] == golden["holds"]
    asked = queries(rows, derived["facts"])
    assert [list(q) for q in asked] == [p[0] for p in golden["proofs"]]
    differ = []
    for q, (_, status, proof) in zip(asked, golden["proofs"], strict=True):
        res = engine.prove(*q)
        if (str(res.status), res.proof) != (status, proof):
            differ.append(q)
    assert not differ, f"{len(differ)} of {len(asked)} proofs differ, e.g. {differ[:3]}"


def test_running_out_of_table_space_says_which_setting_to_raise() -> None:
    from drowzee_core.errors import LogicError
    from drowzee_core.logic import session

    limit = session.call("current_prolog_flag(table_space, B)")["B"]
    catalog, rid = relation_ids()
    try:
        session.call("set_prolog_flag(table_space, B)", {"B": 200_000})
        with pytest.raises(LogicError, match=r"ran out of \w*table_space.*set DROWZEE_PROLOG_TABLE_SPACE_GB higher"):
            derive(catalog, rid, kb_rows(rid))
    finally:
        session.call("set_prolog_flag(table_space, B)", {"B": limit})
