"""Truth Guardian figures: trained adapters next to their base models zero- and few-shot (FactCHD's baselines).

For every base given, runs `drowzee eval guardian` three times on the same test pairs: the base model
with FactCHD's zero-shot fallacy-finder prompt, with K worked examples from the training pairs, and the
trained adapter; then prints a Markdown table (FactCls, ExpMatch, accuracy, macro-F1, unlabeled answers,
per-pattern FactCls) and the adapters' training figures (steps, tokens/s, wall time) from their manifests.
Answers are cached (SQLite), so an interrupted run continues where it stopped.

Run: .venv/bin/python bench/guardian.py --test test.jsonl --train train.jsonl \
        --adapter smollm2-135m=adapters/smollm2 --adapter gemma3-270m=adapters/gemma [--shots 4] [--out DIR]
"""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

log = logging.getLogger("bench.guardian")
DROWZEE = [str(Path(sys.executable).with_name("drowzee"))]  # the CLI installed beside this interpreter


def run_eval(args: list[str], out: Path) -> dict[str, Any]:
    """One `drowzee eval guardian` run; its JSON summary."""
    cmd = [*DROWZEE, "eval", "guardian", *args, "--out", str(out), "--json"]
    log.info("running %s", " ".join(cmd))
    done = subprocess.run(cmd, capture_output=True, text=True, check=False)
    if done.returncode not in (0, 1) or not done.stdout.strip():
        raise SystemExit(f"eval failed ({done.returncode}): {done.stderr[-2000:]}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def row(name: str, res: dict[str, Any], patterns: list[str]) -> str:
    """One table row."""
    m = res["metrics"]["all"]
    per = " | ".join(f"{res['metrics'].get(p, {}).get('factcls', 0.0):.3f}" for p in patterns)
    return (
        f"| {name} | {m['factcls']:.3f} | {m['exp_match']:.3f} | {m['acc']:.3f} | {m['macro_f1']:.3f} |"
        f" {m['fail']}/{m['num']} | {per} |"
    )


def main() -> None:
    """Run the grid and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--test", type=Path, required=True)
    parser.add_argument("--train", type=Path, required=True, help="pairs the few-shot examples come from")
    parser.add_argument("--adapter", action="append", default=[], help="BASE=ADAPTER_DIR (repeatable)")
    parser.add_argument("--shots", type=int, default=4)
    parser.add_argument("--out", type=Path, default=Path("guardian-eval"))
    args = parser.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    args.out.mkdir(parents=True, exist_ok=True)
    patterns = ["vanilla", "multi_hop", "comparison", "set_operation"]
    lines = [
        "| model | FactCls | ExpMatch | acc | macro-F1 | no label | " + " | ".join(patterns) + " |",
        "| --- " * (6 + len(patterns)) + "|",
    ]
    training = []
    for spec in args.adapter:
        base, _, folder = spec.partition("=")
        grid = [
            ("zero-shot", ["--base", base]),
            (f"{args.shots}-shot", ["--base", base, "--shots", str(args.shots), "--shots-from", str(args.train)]),
            ("LoRA Guardian", ["--adapter", folder]),
        ]
        for label, extra in grid:
            res = run_eval(["--data", str(args.test), *extra], args.out / f"{base}-{label.split()[0]}.jsonl")
            lines.append(row(f"{base} {label}", res, patterns))
        manifest = json.loads((Path(folder) / "manifest.json").read_text())
        t = manifest["training"]
        training.append(
            f"| {base} | {t['steps']} | {t['examples']} | {t['tokens']} | {t['tokens_per_second']} |"
            f" {t['seconds']} | {t['train_loss']} | {t['eval_loss']} |"
        )
    print("\n".join(lines))
    print()
    print("| base | steps | train examples | tokens | tokens/s | wall s | train loss | eval loss |")
    print("| --- " * 8 + "|")
    print("\n".join(training))


if __name__ == "__main__":
    main()
