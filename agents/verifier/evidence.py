"""Supplied evidence in every form users have, read into evidence items and triples (pure).

Accepted forms (`VerifyRequest.evidence`):
- a string: one document; split into paragraphs (blank lines), each an item;
- a list whose items are strings (sentences or documents), `[entity, sentence]` pairs, or KG triples
  `[s, r, o]` - FactCHD's qualifier triples nest the base triple as the subject's repr
  (`["['Honshu', 'population', '103000000']", "point in time", "2005"]`), Drowzee's evidence lists are
  plain triples.

Every item becomes an `EvidenceItem` `S1`, `S2`, ... that the judge reads and the explanation cites;
triples also go, as given, to the pair's scratch KB (`drowzee_core.kb.scratch`), which validates them
and reports the ones it cannot load.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from drowzee_core.errors import DrowzeeError
from drowzee_core.kb.scratch import split_qualifier
from drowzee_core.records.pair import EvidenceItemIn
from drowzee_core.records.verdict import MAX_EVIDENCE, EvidenceItem, EvidenceSource

MAX_ITEM_CHARS = 4_000
"""Longest supplied evidence item; longer items are split into chunks of at most this size."""
_PARAGRAPHS = re.compile(r"\n\s*\n")


class EvidenceError(DrowzeeError):
    """Supplied evidence that cannot be read (the message says which item and why)."""


@dataclass(slots=True)
class SuppliedEvidence:
    """The pair's evidence as items for the judge and triples for the scratch KB."""

    items: list[EvidenceItem] = field(default_factory=list)
    triples: list[list[str]] = field(default_factory=list)


def verbalize_triple(triple: tuple[str, str, str]) -> str:
    """A triple as a short sentence; a FactCHD qualifier reads "Honshu population 103000000 (point in time 2005)."."""
    q = split_qualifier(triple)
    s, r, o = (part.strip() for part in q.base)
    text = f"{s} {r} {o}"
    if q.qualifier is not None:
        text += f" ({q.qualifier[0]} {q.qualifier[1]})"
    return text + "."


def _chunks(text: str) -> list[str]:
    text = text.strip()
    return [text[i : i + MAX_ITEM_CHARS] for i in range(0, len(text), MAX_ITEM_CHARS)] if text else []


def normalize_evidence(raw: list[EvidenceItemIn] | str | None) -> SuppliedEvidence:
    """Read supplied evidence (see the module docstring); raises `EvidenceError` naming a bad item."""
    out = SuppliedEvidence()
    if raw is None:
        return out
    texts: list[tuple[str, str | None]] = []
    if isinstance(raw, str):
        texts = [(c, None) for para in _PARAGRAPHS.split(raw) for c in _chunks(para)]
    else:
        if len(raw) > MAX_EVIDENCE:
            raise EvidenceError(f"{len(raw)} evidence items supplied; the limit is {MAX_EVIDENCE}")
        for n, item in enumerate(raw, 1):
            if isinstance(item, str):
                texts += [(c, None) for c in _chunks(item)]
            elif len(item) == 3 and all(isinstance(p, str) and p.strip() for p in item):
                out.triples.append(list(item))
                texts.append((verbalize_triple((item[0], item[1], item[2])), " | ".join(item)))
            elif len(item) == 2 and all(isinstance(p, str) for p in item):
                texts += [(c, item[0]) for c in _chunks(item[1])]
            else:
                raise EvidenceError(
                    f"evidence item {n} must be text, [entity, sentence] or a triple [subject, relation, object]; "
                    f"got a list of {len(item)} parts"
                )
    out.items = [
        EvidenceItem(id=f"S{i}", source=EvidenceSource.SUPPLIED, text=text, ref=ref)
        for i, (text, ref) in enumerate(texts[:MAX_EVIDENCE], 1)
    ]
    return out


__all__ = ["MAX_ITEM_CHARS", "EvidenceError", "SuppliedEvidence", "normalize_evidence", "verbalize_triple"]
