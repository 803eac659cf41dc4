"""Fit the label linker's embedding threshold on the catalog's own templates (never on evaluation data).

Each catalog relation's templates (`positive`, `question`, antonyms) are filled with placeholder
names and reduced to their predicate words (`agents.reading.questions.frames.predicate_words`); each is scored
by embedding alone against every catalog label. A template whose words share no lemma with its own
label is a *positive* for its label and a *negative* for every other label. The report gives, per
threshold, the share of positives at or above it and of negatives below it, and their balanced
accuracy. A wrong link proves or refutes the wrong fact while a missed one leaves a claim unread, so
`agents.reading.candidates.labels.MIN_SCORE` is the lowest threshold that leaves at least 95 % of the negatives
unlinked (`best_threshold`, with its balanced accuracy beside the best balanced accuracy).

Run: .venv/bin/python bench/label_linking.py
"""

from __future__ import annotations

import json
import sys

import numpy as np

from agents.reading.candidates import label_lemmas, nlp
from agents.reading.questions import Span, predicate_words
from drowzee_core.kb.catalog import Catalog
from drowzee_core.llm.embeddings import embedder

FILL = {"{s}": "Alice Smith", "{o}": "Bob Jones"}


def main() -> int:
    """Print the threshold table as JSON lines and the best threshold."""
    catalog = Catalog.from_toml()
    parse = nlp()
    phrases: list[tuple[str, str, frozenset[str]]] = []
    for rel in catalog:
        for template in (rel.positive, rel.question, *rel.antonyms):
            text = template.replace("{s}", FILL["{s}"]).replace("{o}", FILL["{o}"])
            doc = parse(text)
            names = [Span(t.i, t.i + 2) for t in doc if t.text in ("Alice", "Bob")]
            words = predicate_words(doc, names)
            phrases.append((rel.label, " ".join(t.text for t in words), frozenset(t.lemma_.lower() for t in words)))
    labels = sorted({r.label for r in catalog})
    lemmas = {x: label_lemmas(x, parse) for x in labels}
    embed = embedder().encode
    pv = embed([p for _, p, _ in phrases])
    lv = embed(labels)
    cos = pv @ lv.T
    pos, neg = [], []
    for i, (own, _, words) in enumerate(phrases):
        for j, label in enumerate(labels):
            if lemmas[label] & words:
                continue  # a lemma link decides these; the threshold is for embedding links only
            (pos if label == own else neg).append(float(cos[i, j]))
    best = (0.0, 0.0)
    chosen: tuple[float, float] | None = None
    for t in np.arange(0.20, 0.61, 0.025):
        tpr = float(np.mean([p >= t for p in pos])) if pos else 0.0
        tnr = float(np.mean([n < t for n in neg])) if neg else 0.0
        bacc = (tpr + tnr) / 2
        print(
            json.dumps(
                {
                    "threshold": round(float(t), 3),
                    "positives_linked": tpr,
                    "negatives_unlinked": tnr,
                    "balanced_accuracy": round(bacc, 3),
                }
            )
        )
        best = max(best, (bacc, round(float(t), 3)))
        if chosen is None and tnr >= 0.95:
            chosen = (round(float(t), 3), bacc)
    print(
        json.dumps(
            {
                "positives": len(pos),
                "negatives": len(neg),
                "best_threshold": chosen and chosen[0],
                "its_bacc": chosen and chosen[1],
                "best_bacc_threshold": best[1],
                "best_bacc": best[0],
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
