"""Truth Guardian model selection on a dev split, then the chosen model on test (never chosen on test).

Candidates: every base given with `--base` zero-shot and with K worked examples from the training pairs
(FactCHD's baselines), and every trained adapter given with `--adapter`. All are evaluated on the dev
pairs; the one with the highest dev FactCls (then macro-F1) is chosen, and only it is evaluated on the
test pairs. Both tables print every figure with its 95 % bootstrap interval beside the constant
baselines (always NON-FACTUAL, always FACTUAL, majority label). Answers are cached, so a re-run costs
nothing and an interrupted run continues where it stopped.

Run (generate the splits with `drowzee generate factchd --n 40 --seed 1 --split dev|test`):
    python bench/guardian.py --dev dev.jsonl --test test.jsonl --train train.jsonl \
        --base gemma3-270m --base smollm2-135m --adapter finetune/adapters/guardian [--shots 4] [--out DIR]
"""

from __future__ import annotations

import argparse
import logging
from dataclasses import replace
from pathlib import Path

from drowzee_core.oracles.stats import table
from finetune.evaluate import EvalReport, EvalRequest, run_guardian_eval

log = logging.getLogger("bench.guardian")


def candidates(args: argparse.Namespace) -> list[tuple[str, EvalRequest]]:
    """(label, request without data) of every candidate."""
    none = Path()
    out: list[tuple[str, EvalRequest]] = []
    for base in args.base:
        out.append((f"{base} zero-shot", EvalRequest(none, none, base=base)))
        if args.shots:
            few = EvalRequest(none, none, base=base, shots=args.shots, shots_from=args.train)
            out.append((f"{base} {args.shots}-shot", few))
    for folder in args.adapter:
        out.append((f"LoRA {folder.name} ({folder})", EvalRequest(none, none, adapter=folder)))
    return out


def run(label: str, data: Path, out: Path, request: EvalRequest) -> EvalReport:
    """One evaluation of `request` on `data`; its report with the model row renamed to `label`."""
    log.info("%s on %s", label, data)
    report = run_guardian_eval(replace(request, data=data, out=out))
    if report.failed:
        raise SystemExit(f"{label}: {report.failed} calls failed; run again (answers so far are cached)")
    return report.model_copy(update={"figures": report.figures.model_copy(update={"name": label})})


def main() -> None:
    """Evaluate the candidates on dev, choose there, report the choice on test."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dev", type=Path, required=True, help="pairs the choice is made on")
    parser.add_argument("--test", type=Path, required=True, help="pairs only the chosen model is reported on")
    parser.add_argument("--train", type=Path, help="pairs the few-shot examples come from")
    parser.add_argument("--base", action="append", default=[], help="base model (repeatable)")
    parser.add_argument("--adapter", action="append", default=[], type=Path, help="adapter folder (repeatable)")
    parser.add_argument("--shots", type=int, default=4)
    parser.add_argument("--out", type=Path, default=Path("guardian-eval"))
    args = parser.parse_args()
    if args.base and args.shots and not args.train:
        parser.error("--shots needs --train (few-shot examples come from training pairs, never dev or test)")
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    args.out.mkdir(parents=True, exist_ok=True)
    dev = [run(label, args.dev, args.out / f"dev-{i}.jsonl", opts) for i, (label, opts) in enumerate(candidates(args))]
    print(f"Dev ({args.dev}, {dev[0].pairs} pairs):\n")
    print(table([r.figures for r in dev] + dev[0].baselines))
    best = max(range(len(dev)), key=lambda i: (dev[i].figures.factcls.value, dev[i].figures.macro_f1.value))
    label, opts = candidates(args)[best]
    print(f"\nChosen on dev by FactCls (then macro-F1): {label}\n")
    test = run(label, args.test, args.out / "test-chosen.jsonl", opts)
    print(f"Test ({args.test}, {test.pairs} pairs):\n")
    print(table([test.figures, *test.baselines]))


if __name__ == "__main__":
    main()
