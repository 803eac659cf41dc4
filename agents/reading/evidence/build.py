"""The embedded evidence reader: spaCy, all-MiniLM-L6-v2, WordNet and the fitted support rule, wired once.

`agents.reading.evidence.reader` reads; this module loads what it reads with (models, WordNet, weights).
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

from agents.reading.evidence.reader import EvidenceReader
from agents.reading.evidence.support import FEATURES, SupportRule
from drowzee_core.errors import DrowzeeError

WEIGHTS = Path(__file__).with_name("support_weights.json")
"""The fitted support rule (`bench/evidence_fit.py`)."""


def fitted_rule(path: Path = WEIGHTS) -> SupportRule:
    """The support rule fitted on training pairs; raises `DrowzeeError` when the file does not match `FEATURES`."""
    data = json.loads(path.read_text())
    if tuple(data["features"]) != FEATURES:
        raise DrowzeeError(f"{path} weighs {data['features']}, not {list(FEATURES)}: rerun bench/evidence_fit.py")
    return SupportRule(tuple(float(w) for w in data["weights"]), float(data["bias"]))


def build_reader(rule: SupportRule | None) -> EvidenceReader:
    """A reader on spaCy, all-MiniLM-L6-v2 and WordNet, with `rule` (None: the strict rule, for fitting)."""
    from agents.reading.candidates import SENSES, WordNetRelated, nlp
    from drowzee_core.config import home
    from drowzee_core.kb.sources.wordnet import load_wordnet
    from drowzee_core.llm.embeddings import embedder

    pipeline = nlp()
    wordnet = WordNetRelated(load_wordnet(home()))

    @functools.lru_cache(maxsize=8192)
    def related(lemma: str) -> frozenset[str]:
        # synonyms and derived forms; an adjective's pertainyms name what it pertains to ("French" -> "France")
        out = set(wordnet(lemma).same)
        for synset in wordnet.wn.synsets(lemma.replace(" ", "_"), pos="a")[:SENSES]:
            out |= {p.name().replace("_", " ").lower() for lem in synset.lemmas() for p in lem.pertainyms()}
        return frozenset(out)

    @functools.lru_cache(maxsize=8192)
    def heads(lemma: str) -> frozenset[str]:
        # a predicate's own sense: the synonyms of its most frequent sense and its derived forms
        out: set[str] = set()
        for pos in ("v", "n"):
            for synset in wordnet.wn.synsets(lemma.replace(" ", "_"), pos=pos)[:1]:
                for lem in synset.lemmas():
                    out.add(lem.name().lower().replace("_", " "))
                    if lem.name().lower() == lemma:
                        out |= {d.name().lower().replace("_", " ") for d in lem.derivationally_related_forms()}
        return frozenset(out)

    @functools.lru_cache(maxsize=4096)
    def person_noun(lemma: str) -> bool:
        first = wordnet.wn.synsets(lemma.replace(" ", "_"), pos="n")[:1]
        return bool(first) and first[0].lexname() == "noun.person"

    pipe = lambda texts: list(pipeline.pipe(texts))  # noqa: E731
    return EvidenceReader(pipeline, pipe, embedder().encode, related, rule, heads, person_noun)


@functools.lru_cache(maxsize=1)
def default_reader() -> EvidenceReader:
    """The embedded reader with the fitted support rule (loaded once)."""
    return build_reader(fitted_rule())


__all__ = ["WEIGHTS", "build_reader", "default_reader", "fitted_rule"]
