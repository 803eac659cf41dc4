"""Fault injection for `drowzee batch --resume`: SIGKILL at random moments, resume, compare with a clean run.

One uninterrupted run of `drowzee batch` is the reference. Each trial then starts the batch as a
subprocess in its own session and kills its whole process group with SIGKILL - after a random delay
or once the output holds a random number of lines, one to `--max-kills` times per trial, resumed runs
included - and runs `--resume` until a run exits by itself. The final output must hold every input
row exactly once with the reference's records: same error texts, labels, confidences and claim
statuses (`mismatched`); rows that differ in any other field but the per-node timings are counted as
`differing`, with the field paths in the JSON summary.

A SIGKILL between two `write` calls never leaves half a line, so with probability `--tear-prob` a
kill is followed by appending a random prefix of the next row's reference line (what a power cut or a
full disk leaves); the resumed run must cut it. Children that left the process group (the local model
server runs in its own session and stops itself when its starter is gone) are watched for
`--orphan-grace` seconds, then killed; the table says how many were still alive.

Run: .venv/bin/python bench/batch_faults.py --n 68 --runs 5 --seed 0 --batch-args "--no-guardian --no-seeker"
        [--input pairs.jsonl] [--max-kills 3] [--tear-prob 0.3] [--workdir DIR] [--out summary.json]
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import shlex
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.batch_common import (
    ROOT,
    batch_cmd,
    compare,
    generate_pairs,
    input_lines,
    read_records,
)
from bench.batch_trials import (
    Kill,
    Trial,
    TrialContext,
    lines_in,
    plan_kill,
    reference_run,
    tear,
    watch,
)
from bench.process_tree import kill_tree, start

log = logging.getLogger("bench.batch_faults")


def run_trial(index: int, ctx: TrialContext, rng: random.Random) -> Trial:
    """Kill and resume until a run exits by itself; then compare its output with the reference."""
    trial = Trial(index)
    folder = ctx.workdir / f"trial{index:02d}"
    folder.mkdir(parents=True, exist_ok=True)
    out = folder / "out.jsonl"
    kills_left = rng.randint(1, ctx.max_kills)
    pending: tuple[int, bytes] | None = None  # (offset, bytes) of a cut tail the next runs must remove
    began = time.monotonic()
    while True:
        trial.attempts += 1
        plan = plan_kill(rng, ctx.pace, lines_in(out), ctx.rows, trial.attempts == 1) if kills_left else None
        cmd = batch_cmd(ctx.inputs, out, ctx.extra, resume=trial.attempts > 1)
        proc = start(cmd, folder / f"run{trial.attempts}.log", ROOT)
        t0 = time.monotonic()
        state = watch(proc, out, plan, ctx.timeout)
        if state == "exited":
            trial.rc = proc.returncode
            pending = check_repair(out, pending, trial)
            break
        spent = round(time.monotonic() - t0, 2)
        children, outside, left = kill_tree(proc, ctx.orphan_grace)
        pending = check_repair(out, pending, trial)
        if state == "hung" or plan is None:
            log.error("trial %d run %d ran past %.0f s; killed", index, trial.attempts, ctx.timeout)
            trial.hung = True
            break
        kill = Kill(trial.attempts, plan.show(), spent, lines_in(out), 0, 0, children, outside, left)
        kill.torn_bytes, kill.injected_bytes, tail = cut_tail(out, ctx, rng)
        if tail is not None:
            trial.tails += 1
            pending = tail
        log.info("trial %d: %s", index, kill)
        trial.kills.append(kill)
        kills_left -= 1
    trial.seconds = round(time.monotonic() - began, 1)
    records, trial.bad_lines = read_records(out)
    trial.comparison = compare(ctx.reference, records)
    return trial


def cut_tail(out: Path, ctx: TrialContext, rng: random.Random) -> tuple[int, int, tuple[int, bytes] | None]:
    """After a kill: bytes of a torn last line, bytes of an injected one, and (offset, bytes) of either."""
    data = out.read_bytes() if out.exists() else b""
    offset = data.rfind(b"\n") + 1
    torn = len(data) - offset
    injected = tear(out, ctx.reference_lines, rng) if not torn and rng.random() < ctx.tear_prob else 0
    if not (torn or injected):
        return torn, injected, None
    return torn, injected, (offset, out.read_bytes()[offset:])


def check_repair(out: Path, pending: tuple[int, bytes] | None, trial: Trial) -> tuple[int, bytes] | None:
    """Count a cut tail as repaired once a run has replaced it with whole lines; else keep it pending."""
    if pending is None:
        return None
    offset, tail = pending
    data = out.read_bytes()
    rest = data[offset:]
    if rest == tail:
        return pending  # the run was killed before it got to the repair
    first = rest.split(b"\n", 1)[0]
    try:
        whole = not rest or (rest.find(b"\n") >= 0 and isinstance(json.loads(first), dict))
    except (json.JSONDecodeError, UnicodeDecodeError):
        whole = False
    trial.repaired += whole and data[offset - 1 : offset] in (b"\n", b"")
    return None


# --- report -------------------------------------------------------------------------------------------


def table(trials: list[Trial], reference_rc: int) -> str:
    """The per-trial table and the total, as text."""
    head = (
        f"{'trial':>5} {'kills':>5} {'at (plan -> lines)':<34} {'tails':>5} {'fixed':>5} {'orph':>4} "
        f"{'runs':>4} {'rc':>3} {'lost':>4} {'dup':>4} {'mism':>4} {'degr':>4} {'diff':>4}  ok"
    )
    lines = [head, "-" * len(head)]
    for t in trials:
        c = t.comparison
        at = ", ".join(f"{k.plan}->{k.lines}" for k in t.kills)
        ok = "yes" if t.ok(reference_rc) else "NO"
        lines.append(
            f"{t.index:>5} {len(t.kills):>5} {at:<34} {t.tails:>5} {t.repaired:>5} "
            f"{sum(k.orphans_left for k in t.kills):>4} {t.attempts:>4} {t.rc!s:>3} {len(c.lost):>4} "
            f"{len(c.duplicated):>4} {len(c.mismatched):>4} {len(c.degraded):>4} {len(c.differing):>4}  {ok}"
        )
    tot = totals(trials, reference_rc)
    lines.append("-" * len(head))
    lines.append(
        f"{'all':>5} {tot['kills']:>5} {'':<34} {tot['tails']:>5} {tot['repaired']:>5} {tot['orphans_left']:>4} "
        f"{tot['attempts']:>4} {'':>3} {tot['lost']:>4} {tot['duplicated']:>4} {tot['mismatched']:>4} "
        f"{tot['degraded']:>4} {tot['differing']:>4}  {tot['ok_trials']}/{len(trials)}"
    )
    return "\n".join(lines)


def totals(trials: list[Trial], reference_rc: int) -> dict[str, int]:
    """Sums over the trials."""
    return {
        "kills": sum(len(t.kills) for t in trials),
        "attempts": sum(t.attempts for t in trials),
        "tails": sum(t.tails for t in trials),
        "tails_at_kill": sum(bool(k.torn_bytes) for t in trials for k in t.kills),
        "repaired": sum(t.repaired for t in trials),
        "children_at_kill": sum(k.children for t in trials for k in t.kills),
        "orphans_left": sum(k.orphans_left for t in trials for k in t.kills),
        "lost": sum(len(t.comparison.lost) for t in trials),
        "duplicated": sum(len(t.comparison.duplicated) for t in trials),
        "unexpected": sum(len(t.comparison.unexpected) for t in trials),
        "mismatched": sum(len(t.comparison.mismatched) for t in trials),
        "differing": sum(len(t.comparison.differing) for t in trials),
        "degraded": sum(len(t.comparison.degraded) for t in trials),
        "bad_lines": sum(t.bad_lines for t in trials),
        "hung": sum(t.hung for t in trials),
        "ok_trials": sum(t.ok(reference_rc) for t in trials),
    }


def main() -> None:
    """Parse options, run the reference and the trials, print the table, write the summary."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--input", type=Path, help="Pairs JSONL (default: generate --n pairs of the test split).")
    ap.add_argument("--n", type=int, default=68, help="Cases to generate when there is no --input.")
    ap.add_argument("--runs", type=int, default=5, help="Trials (at least 5).")
    ap.add_argument("--seed", type=int, default=0, help="Seed of the kill moments (and of generation).")
    ap.add_argument("--batch-args", default="", help='Extra `drowzee batch` options, e.g. "--no-guardian".')
    ap.add_argument("--max-kills", type=int, default=3, help="Most kills per trial (1 to this, at random).")
    ap.add_argument("--tear-prob", type=float, default=0.3, help="Chance a kill is followed by a cut tail line.")
    ap.add_argument("--orphan-grace", type=float, default=6.0, help="Seconds escaped children get to stop.")
    ap.add_argument("--workdir", type=Path, help="Where outputs and logs go (default: a new temp folder).")
    ap.add_argument("--out", type=Path, help="JSON summary.")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    if args.runs < 5 or args.max_kills < 1 or not 0.0 <= args.tear_prob <= 1.0:
        ap.error("--runs must be >= 5, --max-kills >= 1 and --tear-prob in [0, 1]")

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="batch-faults-"))
    workdir.mkdir(parents=True, exist_ok=True)
    inputs = args.input or generate_pairs(args.n, args.seed, workdir / "pairs.jsonl")
    extra = shlex.split(args.batch_args)
    rows = input_lines(inputs)
    log.info("%d input rows; work in %s", rows, workdir)

    ref_out = workdir / "reference.jsonl"
    ref_out.unlink(missing_ok=True)
    ref_rc, pace = reference_run(inputs, ref_out, extra, workdir)
    ref_records, ref_bad = read_records(ref_out)
    reference = {int(r["row"]): r for r in ref_records}
    complete = sorted(reference) == list(range(1, rows + 1)) and not ref_bad and len(ref_records) == rows
    if not complete:
        log.error("the reference run itself is incomplete (%d records for %d rows)", len(ref_records), rows)
    log.info(
        "reference: exit %d, %.1f s (first line %.1f s, %.2f s/row)",
        *(ref_rc, pace.total_s, pace.first_line_s, pace.per_row_s),
    )
    ref_lines = {int(json.loads(raw)["row"]): raw + b"\n" for raw in ref_out.read_bytes().splitlines()}

    ctx = TrialContext(
        inputs=inputs,
        workdir=workdir,
        extra=extra,
        rows=rows,
        reference=reference,
        reference_lines=ref_lines,
        pace=pace,
        max_kills=args.max_kills,
        tear_prob=args.tear_prob,
        orphan_grace=args.orphan_grace,
        timeout=3 * pace.total_s + 120,
    )
    rng = random.Random(args.seed)
    trials = []
    for i in range(1, args.runs + 1):
        trials.append(run_trial(i, ctx, rng))
        log.info("trial %d done in %.1f s: %s", i, trials[-1].seconds, trials[-1].comparison.as_dict())

    tot = totals(trials, ref_rc)
    summary = {
        "input": str(inputs),
        "rows": rows,
        "batch_args": extra,
        "seed": args.seed,
        "runs": args.runs,
        "tear_prob": args.tear_prob,
        "workdir": str(workdir),
        "reference": {"rc": ref_rc, "complete": complete, **asdict(pace)},
        "trials": [
            {**{k: v for k, v in asdict(t).items() if k != "comparison"}, "comparison": t.comparison.as_dict()}
            for t in trials
        ],
        "totals": tot,
        "ok": complete and tot["ok_trials"] == len(trials),
    }
    if args.out:
        args.out.write_text(json.dumps(summary, indent=1), "utf-8")
    print(f"drowzee batch {' '.join(extra)}: {rows} rows, reference exit {ref_rc} in {pace.total_s:.1f} s")
    print(table(trials, ref_rc))
    print(
        f"kills {tot['kills']} ({tot['tails_at_kill']} left a torn line, {tot['tails'] - tot['tails_at_kill']} "
        f"tails injected, {tot['repaired']} repaired); children at kills {tot['children_at_kill']}, "
        f"orphans left after {args.orphan_grace:.0f} s {tot['orphans_left']}; lost {tot['lost']}, duplicated "
        f"{tot['duplicated']}, mismatched {tot['mismatched']} (degraded in this run only {tot['degraded']}), "
        f"differing {tot['differing']}: "
        f"{'PASS' if summary['ok'] else 'FAIL'}"
    )
    raise SystemExit(0 if summary["ok"] else 1)


if __name__ == "__main__":
    main()
