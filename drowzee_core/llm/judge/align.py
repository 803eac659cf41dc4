"""The judge's model (c): alignment features from frozen MiniLM embeddings, read by a small MLP.

No weights of MiniLM are trained: every text is encoded once (one forward pass per sentence, no
cross-attention), the pair's alignment features (`align_features`) are computed from the token and
sentence embeddings, and a two-layer perceptron fitted on our training mix turns them into a support
logit. The perceptron's weights and the feature scaling live in one JSON file beside the manifest
(`align_weights.json`, a few kB), so the shipped judge loads without pickles and runs at hundreds
of pairs per second on two cores.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.typing import NDArray

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.judge.align_features import FEATURES, STOP, PairText, features
from drowzee_core.llm.judge.chunk import split_claims

if TYPE_CHECKING:
    from drowzee_core.llm.embeddings import Embedder

log = logging.getLogger(__name__)

WEIGHTS = "align_weights.json"
SEP = " [SEP] "
CHUNK_JOIN = "\n"
"""How `score_inputs` joins a chunk's sentences for this model, so that it can split them again."""


def make_pair(query: str, claim: str, items: Sequence[str]) -> PairText:
    """A PairText whose evidence is `items` cut into sentences (a passage becomes its sentences)."""
    sentences = [s for item in items if item.strip() for s in split_claims(item)]
    return PairText(query.strip(), claim.strip(), sentences)


def pair_of(first: str, second: str) -> PairText:
    """The (first, second) texts `score_inputs` builds (query [SEP] claim, a joined chunk), read back."""
    query, _, claim = first.rpartition(SEP)
    return make_pair(query, claim, second.split(CHUNK_JOIN))


Encoded = tuple[NDArray[np.float32], NDArray[np.float32], NDArray[np.float32]]
"""(unit sentence vector, unit word-piece vectors, unit content word-piece vectors) of one text."""
MEMO_LIMIT = 20_000
"""Texts the encoder remembers (a few GB at most); past it the memo starts over."""


class Encoder:
    """MiniLM token and sentence embeddings (the packaged all-MiniLM-L6-v2), with a bounded per-text memo."""

    def __init__(self, model: Embedder | None = None) -> None:
        from drowzee_core.llm.embeddings import embedder

        self.model: Embedder = model or embedder()
        self.tokens_read = 0
        self._memo: dict[str, Encoded] = {}

    def encode(self, texts: Sequence[str]) -> dict[str, Encoded]:
        """Every text's encoding, computing (in batches) only the ones not remembered."""
        memo = self._memo
        wanted = list(dict.fromkeys(texts))
        new = [t for t in wanted if t not in memo]
        if len(memo) + len(new) > MEMO_LIMIT:  # a long-running server: forget, do not grow without end
            self._memo = memo = {t: memo[t] for t in wanted if t in memo}
        if new:
            for text, (pieces, vecs) in zip(new, self.model.tokens(new), strict=True):
                memo[text] = self._one(pieces, vecs)
        return {t: memo[t] for t in wanted}

    def _one(self, pieces: list[str], vecs: NDArray[np.float32]) -> Encoded:
        self.tokens_read += len(vecs)
        sent = vecs.mean(axis=0)
        sent /= np.linalg.norm(sent) or 1.0
        unit = vecs / np.maximum(np.linalg.norm(vecs, axis=1, keepdims=True), 1e-6)
        keep = [
            i
            for i, p in enumerate(pieces[: len(vecs)])
            if p not in ("[CLS]", "[SEP]") and any(c.isalnum() for c in p) and p not in STOP
        ]
        return sent.astype(np.float32), unit[1:-1].astype(np.float32), unit[keep].astype(np.float32)


def pair_features(enc: Encoder, pairs: Sequence[PairText]) -> NDArray[np.float64]:
    """The feature matrix of `pairs` (one row each, `FEATURES` columns), encoding every text once."""
    got = enc.encode([p.statement for p in pairs] + [s for p in pairs for s in p.sentences])
    rows = []
    for p in pairs:
        stmt_vec, _, stmt_content = got[p.statement]
        sents = [got[s] for s in p.sentences]
        sent_vecs = np.stack([g[0] for g in sents]) if sents else np.zeros((0, 384), np.float32)
        chunk = sent_vecs.mean(axis=0) if sents else np.zeros(384, np.float32)
        chunk = chunk / (np.linalg.norm(chunk) or 1.0)
        chunk_tokens = np.concatenate([g[1] for g in sents]) if sents else np.zeros((0, 384), np.float32)
        rows.append(features(p, stmt_vec, sent_vecs, chunk, stmt_content, chunk_tokens))
    return np.asarray(rows, dtype=np.float64)


