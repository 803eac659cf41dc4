"""Does a fine-tuned cross-encoder read evidence better than the reader? Train one on `train/`, score the dev sets.

Issue 34 allows a cross-encoder "if it beats [the alignment features] on dev", fitted on
`../shared/data/train/` only. This script is that experiment, meant for a lent GPU:

- `pack DIR`: on this machine, the bundled all-MiniLM-L6-v2 (word embeddings as int8 with a scale per
  row, the rest fp16, so that the pack travels within the device tool's limits), its tokenizer, every
  row of `train/` as (evidence, claim, SUPPORTED?) with the rows of our FEVER validation file held
  out, and the validation pair files (`bench/evidence_reading.py --write-pairs`) to score.
- `run DIR OUT`: fine-tune the encoder with a fresh one-logit head on the train rows (binary:
  SUPPORTED or not; a seeded 5 % held out for an in-domain figure), then score each validation pair:
  the claim is the query and the response, the premises are windows of the pair's evidence, and the
  pair is FACTUAL when the best window's P(SUPPORTED) >= 0.5. No threshold, weight or choice is fitted
  on the validation pairs; the balanced accuracy stands beside the constants, with a bootstrap interval.
  Writes `metrics.json` and the fine-tuned weights (fp16, in pieces under 16 MB) to OUT.

Run: python bench/nli_cross_encoder.py pack .nli --pairs /tmp/pairs
     python bench/nli_cross_encoder.py run .nli out/ [--epochs 2] [--limit 0] [--max-steps 0] [--eval-limit 0]
Only torch, transformers and numpy are needed for `run` (the device image has them, and not the
project's own dependencies): that is why its few metrics (balanced accuracy, a bootstrap interval,
AUC) are written here rather than imported from `finetune.judge.evaluate`.
"""

from __future__ import annotations

import argparse
import json
import logging
import lzma
import math
import random
import time
from pathlib import Path
from typing import Any

from nli_metrics import auc, bacc, interval, windows

log = logging.getLogger("nli")
TRAIN_ROOT = Path(__file__).resolve().parents[2] / "shared" / "data" / "train"
SETS = ("wice_dev_half", "halueval200", "strategyqa_dev", "factchd_sample", "fever_train")
"""Validation pair files scored (`fever_train` is held out of training)."""
MAX_PREMISE_CHARS = 2000
MAX_LENGTH = 384


# ---------------------------------------------------------------------- run (the GPU)
def _model(pack_dir: Path, device: Any) -> Any:
    import numpy as np
    import torch
    from transformers import AutoConfig, AutoModelForSequenceClassification

    config = AutoConfig.from_pretrained(str(pack_dir), num_labels=1)
    model = AutoModelForSequenceClassification.from_config(config)
    packed = np.load(pack_dir / "weights.npz")
    state: dict[str, Any] = {}
    for key in packed.files:
        if key.endswith(".scale"):
            continue
        if key.endswith(".q"):
            name = key[: -len(".q")]
            state[name] = torch.from_numpy(packed[key].astype(np.float32) * packed[name + ".scale"])
        else:
            state[key] = torch.from_numpy(packed[key].astype(np.float32))
    state = {("bert." + k if not k.startswith("bert.") else k): v for k, v in state.items()}
    missing, unexpected = model.load_state_dict(state, strict=False)
    log.info("weights loaded; new: %s; unused: %s", missing, unexpected)
    return model.to(device)


