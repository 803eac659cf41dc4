"""`pack` for `bench/nli_cross_encoder.py`: what the GPU run needs, built on this machine.

The bundled all-MiniLM-L6-v2 (word embeddings as int8 with a scale per row, the rest fp16, so the pack
travels within the device tool's 64 MiB), its tokenizer, every row of `../shared/data/train/` as
(evidence, claim, SUPPORTED?, source) with the rows of our FEVER validation file held out, and the
validation pair files to score.
"""

from __future__ import annotations

import json
import logging
import lzma
import shutil
from pathlib import Path
from typing import Any

log = logging.getLogger("nli")


def pack(out: Path, pairs: Path, train_root: Path, sets: tuple[str, ...], max_premise_chars: int) -> None:
    """Weights, tokenizer, the train rows under `train_root` and the validation pair files `sets` into `out`.

    The caller (`nli_cross_encoder.py pack`) passes its own constants, so this module imports nothing of it.
    """
    import numpy as np
    from safetensors.numpy import load_file

    from drowzee_core.llm.judge.cross_encoder import base_path

    out.mkdir(parents=True, exist_ok=True)
    base = base_path()
    for name in ("config.json", "tokenizer.json", "tokenizer_config.json", "vocab.txt", "special_tokens_map.json"):
        shutil.copy(base / name, out / name)
    weights = load_file(str(base / "model.safetensors"))
    packed: dict[str, Any] = {}
    for key, value in weights.items():
        if key.endswith("word_embeddings.weight"):
            scale = np.abs(value).max(axis=1, keepdims=True) / 127.0 + 1e-12
            packed[key + ".q"] = np.round(value / scale).astype(np.int8)
            packed[key + ".scale"] = scale.astype(np.float32)
        else:
            packed[key] = value.astype(np.float16)
    np.savez(out / "weights.npz", **packed)
    held = {json.loads(x)["id"] for x in (pairs / "fever_train.jsonl").read_text("utf-8").splitlines() if x.strip()}
    rows = []
    for path in sorted(train_root.glob("*/*.jsonl")):
        for line in path.read_text("utf-8").splitlines():
            r = json.loads(line)
            if r["id"] in held:
                continue
            rows.append([r["evidence"][:max_premise_chars], r["claim"], int(r["label"] == "SUPPORTED"), r["source"]])
    with lzma.open(out / "train.jsonl.xz", "wt", encoding="utf-8") as f:
        f.writelines(json.dumps(r) + "\n" for r in rows)
    for name in sets:
        shutil.copy(pairs / f"{name}.jsonl", out / f"{name}.jsonl")
    log.info("packed %d train rows (held out %d), %s", len(rows), len(held), sorted(p.name for p in out.iterdir()))