class Perceptron:
    """Standardised features -> ReLU hidden layers -> one logit (weights from sklearn, applied with numpy)."""

    def __init__(self, mean: Sequence[float], scale: Sequence[float], layers: Sequence[tuple[Any, Any]]) -> None:
        self.mean = np.asarray(mean, dtype=np.float64)
        self.scale = np.asarray(scale, dtype=np.float64)
        self.layers = [(np.asarray(w, dtype=np.float64), np.asarray(b, dtype=np.float64)) for w, b in layers]
        if len(self.mean) != len(FEATURES) or self.layers[0][0].shape[0] != len(FEATURES):
            raise DrowzeeError(
                f"the perceptron expects {self.layers[0][0].shape[0]} features, the code makes {len(FEATURES)}"
            )

    def logits(self, x: NDArray[np.float64]) -> NDArray[np.float64]:
        """The support logit of each row of `x`."""
        h = (x - self.mean) / self.scale
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return np.asarray(h[:, 0], dtype=np.float64)

    @classmethod
    def fit(cls, x: NDArray[np.float64], y: NDArray[np.int_], hidden: Sequence[int], seed: int) -> Perceptron:
        """Fit on `x`, `y` (1 = SUPPORTED) with sklearn's MLPClassifier (early stopping on 10 % held out)."""
        from sklearn.neural_network import MLPClassifier
        from sklearn.preprocessing import StandardScaler

        scaler = StandardScaler().fit(x)
        mlp = MLPClassifier(
            hidden_layer_sizes=tuple(hidden),
            alpha=1e-3,
            max_iter=500,
            early_stopping=True,
            n_iter_no_change=20,
            random_state=seed,
        ).fit(scaler.transform(x), y)
        scale = np.where(scaler.scale_ > 0, scaler.scale_, 1.0)
        return cls(scaler.mean_.tolist(), scale.tolist(), list(zip(mlp.coefs_, mlp.intercepts_, strict=True)))

    def to_json(self) -> dict[str, Any]:
        """The weights as plain lists (with the feature names they expect)."""
        return {
            "features": list(FEATURES),
            "mean": self.mean.tolist(),
            "scale": self.scale.tolist(),
            "layers": [{"w": w.tolist(), "b": b.tolist()} for w, b in self.layers],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Perceptron:
        """Weights written by `to_json`; refuses a file made for other features."""
        if list(data.get("features", [])) != list(FEATURES):
            raise DrowzeeError(f"{WEIGHTS} was fitted on other features than this code computes; refit the judge")
        return cls(data["mean"], data["scale"], [(layer["w"], layer["b"]) for layer in data["layers"]])


class AlignJudgeModel:
    """Model (c) behind the `logit_fn` interface of `score_inputs`.

    It reads sentences one by one, so chunks are joined with `CHUNK_JOIN` and may be long
    (`max_length` word pieces of evidence beside the claim); `split_claims` says whether a response's
    sentences are scored as separate claims (lowest wins) or the response as one.
    """

    joiner = CHUNK_JOIN

    def __init__(
        self, perceptron: Perceptron, encoder: Encoder | None = None, max_length: int = 512, split_claims: bool = False
    ) -> None:
        self.perceptron = perceptron
        self._encoder = encoder
        self.max_length = max_length
        self.split_claims = split_claims

    @classmethod
    def load(cls, folder: Path, max_length: int = 512, split_claims: bool = False) -> AlignJudgeModel:
        """The model whose weights are in `folder/align_weights.json`."""
        path = folder / WEIGHTS
        if not path.is_file():
            raise DrowzeeError(f"{folder} holds no {WEIGHTS}: not an alignment judge")
        weights = Perceptron.from_json(json.loads(path.read_text(encoding="utf-8")))
        return cls(weights, max_length=max_length, split_claims=split_claims)

    @property
    def encoder(self) -> Encoder:
        """The MiniLM encoder, loaded on first use."""
        if self._encoder is None:
            self._encoder = Encoder()
        return self._encoder

    @property
    def tokens_read(self) -> int:
        """Word pieces encoded so far."""
        return 0 if self._encoder is None else self._encoder.tokens_read

    def token_count(self, text: str) -> int:
        """Word pieces of `text` (no special tokens)."""
        return self.encoder.model.count_tokens(text)

    def logits(self, firsts: Sequence[str], seconds: Sequence[str]) -> list[float]:
        """Support logits of (query [SEP] claim, chunk) pairs."""
        if not firsts:
            return []
        x = pair_features(self.encoder, [pair_of(a, b) for a, b in zip(firsts, seconds, strict=True)])
        return [float(v) for v in self.perceptron.logits(x)]


__all__ = ["CHUNK_JOIN", "WEIGHTS", "AlignJudgeModel", "Encoder", "Perceptron", "make_pair", "pair_features", "pair_of"]