def run(
    pack_dir: Path,
    out: Path,
    epochs: float,
    limit: int,
    max_steps: int,
    batch: int,
    lr: float,
    eval_limit: int,
    max_minutes: float,
) -> None:
    """Fine-tune on the train rows, score the held-out rows and the validation pairs."""
    import torch
    from transformers import AutoTokenizer

    started = time.time()
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    out.mkdir(parents=True, exist_ok=True)
    torch.manual_seed(0)
    rng = random.Random(0)
    with lzma.open(pack_dir / "train.jsonl.xz", "rt", encoding="utf-8") as f:
        rows = [json.loads(x) for x in f]
    rng.shuffle(rows)
    if limit:
        rows = rows[:limit]
    n_dev = max(1, len(rows) // 20)
    dev, train = rows[:n_dev], rows[n_dev:]
    tok = AutoTokenizer.from_pretrained(str(pack_dir))
    model = _model(pack_dir, device)
    steps_per_epoch = math.ceil(len(train) / batch)
    total = max_steps or int(steps_per_epoch * epochs)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=0.01)
    warm = max(1, total // 16)
    sched = torch.optim.lr_scheduler.LambdaLR(opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, 1 - s / total))
    lossf = torch.nn.BCEWithLogitsLoss()
    model.train()
    step, seen, running = 0, 0, 0.0
    while step < total:
        order = list(range(len(train)))
        rng.shuffle(order)
        for i in range(0, len(order), batch):
            part = [train[j] for j in order[i : i + batch]]
            enc = tok(
                [r[0] for r in part],
                [r[1] for r in part],
                truncation="only_first",
                max_length=MAX_LENGTH,
                padding=True,
                return_tensors="pt",
            ).to(device)
            y = torch.tensor([float(r[2]) for r in part], device=device)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
                logits = model(**enc).logits.squeeze(-1)
            loss = lossf(logits.float(), y)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            sched.step()
            opt.zero_grad(set_to_none=True)
            step += 1
            seen += len(part)
            running = 0.98 * running + 0.02 * loss.item() if step > 1 else loss.item()
            if step % 200 == 0:
                log.info("step %d/%d loss %.4f %.0f s", step, total, running, time.time() - started)
            if step >= total or (max_minutes and time.time() - started > 60 * max_minutes):
                total = step
                break
    train_seconds = time.time() - started
    model.eval()

    @torch.no_grad()
    def score(premises: list[str], claims: list[str]) -> list[float]:
        out_p: list[float] = []
        for i in range(0, len(premises), 256):
            enc = tok(
                premises[i : i + 256],
                claims[i : i + 256],
                truncation="only_first",
                max_length=MAX_LENGTH,
                padding=True,
                return_tensors="pt",
            ).to(device)
            with torch.autocast(device.type, dtype=torch.bfloat16, enabled=device.type == "cuda"):
                out_p += torch.sigmoid(model(**enc).logits.squeeze(-1).float()).tolist()
        return out_p

    metrics: dict[str, Any] = {
        "train_rows": len(train),
        "steps": step,
        "examples_seen": seen,
        "train_seconds": round(train_seconds, 1),
        "device": torch.cuda.get_device_name(0) if device.type == "cuda" else "cpu",
        "rule": "FACTUAL iff max over evidence windows of P(SUPPORTED) >= 0.5 (nothing fitted on these sets)",
    }
    p_dev = score([r[0] for r in dev], [r[1] for r in dev])
    gold = [r[2] for r in dev]
    pred = [int(p >= 0.5) for p in p_dev]
    by_source: dict[str, list[int]] = {}
    for r, g, q in zip(dev, gold, pred, strict=True):
        by_source.setdefault(r[3], []).append(int(g == q))
    metrics["train_held_out"] = {
        "n": len(dev),
        "accuracy": round(sum(int(g == q) for g, q in zip(gold, pred, strict=True)) / len(dev), 3),
        "bacc": round(bacc(gold, pred), 3),
        "by_source": {k: [len(v), round(sum(v) / len(v), 3)] for k, v in sorted(by_source.items())},
    }
    for name in SETS:
        path = pack_dir / f"{name}.jsonl"
        pairs = [json.loads(x) for x in path.read_text("utf-8").splitlines() if x.strip()]
        pairs = pairs[:eval_limit] if eval_limit else pairs
        premises, claims, owner = [], [], []
        for k, p in enumerate(pairs):
            claim = (
                f"{p['query'].strip()} {p['response'].strip()}".strip() if p.get("query", "").strip() else p["response"]
            )
            if p.get("query", "").strip().lower().startswith("is the following statement"):
                claim = p["response"]
            for w in windows(p["evidence"]):
                premises.append(w)
                claims.append(claim)
                owner.append(k)
        probs = score(premises, claims)
        best = [0.0] * len(pairs)
        for k, pr in zip(owner, probs, strict=True):
            best[k] = max(best[k], pr)
        gold = [int(p["label"] == "FACTUAL") for p in pairs]
        pred = [int(b >= 0.5) for b in best]
        metrics[name] = {
            "n": len(pairs),
            "bacc": round(bacc(gold, pred), 3),
            "bacc_95": interval(gold, pred),
            "accuracy": round(sum(int(g == q) for g, q in zip(gold, pred, strict=True)) / len(pairs), 3),
            "always_factual_accuracy": round(sum(gold) / len(gold), 3),
            "auc": round(auc(gold, best), 3),
            "predicted_factual": sum(pred),
            "windows": len(premises),
        }
        log.info("%s: %s", name, metrics[name])
    metrics["seconds"] = round(time.time() - started, 1)
    (out / "metrics.json").write_text(json.dumps(metrics, indent=1), "utf-8")
    if device.type == "cuda":
        state = {k: v.half().cpu() for k, v in model.state_dict().items()}
        torch.save(state, out / "weights.pt")
        blob = (out / "weights.pt").read_bytes()
        (out / "weights.pt").unlink()
        for i in range(0, len(blob), 15 * 2**20):
            (out / f"weights.pt.{i // (15 * 2**20)}").write_bytes(blob[i : i + 15 * 2**20])
    log.info("done in %.0f s", time.time() - started)


def main() -> None:
    """`pack` or `run` (module docstring)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("pack")
    p.add_argument("dir", type=Path)
    p.add_argument("--pairs", type=Path, required=True, help="bench/evidence_reading.py --write-pairs folder")
    r = sub.add_parser("run")
    r.add_argument("dir", type=Path)
    r.add_argument("out", type=Path)
    r.add_argument("--epochs", type=float, default=2.0)
    r.add_argument("--limit", type=int, default=0, help="first N shuffled train rows (0: all)")
    r.add_argument("--max-steps", type=int, default=0)
    r.add_argument("--batch", type=int, default=64)
    r.add_argument("--lr", type=float, default=3e-5)
    r.add_argument("--max-minutes", type=float, default=0.0, help="stop training after this long (0: no limit)")
    r.add_argument("--eval-limit", type=int, default=0, help="first N pairs of each validation set (0: all)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    if args.cmd == "pack":
        import sys

        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
        from nli_pack import pack  # the project's own code: this machine only

        pack(args.dir, args.pairs, TRAIN_ROOT, SETS, MAX_PREMISE_CHARS)
    else:
        run(
            args.dir,
            args.out,
            args.epochs,
            args.limit,
            args.max_steps,
            args.batch,
            args.lr,
            args.eval_limit,
            args.max_minutes,
        )


if __name__ == "__main__":
    main()
