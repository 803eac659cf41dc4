"""Training rows for the relation reader: masked sentences, each labelled with a catalog relation or `NONE`.

- *Relations*: facts sampled from the KB, said in every form the catalog declares for them (`forms`: the
  statement template in both tenses, its inverse's, the noun and phrase forms of `drowzee_core.kb.wording`).
- *NONE*: claims of FEVER (`../shared/data/train/fever/fever_rte_dev.jsonl`), sentences people wrote about
  other relations, with two of their names or numbers masked; the claims `held_out` (half, by a hash of
  the text) are never trained on, so that `bench/learned_reader.py` measures false reads on them. A
  claim whose masked form is a catalog form's near twin is left out (it may say a catalog relation).

In every row the subject's words are replaced by `X` and the object's by `Y` (`masked`), as the reader
does with the mentions of a sentence it reads. No evaluation data is read here.

Run: python -m finetune.reader.data --out ~/.cache/drowzee/reader/rows.jsonl [--per-relation 60] [--none 6000]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import random
import re
from collections.abc import Iterator
from pathlib import Path

from drowzee_core.kb.model import RelationSpec, ValueKind
from drowzee_core.kb.store import KBStore
from drowzee_core.kb.template_regex import fill
from drowzee_core.kb.wording import noun_templates, phrase_templates, with_past

log = logging.getLogger("finetune.reader.data")
NONE = "NONE"
SHARED = Path(__file__).resolve().parents[3] / "shared" / "data"
FEVER = SHARED / "train" / "fever" / "fever_rte_dev.jsonl"


def masked(text: str, subject: str, obj: str) -> str | None:
    """`text` with the subject's words as `X` and the object's as `Y`; None when either is missing."""
    if not subject or not obj or subject == obj:
        return None
    spans = []
    for name, mark in ((subject, "X"), (obj, "Y")):
        m = re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text)
        if m is None:
            return None
        spans.append((m.start(), m.end(), mark))
    spans.sort()
    if spans[0][1] > spans[1][0]:
        return None
    out, at = [], 0
    for start, end, mark in spans:
        out += [text[at:start], mark]
        at = end
    return "".join([*out, text[at:]])


def _value(label: str, kind: ValueKind) -> str:
    """A stored value as a sentence says it ("num:1901" -> "1901")."""
    text = label.split(":", 1)[1] if label.startswith(("num:", "year:")) else label
    if kind == ValueKind.QUANTITY:
        try:
            return f"{int(float(text)):,}"
        except ValueError:
            return text
    return text


def forms(spec: RelationSpec, inverse: RelationSpec | None, s: str, o: str) -> list[str]:
    """Every declared wording of one fact.

    The catalog's statement in both tenses, its noun and phrase forms, and its inverse's or (symmetric)
    its own statement with the ends swapped.
    The natural generator's phrasing (`drowzee_core.generate.natural`) is never used: pairs it words
    would be read back by what learned from it (tests/unit/test_natural_imports.py).
    """
    templates = with_past([spec.positive]) + noun_templates(spec.phrase) + phrase_templates(spec.phrase)
    out = [fill(t, s, o) for t in templates]
    if inverse is not None:
        out += [fill(t, o, s) for t in with_past([inverse.positive])]
    if spec.symmetric:
        out += [fill(t, o, s) for t in with_past([spec.positive])]
    return list(dict.fromkeys(t.rstrip(".") + "." for t in out))


def relation_rows(store: KBStore, per_relation: int, rng: random.Random) -> Iterator[dict[str, str]]:
    """Masked declared forms of sampled KB facts, labelled with their relation."""
    catalog = store.catalog()
    rids = store.relation_ids()
    for spec in catalog:
        rid = rids.get(spec.name)
        facts = store.facts_of([rid]) if rid is not None else []
        if not facts:
            continue
        inverse = catalog.get(spec.inverse_of) if spec.inverse_of and spec.inverse_of in catalog else None
        picked = rng.sample(facts, min(per_relation, len(facts)))
        labels = store.labels({x for f in picked for x in (f[0], f[2])})
        for s_id, _r, o_id, _domain in picked:
            s, o = labels.get(s_id, ""), _value(labels.get(o_id, ""), spec.object_kind)
            for text in forms(spec, inverse, s, o):
                if (m := masked(text, s, o)) is not None:
                    yield {"text": m, "label": spec.name, "kind": str(spec.object_kind), "source": "kb-forms"}


def held_out(text: str) -> bool:
    """Whether a text is in the half kept from training (`bench/learned_reader.py` measures on it)."""
    return hashlib.sha1(text.encode("utf-8")).digest()[0] % 2 == 1


def none_rows(nlp: object, limit: int, rng: random.Random) -> Iterator[dict[str, str]]:
    """FEVER claims with two of their entities or numbers masked, labelled `NONE`."""
    claims = [c for line in FEVER.open(encoding="utf-8") if not held_out(c := json.loads(line)["claim"])]
    rng.shuffle(claims)
    n = 0
    for doc in nlp.pipe(claims[: limit * 3], batch_size=256):  # type: ignore[attr-defined]
        ents = [e for e in doc.ents if e.text.strip()]
        if len(ents) < 2:
            continue
        s, o = ents[0], ents[1]
        kind = (
            ValueKind.YEAR
            if o.label_ == "DATE" and re.fullmatch(r"\d{4}", o.text)
            else ValueKind.QUANTITY
            if o.label_ in ("CARDINAL", "QUANTITY", "MONEY")
            else ValueKind.ENTITY
        )
        if (m := masked(doc.text, s.text, o.text)) is None:
            continue
        yield {"text": m, "label": NONE, "kind": str(kind), "source": "fever-claims"}
        n += 1
        if n >= limit:
            return


def main() -> None:
    """Write the rows (JSONL), with a sidecar saying what produced them."""
    from drowzee_core.config import home
    from drowzee_core.nlp import pipeline

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=home() / "reader" / "rows.jsonl")
    ap.add_argument("--kb", type=Path, default=home() / "kb" / "seed.sqlite")
    ap.add_argument("--per-relation", type=int, default=60)
    ap.add_argument("--none", type=int, default=6000)
    ap.add_argument("--seed", type=int, default=13)
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    rng = random.Random(args.seed)
    store = KBStore(args.kb)
    rows = list(relation_rows(store, args.per_relation, rng))
    rows += list(none_rows(pipeline(), args.none, rng))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    meta = {
        "produced_by": "finetune.reader.data",
        "args": {k: str(v) for k, v in vars(args).items()},
        "rows": len(rows),
    }
    args.out.with_suffix(".meta.json").write_text(json.dumps(meta, indent=1))
    log.info("%d rows -> %s", len(rows), args.out)


if __name__ == "__main__":
    main()
