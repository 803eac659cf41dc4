"""The Verdict Manager's dev mix: what users send, in realistic proportion (issue 32).

Our generated pairs are about facts the KB proves, so a Manager fitted on them alone learns that
whatever no proof decides is FACTUAL. The mix adds human-written claim / evidence pairs from
`../shared/data/train/` (training data, never the evaluation sets of `../shared/data/peers/`), turned
into Query-Response pairs the way users bring them:

- *with evidence* (FactCHD's "with facts" setting): the claim is the response, the evidence sentence
  is supplied, and the label is whether that evidence supports it (`SUPPORTED` -> FACTUAL);
- *without evidence*: only where the claim's truth does not depend on the evidence - FEVER claims
  labelled SUPPORTS / REFUTES, whose label is the claim's truth in the world.

Each item is split into a `fit` half and a `check` half by a hash of its id (both evidence modes of
an item stay on one side): the Manager is fitted on `fit`, its figures are reported on `check`.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from drowzee_core.errors import DrowzeeError
from drowzee_core.records.enums import Label
from drowzee_core.records.pair import QRPair
from drowzee_core.records.readers import read_dicts

MIX_QUERY = ""
"""Claim-only pairs carry no question: the claim is the whole response."""
HALVES = ("fit", "check")
WORLD_LABELS = {"SUPPORTS": Label.FACTUAL, "REFUTES": Label.NON_FACTUAL}
"""FEVER's three-way labels that state a claim's truth in the world (NOT ENOUGH INFO does not)."""


@dataclass(frozen=True, slots=True)
class MixSource:
    """One file of `../shared/data/train/` and how many of its items the mix takes."""

    name: str
    path: str
    """Relative to the train folder."""
    n: int
    bare: bool
    """Whether its items are also run without evidence (only where the label is the claim's world truth)."""


SOURCES = (
    MixSource("fever_symmetric", "fever/fever_symmetric.jsonl", 250, bare=True),
    MixSource("fever_rte", "fever/fever_rte_dev.jsonl", 150, bare=False),
    MixSource("snli", "snli/snli_dev_test.jsonl", 100, bare=False),
    MixSource("kg_relations", "recast/kg_relations.jsonl", 100, bare=False),
)
GENERATED_ITEMS = 150
"""Generated dev pairs taken into the mix (each run with and without its evidence)."""


def half_of(item: str) -> str:
    """`fit` or `check`, by a stable hash of the item id."""
    return HALVES[hashlib.sha256(item.encode()).digest()[0] % 2]


def _pair(
    item: str,
    source: str,
    label: Label,
    query: str,
    response: str,
    evidence: Sequence[object],
    base: QRPair | None = None,
    half_key: str | None = None,
) -> QRPair:
    mode = "facts" if evidence else "none"
    half = half_of(half_key or item)
    meta: dict[str, object] = {"mix_source": source, "item": item, "evidence_mode": mode, "half": half}
    if base is not None:
        return base.model_copy(
            update={"id": f"{item}:{mode}", "evidence": list(evidence), "meta": meta, "source": source}
        )
    return QRPair.model_validate(
        {
            "id": f"{item}:{mode}",
            "label": label,
            "query": query,
            "response": response,
            "evidence": list(evidence),
            "source": source,
            "meta": meta,
        }
    )


def train_pairs(train_dir: Path, source: MixSource, seed: int) -> Iterator[QRPair]:
    """A seeded sample of one train file as Query-Response pairs (with evidence; also bare where allowed)."""
    path = train_dir / source.path
    if not path.exists():
        raise DrowzeeError(f"{path} is missing: the dev mix reads ../shared/data/train/ (pass --train DIR)")
    rows = read_dicts(path)
    rng = random.Random(f"{seed}:{source.name}")
    for row in rng.sample(rows, min(source.n, len(rows))):
        item = f"{source.name}:{row['id']}"
        label = Label.FACTUAL if row["label"] == "SUPPORTED" else Label.NON_FACTUAL
        claim, evidence = str(row["claim"]).strip(), str(row["evidence"]).strip()
        yield _pair(item, source.name, label, MIX_QUERY, claim, [evidence])
        world = WORLD_LABELS.get(str(row.get("label3", "")))
        if source.bare and world is not None:
            yield _pair(item, source.name, world, MIX_QUERY, claim, [])


def generated_pairs(pairs: Iterable[QRPair], n: int, seed: int) -> Iterator[QRPair]:
    """A seeded sample of our generated dev pairs, each with and without its evidence.

    Pairs of another wording style (`meta.style`, e.g. `natural`: the same pairs said freely) are
    sampled apart with the same seed, so both styles hold the same items, and are named by their
    style (source `generated-natural`); an item's half is the same in every style.
    """
    rows = list(pairs)
    bad = [p.id for p in rows if p.split is not None and str(p.split) == "test"]
    if bad:
        raise DrowzeeError(f"{len(bad)} pairs are from the test split (e.g. {bad[0]}); the mix takes dev pairs only")
    styles: dict[str, list[QRPair]] = {}
    for p in rows:
        styles.setdefault(str((p.meta or {}).get("style") or "template"), []).append(p)
    for style, same in styles.items():
        source = "generated" if style == "template" else f"generated-{style}"
        for p in random.Random(f"{seed}:generated").sample(same, min(n, len(same))):
            item, key = f"{source}:{p.id}", f"generated:{p.id}"
            yield _pair(item, source, p.label, p.query, p.response, p.evidence, base=p, half_key=key)
            if p.evidence:
                yield _pair(item, source, p.label, p.query, p.response, [], base=p, half_key=key)


def build_mix(
    generated: Iterable[QRPair], train_dir: Path, seed: int = 0, sources: Sequence[MixSource] = SOURCES
) -> list[QRPair]:
    """The whole dev mix: generated pairs and every train source, in a seeded order."""
    out = list(generated_pairs(generated, GENERATED_ITEMS, seed))
    for source in sources:
        out += train_pairs(train_dir, source, seed)
    random.Random(seed).shuffle(out)
    return out


__all__ = [
    "GENERATED_ITEMS",
    "HALVES",
    "SOURCES",
    "MixSource",
    "build_mix",
    "generated_pairs",
    "half_of",
    "train_pairs",
]
