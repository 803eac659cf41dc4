from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import Stats
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.writer import KBWriter

PEERS = Path(__file__).resolve().parents[2] / "shared" / "data" / "peers"


def peers_path(*parts: str) -> Path:
    """Path under ../shared/data/peers, or skip with the reason when a user's clone has none."""
    path = PEERS.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"peer data {path} is absent (only CI and developers have ../shared)")
    return path


def make_store(
    triples: Iterable[tuple[str, str, str]],
    negatives: Iterable[tuple[str, str, str]] = (),
    catalog: Catalog | None = None,
) -> KBStore:
    """An in-memory KB whose entity keys and labels are the given names."""
    store = KBStore(":memory:", create=True)
    writer = KBWriter(store, catalog or Catalog.from_toml(), auto_relations=True)
    for facts, neg in ((triples, False), (negatives, True)):
        for s, r, o in facts:
            writer.triple(writer.entity(s), r, writer.entity(o), domain="test", source="test", negated=neg)
    writer.flush()
    return store


@pytest.fixture(scope="session")
def seed_kb(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Stats]:
    """The bundled seed KB, built once per test session from registry packages (about 25 s)."""
    from drowzee_core.kb.build import build_seed_kb

    out = tmp_path_factory.mktemp("kb") / "seed.sqlite"
    return out, build_seed_kb(out)


@pytest.fixture(scope="session", autouse=True)
def _private_call_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Verifiers cache their calls in a file of this test session, never in the user's `<home>/cache`.

    Session-scoped so that module-scoped verifiers get it too; a test that counts cache hits passes its
    own `cache_path`.
    """
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("DROWZEE_VERIFY_CACHE_PATH", str(tmp_path_factory.mktemp("calls") / "calls.sqlite"))
        yield
