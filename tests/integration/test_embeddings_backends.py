"""The two embedding backends agree, and a verify process on the default one loads neither torch nor scipy.stats.

Real models: the int8 ONNX export (onnxruntime) and the float model (sentence-transformers).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from drowzee_core.errors import DrowzeeError
from drowzee_core.llm.embeddings import OnnxEmbedder, SentenceEmbedder, backend_name, embedder

pytestmark = pytest.mark.integration

TEXTS = [
    "The ferry leaves the harbour at dawn.",
    "At first light the boat departs from the port.",
    "Quarterly revenue fell by a third.",
    "Who painted the ceiling of the chapel?",
    "a",
    "word " * 400,  # past the 256 pieces the model reads: truncated alike
]


@pytest.fixture(scope="module")
def both() -> tuple[OnnxEmbedder, SentenceEmbedder]:
    return OnnxEmbedder(), SentenceEmbedder()


def test_sentence_vectors_agree(both: tuple[OnnxEmbedder, SentenceEmbedder]) -> None:
    onnx, torch_ = both
    a, b = onnx.encode(TEXTS), torch_.encode(TEXTS)
    assert a.shape == b.shape == (len(TEXTS), 384)
    assert np.allclose(np.linalg.norm(a, axis=1), 1.0, atol=1e-5)
    assert float(np.min((a * b).sum(axis=1))) >= 0.99
    # what consumers read: similarities between texts, and their order
    assert float(np.abs(a @ a.T - b @ b.T).max()) <= 0.02
    assert float(a[0] @ a[1]) > float(a[0] @ a[2])


def test_word_pieces_agree(both: tuple[OnnxEmbedder, SentenceEmbedder]) -> None:
    onnx, torch_ = both
    for (pa, va), (pb, vb) in zip(onnx.tokens(TEXTS), torch_.tokens(TEXTS), strict=True):
        assert pa == pb
        assert pa[0] == "[CLS]" and pa[-1] == "[SEP]" and len(pa) <= 256
        cos = (va * vb).sum(axis=1) / np.linalg.norm(va, axis=1) / np.linalg.norm(vb, axis=1)
        assert float(cos.min()) >= 0.98
    assert onnx.count_tokens(TEXTS[-1]) == torch_.count_tokens(TEXTS[-1]) == 400  # counting never truncates


def test_empty_input() -> None:
    assert embedder("onnx").encode([]).shape == (0, 384)
    assert embedder("onnx").tokens([]) == []


def test_backend_is_chosen_by_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("DROWZEE_EMBEDDINGS", raising=False)
    assert backend_name() == "onnx"
    monkeypatch.setenv("DROWZEE_EMBEDDINGS", "Torch")
    assert backend_name() == "torch"
    monkeypatch.setenv("DROWZEE_EMBEDDINGS", "tf")
    with pytest.raises(DrowzeeError, match="onnx, torch"):
        backend_name()


def test_embedder_is_shared() -> None:
    assert embedder("onnx") is embedder("onnx")


def test_verify_process_loads_no_torch(seed_kb: tuple[Path, object], tmp_path: Path) -> None:
    """A whole `drowzee verify` (reader, KB check, Seeker with the dense re-rank) in a fresh process."""
    repo = Path(__file__).resolve().parents[2]
    code = (
        "import sys, json\n"
        "from cli.main import app\n"
        "try:\n"
        "    app()\n"
        "except SystemExit as e:\n"
        "    code = e.code\n"
        "heavy = sorted(m for m in ('torch', 'scipy.stats', 'sklearn', 'sentence_transformers') if m in sys.modules)\n"
        "print(json.dumps({'exit': code, 'heavy': heavy}), file=sys.stderr)\n"
    )
    env = dict(os.environ, DROWZEE_VERIFY_CACHE="false", PYTHONPATH=str(repo))
    env.pop("DROWZEE_EMBEDDINGS", None)
    argv = ["verify", "--kb", str(seed_kb[0]), "--no-guardian", "--json"]
    argv += ["--query", "What is the capital of France?", "--response", "Paris is the capital of France."]
    done = subprocess.run(
        [sys.executable, "-c", code, *argv], env=env, cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    report = json.loads(done.stderr.strip().splitlines()[-1])
    assert report["exit"] in (0, None), done.stderr[-2000:]
    assert report["heavy"] == []
    assert json.loads(done.stdout)["label"] == "FACTUAL"
