"""The sentence reader applied to a response: free sentences and yes / no questions become KB claims.

Sentences the catalog templates left unread are read with `agents.reading.reader.read`; a subject
pronoun takes the previous claim's subject. A yes / no question (the query) read the same way,
with the response's Yes or No, is the claim the answer makes ("Do Germany and France share a
border?" "No." claims that they do not). Names are linked to the user's KB (on its thread) and to
the names of the pair's supplied triples.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cached_property
from typing import TYPE_CHECKING

from agents.reading.lexicon import Lexicon
from agents.reading.reader import Reading, nlp, read
from agents.schemas import Claim, ClaimKind, ClaimOrigin
from drowzee_core.kb.catalog import Catalog
from drowzee_core.kb.store import KBStore

if TYPE_CHECKING:
    from agents.services import Services

MAX_NAME_CHARS = 120


class SentenceReader:
    """Reads sentences into `Reading`s with the catalog's lexicon (built on first use)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    @cached_property
    def lexicon(self) -> Lexicon:
        """The catalog's relation patterns."""
        return Lexicon.from_catalog(self.catalog, nlp())

    def read_one(self, sentence: str, known: Callable[[str], bool], previous: str | None = None) -> list[Reading]:
        """The readings of one sentence; a pronoun subject is `previous`."""
        return read(nlp()(sentence), self.lexicon, known, previous)


def knower(store: KBStore, triples: Sequence[Sequence[str]]) -> Callable[[str], bool]:
    """Whether a name is one the KB or the supplied triples know (labels, aliases, any case; "the" dropped)."""
    supplied = {str(x).strip().lower() for t in triples for x in (t[0], t[-1]) if x}
    cache: dict[str, bool] = {}

    def known(name: str) -> bool:
        name = " ".join(name.split())
        if not name or len(name) > MAX_NAME_CHARS:
            return False
        if name not in cache:
            bare = name[4:] if name.lower().startswith("the ") else name
            cache[name] = any(n.lower() in supplied or bool(store.resolve(n, 1)) for n in {name, bare})
        return cache[name]

    return known


def flip(reading: Reading, yes: bool) -> Reading:
    """The claim an answer makes to a question read as `reading`: itself for Yes, its negation for No."""
    if yes:
        return reading
    return Reading(reading.subject, reading.relation, reading.object, not reading.negated, reading.past, reading.cues)


def question_text(query: str) -> str | None:
    """The last question of a query ("... ? Is X Y?"), when it is a yes / no question."""
    text = query.strip()
    if not text.endswith("?"):
        return None
    last = text.rsplit("?", 2)
    body = (last[-2] if len(last) >= 2 else text).strip()
    for stop in (". ", ": ", "\n"):
        body = body.rsplit(stop, 1)[-1]
    first = body.split(" ", 1)[0].lower()
    auxiliaries = {"is", "are", "was", "were", "do", "does", "did", "has", "have", "had", "can", "could", "will"}
    return body + "?" if first in auxiliaries else None


def _claim(base: Claim, r: Reading, origin: ClaimOrigin, text: str) -> Claim:
    return base.model_copy(
        update={
            "kind": ClaimKind.TRIPLE,
            "origin": origin,
            "text": text,
            "subject": r.subject,
            "relation": r.relation,
            "object": r.object,
            "negated": r.negated,
            "past": r.past,
        }
    )


def verbalize(catalog: Catalog, r: Reading) -> str:
    """The reading as the catalog words it ("Germany does not share a border with France.")."""
    spec = catalog.get(r.relation)
    return (spec.negative if r.negated else spec.positive).format(s=r.subject, o=r.object)


def read_free(
    services: Services, query: str, said: Sequence[bool], found: Sequence[Claim], triples: Sequence[Sequence[str]]
) -> list[Claim]:
    """Text claims the reader reads become triple claims; a yes / no query with the answer's stance(s) too.

    `said` holds the response's Yes / No stance(s) when no other reader made the answer's claim from
    the query (templates, Drowzee's question shapes, MTL questions); empty otherwise. A reader claim
    keeps its sentence's span; its text is the claim as the catalog words it.
    """
    asked = question_text(query) if said else None
    if not any(c.kind == ClaimKind.TEXT for c in found) and not asked:
        return list(found)
    reader, store, catalog = services.sentence_reader, services.store, services.catalog

    def run() -> list[Claim]:
        known = knower(store, triples)
        out: list[Claim] = []
        previous: str | None = None
        for c in found:
            readings = reader.read_one(c.text, known, previous) if c.kind == ClaimKind.TEXT else []
            out += [_claim(c, r, ClaimOrigin.READER, verbalize(catalog, r)) for r in readings] or [c]
            previous = next((x.subject for x in reversed(out) if x.subject), previous)
        for r in reader.read_one(asked, known)[:1] if asked else []:
            for yes in said:
                claim = flip(r, yes)
                base = Claim(id="", text="", kind=ClaimKind.TRIPLE, origin=ClaimOrigin.QUERY)
                out.append(_claim(base, claim, ClaimOrigin.QUERY, verbalize(catalog, claim)))
        return out

    return services.gate.run(run)


__all__ = ["SentenceReader", "flip", "knower", "question_text", "read_free", "verbalize"]
