"""The knowledge base: entities, relations and their catalog, triples in SQLite, loaders, seed sources.

`KBStore` holds a KB in one SQLite file (`fingerprint()` identifies its content in provenance);
`Catalog` describes relations (category, symmetric / transitive / inverse-of / functional,
templates, antonyms); `KBWriter` adds validated triples; `build_seed_kb` builds the bundled KB from
registry packages (`kb.sources`); `kb.loaders` reads user files; `KBLinker` links text to entities.
"""

from typing import TYPE_CHECKING

from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import DOMAINS, Entity, RelationSpec, Stats, ValueKind
from drowzee_core.kb.store import KBStore, TripleRow
from drowzee_core.kb.writer import KBWriter, LoadReport, RowError
from drowzee_core.lazy import lazy_exports

if TYPE_CHECKING:
    from drowzee_core.kb.build import build_seed_kb
    from drowzee_core.kb.linking import KBLinker, LinkedTriple

__getattr__ = lazy_exports(
    __name__,
    {
        "build_seed_kb": "drowzee_core.kb.build",
        "KBLinker": "drowzee_core.kb.linking",
        "LinkedTriple": "drowzee_core.kb.linking",
    },
)

__all__ = [
    "DOMAINS",
    "Catalog",
    "Entity",
    "KBLinker",
    "KBStore",
    "KBWriter",
    "LinkedTriple",
    "LoadReport",
    "RelationSpec",
    "RowError",
    "Stats",
    "TripleRow",
    "ValueKind",
    "build_seed_kb",
]
