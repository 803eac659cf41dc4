"""bench/verifier_tables.py renders a verifier report's figures beside its constant baselines."""

from __future__ import annotations

from bench.verifier_tables import render


def _m(v: float) -> dict[str, float]:
    return {"value": v, "low": v - 0.1, "high": min(v + 0.1, 1.0)}


def _block(n: int, factcls: float, acc: float) -> dict[str, object]:
    return {
        "verifier": {"name": "verifier", "num": n, "factcls": _m(factcls), "acc": _m(acc), "exp_match": None},
        "baselines": [
            {"name": "always NON-FACTUAL", "factcls": _m(0.6), "acc": _m(0.4)},
            {"name": "always FACTUAL", "factcls": _m(0.0), "acc": _m(0.6)},
            {"name": "majority (FACTUAL)", "factcls": _m(0.0), "acc": _m(0.6)},
        ],
        "degraded": 2,
        "errors": 0,
    }


def test_rows_ablation_timing_and_audit() -> None:
    report = {
        "summary": {"overall": _block(50, 0.7, 0.8), "by_category": {"Operation": _block(10, 1.0, 1.0)}},
        "ablation": [{"sources": "kb_check", "factcls": "0.700 [0.6, 0.8]", "acc": "0.800 [0.7, 0.9]"}],
        "timing": {
            "seconds_per_pair": 0.7,
            "median_seconds": 0.5,
            "p95_seconds": 1.4,
            "pairs_per_minute": 85.0,
            "per_node": {"seeker": 0.6, "claims": 0.01},
        },
        "audit": [{"model": "m", "rows": "all", "n": 50, "acc": "0.800 [0.7, 0.9]", "majority_acc": 0.6}],
    }
    lines = render(report).splitlines()
    assert lines[2] == "| **all** | 50 | 0.700 [0.600, 0.800] | 0.800 [0.700, 0.900] | - | 0.400 / 0.600 | 0.600 |"
    assert lines[3].startswith("| category: Operation | 10 | 1.000 [0.900, 1.000]")
    assert "| kb_check | 0.700 [0.6, 0.8] | 0.800 [0.7, 0.9] | - | - |" in lines
    timing = "Timing: 0.7 s per pair (median 0.5, p95 1.4; 85.0 pairs/min); per node (s): claims 0.01, seeker 0.6."
    assert timing in lines
    assert "Degraded verdicts: 2, errors: 0" in lines
    assert lines[-1] == "| m | all | 50 | 0.800 [0.7, 0.9] | 0.600 |"
