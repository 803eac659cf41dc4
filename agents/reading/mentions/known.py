"""The names a KB and a pair's supplied triples know, as the readers ask about them."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from agents.reading.claim_types import AnyClaim, Claim, TripleClaim, replaced
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.model import ValueKind
from drowzee_core.kb.store import KBStore

MAX_NAME_CHARS = 120


class Known:
    """Whether a name is one the KB or the supplied triples know (labels, aliases, any case; "the" dropped).

    `names` are the supplied triples' names, which the reader also finds in a sentence by their text
    ("Battle of Alba" where the parse splits it; any case, with or without diacritics).
    """

    def __init__(self, store: KBStore, triples: Sequence[Sequence[str]]) -> None:
        self.store = store
        self.names = tuple(dict.fromkeys(n for t in triples for x in (t[0], t[-1]) if (n := " ".join(str(x).split()))))
        self.subjects = tuple(dict.fromkeys(n for t in triples if (n := " ".join(str(t[0]).split()))))
        """The names supplied triples say something about: a number among them ("1804") is a name."""
        self._said: dict[str, set[str]] = {}
        for t in triples:
            self._said.setdefault(" ".join(str(t[0]).split()).lower(), set()).add(" ".join(str(t[1]).split()))
        self._supplied = {n.lower() for n in self.names}
        self._cache: dict[str, bool] = {}

    def __call__(self, name: str) -> bool:
        """Whether `name` (or it without a leading "the") is a supplied name or one the KB resolves."""
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME_CHARS:
            return False
        if name not in self._cache:
            bare = name[4:] if name.lower().startswith("the ") else name
            self._cache[name] = any(n.lower() in self._supplied or bool(self.store.resolve(n, 1)) for n in {name, bare})
        return self._cache[name]

    def said_of(self, name: str) -> frozenset[str]:
        """The relation labels of the supplied triples whose subject is `name` (any case)."""
        return frozenset(self._said.get(" ".join(name.split()).lower(), ()))


def knower(store: KBStore, triples: Sequence[Sequence[str]]) -> Known:
    """The `Known` names of a KB and a pair's supplied triples."""
    return Known(store, triples)


def names_known(claim: Claim, known: Callable[[str], bool], catalog: Catalog) -> bool:
    """Whether a claim's subject, and its object where the relation takes a name, are names anything knows."""
    if not isinstance(claim, TripleClaim):
        return True
    spec = catalog.get(claim.relation) if claim.relation in catalog else None
    takes_name = spec is None or spec.object_kind == ValueKind.ENTITY
    return known(claim.subject) and (not takes_name or known(claim.object))


def without_article(claim: AnyClaim, store: KBStore) -> AnyClaim:
    """The claim with "the" dropped from a name the KB knows only without it ("the yen": "yen")."""
    update = {}
    for slot in ("subject", "object"):
        name = getattr(claim, slot, None)
        if not isinstance(name, str) or not name.lower().startswith("the "):
            continue
        if not store.resolve(name, 1) and store.resolve(name[4:], 1):
            update[slot] = name[4:]
    return replaced(claim, **update) if update else claim


def typed_readings(claims: Sequence[Claim], fits: Callable[[str, str, str], bool]) -> list[Claim]:
    """The claims without the readings of one sentence that the KB's types rule out, where another fits.

    Identical templates read one sentence as several relations ("X is in group 2 of the periodic
    table": the period or the group). `fits(relation, subject, object)` says whether stored facts give
    both names those ends (`drowzee_core.kb.naming.TypeCheck`, strict); where a reading fits, the
    others of the same words go. Where none fits, all stay.
    """
    groups: dict[tuple[tuple[int, int] | None, str], list[TripleClaim]] = {}
    for c in claims:
        if isinstance(c, TripleClaim) and c.relation and c.subject and c.object:
            groups.setdefault((c.span, c.text), []).append(c)
    dropped: set[int] = set()
    for group in groups.values():
        if len({c.relation for c in group}) < 2:
            continue
        kept = {id(c) for c in group if fits(c.relation, c.subject, c.object)}
        if kept:
            dropped |= {id(c) for c in group} - kept
    return [c for c in claims if id(c) not in dropped]


def narrowed(claims: Sequence[Claim], catalog: Catalog, fits: Callable[[str, str, str], bool]) -> list[Claim]:
    """The claims with a broader relation read as the narrower one its names are typed for (`RelationSpec.narrows`).

    "Lima is in Asia" reads `located_in`; Asia is a continent, so the claim is `on_continent`, which
    the KB decides (a functional relation: Lima, Peru's capital, is on South America). `fits(relation,
    subject, object)` is the strict type check (`drowzee_core.kb.naming.TypeCheck`).
    """
    narrower: dict[str, list[tuple[str, bool]]] = {}  # broader relation -> (narrower, whether the ends swap)
    for spec in catalog:
        if spec.narrows is not None:
            narrower.setdefault(spec.narrows, []).append((spec.name, False))
            if (inverse := catalog.get(spec.narrows).inverse_of) is not None:  # "Asia contains Lima"
                narrower.setdefault(inverse, []).append((spec.name, True))
    out = []
    for c in claims:
        if not (isinstance(c, TripleClaim) and c.subject and c.object):
            out.append(c)
            continue
        ends = [
            (r, (c.object, c.subject) if swap else (c.subject, c.object)) for r, swap in narrower.get(c.relation, [])
        ]
        hit = [(r, s, o) for r, (s, o) in ends if fits(r, s, o)]
        if len(hit) == 1:
            r, s, o = hit[0]
            c = replaced(c, relation=r, subject=s, object=o)
        out.append(c)
    return out


__all__ = ["MAX_NAME_CHARS", "Known", "knower", "names_known", "narrowed", "typed_readings", "without_article"]
