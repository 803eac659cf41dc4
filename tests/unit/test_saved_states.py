"""Saved states a cold process reads instead of recomputing: KB fingerprints, the catalog lexicon, index passages.

Each must give what computing afresh gives, notice when what it was made from changed, and rebuild from
a damaged file rather than fail.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from drowzee_core.kb import fingerprints
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.fingerprints import content_fingerprint
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.writer import KBWriter
from drowzee_core.records.verdict import EvidenceSource
from drowzee_core.retrieval.corpus import LazyPassages
from drowzee_core.retrieval.documents import Passage


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DROWZEE_CACHE", str(tmp_path / "home"))
    return tmp_path / "home"


def _kb(path: Path, facts: list[tuple[str, str, str]]) -> KBStore:
    store = KBStore(path, create=True)
    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    for s, r, o in facts:
        writer.triple(writer.entity(s), r, writer.entity(o), domain="test", source="test")
    writer.flush()
    return store


def test_a_kb_fingerprint_is_remembered_per_file_state(home: Path, tmp_path: Path) -> None:
    store = _kb(tmp_path / "kb.sqlite", [("Paris", "located_in", "France")])
    first = store.fingerprint()
    memo = json.loads((home / "cache" / fingerprints.MEMO_FILE).read_text())
    assert list(memo.values()) == [first]
    assert store.fingerprint() == first == content_fingerprint(store.db)

    writer = KBWriter(store, Catalog.from_toml(), auto_relations=True)
    writer.triple(writer.entity("Lyon"), "located_in", writer.entity("France"), domain="test", source="test")
    writer.flush()
    changed = store.fingerprint()
    assert changed != first and changed == content_fingerprint(store.db)  # a committed write is a new state


def test_a_remembered_fingerprint_is_what_the_memo_holds_for_that_state(home: Path, tmp_path: Path) -> None:
    store = _kb(tmp_path / "kb.sqlite", [("Paris", "located_in", "France")])
    fingerprints.remember(fingerprints.file_state(store.path), "not-the-hash")
    assert store.fingerprint() == "not-the-hash"  # read, not recomputed: the memo is what saves the time


def test_an_in_memory_kb_is_hashed_and_not_remembered(home: Path) -> None:
    store = KBStore(":memory:", create=True)
    assert store.fingerprint() == content_fingerprint(store.db)
    assert not (home / "cache" / fingerprints.MEMO_FILE).exists()


def test_the_memo_keeps_the_latest_states_and_survives_a_damaged_file(home: Path) -> None:
    for i in range(fingerprints.MAX_REMEMBERED + 5):
        fingerprints.remember(f"state{i}", f"fp{i}")
    assert fingerprints.remembered("state0") is None
    assert fingerprints.remembered(f"state{fingerprints.MAX_REMEMBERED + 4}") == f"fp{fingerprints.MAX_REMEMBERED + 4}"
    (home / "cache" / fingerprints.MEMO_FILE).write_text("{not json")
    assert fingerprints.remembered("state1") is None
    fingerprints.remember("state1", "fp1")
    assert fingerprints.remembered("state1") == "fp1"


def test_lazy_passages_read_as_the_list_they_were_saved_from() -> None:
    passages = [Passage(f"t:{i}", f"text {i}", f"ref{i}", EvidenceSource.KB) for i in range(5)]
    lines = "\n".join(json.dumps([p.id, p.text, p.ref, str(p.source)]) for p in passages).encode()
    lazy = LazyPassages(lines)
    assert len(lazy) == 5
    assert lazy[0] == passages[0] and lazy[-1] == passages[-1]
    assert lazy[1:3] == passages[1:3] and list(lazy) == passages
    with pytest.raises(IndexError):
        lazy[5]


def test_the_lexicon_is_saved_once_and_read_back_the_same(home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from agents.reading.candidates import lexicon_store
    from agents.reading.candidates.lexicon import Lexicon
    from agents.reading.candidates.reader import nlp

    catalog = Catalog.from_toml()
    built = lexicon_store.saved_lexicon(catalog, nlp())
    [saved] = (home / "cache").glob("lexicon-*.pickle")
    assert saved.name == f"lexicon-{lexicon_store.lexicon_key(catalog, nlp())}.pickle"

    def parse_again(*args: object) -> Lexicon:
        raise AssertionError("the saved lexicon was parsed again")

    with monkeypatch.context() as m:
        m.setattr(Lexicon, "from_catalog", parse_again)
        read = lexicon_store.saved_lexicon(catalog, nlp())
    assert read.patterns == built.patterns and read.inverse == built.inverse and read.cue_lemmas == built.cue_lemmas

    smaller = Catalog.from_dict({"relation": [catalog.get("capital_of").model_dump(exclude={"inverse_of"})]})
    assert lexicon_store.lexicon_key(smaller, nlp()) != lexicon_store.lexicon_key(catalog, nlp())

    saved.write_bytes(b"not a pickle")
    rebuilt = lexicon_store.saved_lexicon(catalog, nlp())
    assert rebuilt.patterns == built.patterns
    assert lexicon_store.saved_lexicon(catalog, nlp()).patterns == built.patterns  # saved again, readable


def test_the_lexicon_key_covers_the_code_that_builds_it() -> None:
    """The folders the key digests exist and hold the lexicon's own module (a stale saved lexicon would
    otherwise outlive a change of the reading code)."""
    from agents.reading.candidates import lexicon, lexicon_store

    assert all(folder.is_dir() for folder in lexicon_store.CODE_FOLDERS)
    assert any(Path(lexicon.__file__).resolve().is_relative_to(f) for f in lexicon_store.CODE_FOLDERS)
