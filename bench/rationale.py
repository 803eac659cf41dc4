"""ERBench rationale oracle vs human labels: agreement, the substring baseline, and every disagreement.

Reads `../shared/data/peers/erbench/human_labels/*/*_correct.csv` (1,000 rows: Claude's and Gemini's
answers, `reasoning_manual` set by people) and prints, as JSON: rows, our agreement, the agreement of
ERBench's substring heuristic on the same rows, and each row where ours differs from the human label.

Run: .venv/bin/python bench/rationale.py [--peers ../shared/data/peers]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from drowzee_core.oracles.inputs import read_rows
from drowzee_core.oracles.rationale import substring_baseline
from drowzee_core.oracles.score import score_erbench

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    """Score every labelled file and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--peers", type=Path, default=ROOT.parent / "shared" / "data" / "peers")
    args = parser.parse_args()
    files = sorted((args.peers / "erbench" / "human_labels").glob("*/*_correct.csv"))
    if not files:
        raise SystemExit(f"no human-labelled files under {args.peers / 'erbench' / 'human_labels'}")
    n = ours = base = 0
    disagreements = []
    for path in files:
        judged, _ = score_erbench(read_rows(path))
        for r in judged:
            human = min(1, int(float(r["reasoning_manual"])))
            n += 1
            ours += int(r["rationale_correct"]) == human
            base += int(substring_baseline(r["model_reasoning"], r["gold_entity"])) == human
            if int(r["rationale_correct"]) != human:
                disagreements.append(
                    {
                        "file": f"{path.parent.name}/{path.name}",
                        "human": human,
                        "entity": r["gold_entity"],
                        "rationale": r["model_reasoning"][:300],
                    }
                )
    print(
        json.dumps(
            {
                "rows": n,
                "oracle_agreement": round(ours / n, 4),
                "substring_agreement": round(base / n, 4),
                "disagreements": disagreements,
            },
            indent=1,
            ensure_ascii=False,
        )
    )


if __name__ == "__main__":
    main()
