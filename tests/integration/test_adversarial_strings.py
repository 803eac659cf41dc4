"""KB strings are data, never code: hostile names round-trip exactly through load, derive, prove."""

from __future__ import annotations

import csv
import itertools
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.loaders import load_csv, load_jsonl
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.writer import KBWriter
from drowzee_core.logic.reasoner import Reasoner

pytestmark = pytest.mark.integration

SENTINEL = Path("/tmp/drowzee-adversarial-sentinel")
NASTY = [
    "'",
    '"',
    "\\",
    "'), halt, ('",
    ":- halt.",
    "halt.",
    "shell('touch /tmp/drowzee-adversarial-sentinel')",
    ":- initialization(shell('touch /tmp/drowzee-adversarial-sentinel')).",
    "a\nb",
    "\r\n",
    "\t",
    "\x01\x02\x1b[31m",
    "0'a",
    "[]",
    "{}",
    "X",
    "_",
    "f(X)",
    "end_of_file",
    "% comment",
    "/* c */",
    "é",
    "名字",
    "🦉",
    "\u202e",
    "\u200b",
    "\ufeff",
    "a'b\"c\\d",
    "'\\''",
    "0x1F",
    "1.0e10",
    "-",
    "|",
]
ADVERSARIAL = st.one_of(
    st.sampled_from(NASTY),
    st.builds(lambda a, b, c: a + b + c, st.sampled_from(NASTY), st.text(max_size=8), st.sampled_from(NASTY)),
    st.text(min_size=1, max_size=30),
).filter(lambda s: "\x00" not in s and s.strip() != "")

BATCH = 200
EXAMPLES = 52  # 52 x 200 = 10,400 distinct strings per run


def test_adversarial_strings_round_trip_through_load_derive_prove(tmp_path: Path) -> None:
    SENTINEL.unlink(missing_ok=True)
    counted: list[int] = []

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        derandomize=True,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much],
    )
    @given(st.lists(ADVERSARIAL, min_size=BATCH, max_size=BATCH, unique=True))
    def check(names: list[str]) -> None:
        store = KBStore(":memory:", create=True)
        writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
        # chain n0 located_in n1 located_in ... ; a hostile relation name too
        for a, b in itertools.pairwise(names):
            writer.triple(writer.entity(a), "located_in", writer.entity(b), domain="test", source="t")
        writer.triple(names[0], names[1][:50], names[2], domain="test", source="t")
        writer.flush()
        reasoner = Reasoner(store)
        runs = {str(r.family): r.facts for r in reasoner.derive()}
        n = len(names)
        assert runs["transitive"] == (n - 1) * (n - 2) // 2
        verdict = reasoner.prove(names[0], "located_in", names[-1])
        assert verdict.status == "supported"
        path = verdict.proof["premises"]  # type: ignore[index]
        assert [p["fact"][0] for p in path] + [path[-1]["fact"][2]] == names  # exact round trip
        assert reasoner.prove(names[-1], "contains", names[0]).status == "supported"
        assert reasoner.prove(names[-1], "located_in", names[0]).status == "unknown"
        counted.append(n)

    check()
    assert sum(counted) >= 10_000
    assert not SENTINEL.exists(), "a KB string was executed as Prolog"


def test_hostile_strings_through_csv_and_jsonl_files(tmp_path: Path) -> None:
    names = [s for s in NASTY if s.strip()]
    f = tmp_path / "t.csv"
    with f.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["subject", "relation", "object"])
        w.writerows([a, "located_in", b] for a, b in itertools.pairwise(names))
    store = KBStore(":memory:", create=True)
    report = load_csv(f, KBWriter(store, Catalog.from_toml(), auto_relations=True))
    assert report.accepted == len(names) - 1 and not report.errors
    labels = set(store.labels(store.entity_ids().values()).values())
    assert set(names) <= labels
    j = tmp_path / "t.jsonl"
    import json

    j.write_text(
        "".join(
            json.dumps({"subject": a, "relation": "is_a", "object": b}) + "\n" for a, b in itertools.pairwise(names)
        ),
        encoding="utf-8",
    )
    assert load_jsonl(j, KBWriter(store, Catalog.from_toml(), auto_relations=True)).accepted == len(names) - 1
    r = Reasoner(store)
    assert r.prove(names[0], "is_a", names[-1]).status == "supported"
    assert not SENTINEL.exists()


def test_nul_and_empty_names_are_rejected_with_a_reason(tmp_path: Path) -> None:
    f = tmp_path / "t.jsonl"
    f.write_text(
        '{"subject": "a\\u0000b", "relation": "is_a", "object": "c"}\n'
        '{"subject": "   ", "relation": "is_a", "object": "c"}\n',
        encoding="utf-8",
    )
    report = load_jsonl(f, KBWriter(KBStore(":memory:", create=True), Catalog.from_toml(), auto_relations=True))
    assert report.accepted == 0
    assert "NUL" in report.errors[0].reason and "missing or empty subject" in report.errors[1].reason
