"""Cold-start benchmark of `drowzee verify`: one pair, each run in a fresh Python process.

Runs the CLI entry point N times per mode, with the call cache off, and reports the median, min and max
wall time of the whole process (import, models, Prolog, the KB, the verdict, exit), plus the median of
each graph node's own timing (read from the verdict's provenance, `--json`). Modes:

- `kb-reader`: the KB check and the reader only (`--no-guardian --no-seeker`);
- `no-guardian`: the KB check, the reader and the Seeker (retrieval and the judge);
- `guardian`: everything, the Guardian's model server included.

Every run checks the pair in its own process (`DROWZEE_SERVICE_URL=off`) unless `--service URL` names a
running service (`python app.py`, started with the same environment and ready): then every run hands its
pair to that service (`drowzee verify`'s reuse of a running service; a service that runs other settings
fails the run), and the wall time is that of the whole CLI process all the same.

One discarded run per mode comes first: it writes the saved states a cold process reads (the lexicon,
the KB index, the fingerprint memo under `<DROWZEE_CACHE>/cache/`), as any earlier use would have.
The runs of the modes are interleaved, so drift on a busy machine hits them alike. `--repo` may be an
older checkout (its CLI at `drowzee_core/cli/` before the layout issue): the entry point is found there.

Example:
    python bench/cold_start.py -n 5 --mode kb-reader --mode no-guardian

"""

from __future__ import annotations

import argparse
import json
import logging
import os
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

log = logging.getLogger("cold_start")

DEFAULT_QUERY = "What is the capital of France?"
DEFAULT_RESPONSE = "Paris is the capital of France."
DEFAULT_SWIPL_BIN = Path.home() / ".cache/drowzee/swipl-9.2.9/bin"
MODES = {"kb-reader": ["--no-guardian", "--no-seeker"], "no-guardian": ["--no-guardian"], "guardian": []}


def entry_point(repo: Path) -> str:
    """The code the `drowzee` console script of `repo` runs.

    `cli.main.run` (or `app` before it existed), or `drowzee_core.cli.main.app` before the layout.
    """
    main = repo / "cli" / "main.py"
    if not main.is_file():
        return "from drowzee_core.cli.main import app; app()"
    function = "run" if "\ndef run() -> None:" in main.read_text(encoding="utf-8") else "app"
    return f"from cli.main import {function}; {function}()"


@dataclass
class ModeResult:
    """Timings of one mode (with or without the Guardian) over all its runs."""

    mode: str
    walls: list[float] = field(default_factory=list)
    nodes: dict[str, list[float]] = field(default_factory=dict)
    labels: list[str] = field(default_factory=list)
    failures: int = 0


def child_env(repo: Path, swipl_bin: Path, extra: list[str] | None = None) -> dict[str, str]:
    """The environment of each run: the repo first on PYTHONPATH, SWI-Prolog on PATH, no call cache.

    Args:
        repo: Repository root whose modules must win over any installed copy.
        swipl_bin: Folder holding the `swipl` binary janus needs.
        extra: `KEY=VALUE` settings applied last.

    Returns:
        A copy of this process's environment with those settings.

    """
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(repo), *filter(None, [env.get("PYTHONPATH")])])
    env["PATH"] = os.pathsep.join([str(swipl_bin), env.get("PATH", "")])
    env["DROWZEE_VERIFY_CACHE"] = "false"
    env["DROWZEE_SERVICE_URL"] = "off"  # each run checks its pair itself unless --service says otherwise
    for item in extra or []:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise ValueError(f"--env wants KEY=VALUE, got {item!r}")
        env[key] = value
    return env


def run_once(
    python: Path, repo: Path, env: dict[str, str], args: list[str], timeout: float
) -> tuple[float, dict[str, Any]]:
    """Run one cold `drowzee verify` and time it.

    Args:
        python: Interpreter to run.
        repo: Working directory of the run (the repository root).
        env: Environment of the run.
        args: `verify` arguments (query, response, mode flags, `--json`).
        timeout: Seconds before the run is killed.

    Returns:
        (wall seconds of the whole process, the parsed `--json` verdict).

    Raises:
        RuntimeError: The command failed or printed no verdict.

    """
    started = time.perf_counter()
    proc = subprocess.run(
        [str(python), "-c", entry_point(repo), "verify", *args],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    wall = time.perf_counter() - started
    if proc.returncode != 0:
        raise RuntimeError(f"exit {proc.returncode}: {proc.stderr.strip()[-500:]}")
    try:
        verdict: dict[str, Any] = json.loads(proc.stdout)
    except json.JSONDecodeError as exc:
        raise RuntimeError(f"no JSON verdict on stdout ({exc}): {proc.stdout[:200]!r}") from exc
    return wall, verdict


def bench(
    python: Path,
    repo: Path,
    swipl_bin: Path,
    runs: int,
    modes: list[str],
    query: str,
    response: str,
    timeout: float,
    extra_env: list[str] | None = None,
) -> list[ModeResult]:
    """Time `runs` cold runs of each mode, the modes interleaved run by run (so drift hits both alike).

    Args:
        python: Interpreter to run.
        repo: Repository root.
        swipl_bin: Folder holding `swipl`.
        runs: Runs per mode.
        modes: Keys of `MODES` to run.
        query: The pair's query.
        response: The pair's response.
        timeout: Seconds per run.
        extra_env: `KEY=VALUE` settings for each run.

    Returns:
        One result per mode, in the order given.

    """
    env = child_env(repo, swipl_bin, extra_env)
    results = {m: ModeResult(m) for m in modes}
    for mode in modes:  # the warm-up: writes the saved states a cold process then reads
        args = ["--query", query, "--response", response, "--json", *MODES[mode]]
        try:
            run_once(python, repo, env, args, timeout)
        except (RuntimeError, subprocess.TimeoutExpired) as exc:
            log.warning("warm-up (%s) failed: %s", mode, exc)
    for i in range(runs):
        for mode in modes:
            args = ["--query", query, "--response", response, "--json", *MODES[mode]]
            try:
                wall, verdict = run_once(python, repo, env, args, timeout)
            except (RuntimeError, subprocess.TimeoutExpired) as exc:
                log.warning("run %d (%s) failed: %s", i + 1, mode, exc)
                results[mode].failures += 1
                continue
            res = results[mode]
            res.walls.append(wall)
            res.labels.append(f"{verdict.get('label')}/{verdict.get('decision')}")
            for node, secs in (verdict.get("provenance", {}).get("timings") or {}).items():
                res.nodes.setdefault(node, []).append(float(secs))
            log.info("run %d (%s): %.2fs %s", i + 1, mode, wall, res.labels[-1])
    return list(results.values())


def report(results: list[ModeResult], runs: int) -> str:
    """The final table: wall median / min / max per mode, then median node timings.

    Args:
        results: Per-mode results.
        runs: Runs asked for per mode.

    Returns:
        The report text.

    """
    lines = [
        f"cold `drowzee verify`, {runs} runs per mode (seconds)",
        f"{'mode':<12} {'median':>7} {'min':>7} {'max':>7}  ok",
    ]
    for r in results:
        if r.walls:
            lines.append(
                f"{r.mode:<12} {statistics.median(r.walls):7.2f} {min(r.walls):7.2f} {max(r.walls):7.2f}"
                f"  {len(r.walls)}/{runs} {sorted(set(r.labels))}"
            )
        else:
            lines.append(f"{r.mode:<12} {'-':>7} {'-':>7} {'-':>7}  0/{runs}")
    for r in results:
        if r.nodes:
            med = ", ".join(f"{n} {statistics.median(v):.2f}" for n, v in r.nodes.items())
            lines.append(f"  node medians ({r.mode}): {med}")
    return "\n".join(lines)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """Command-line options.

    Args:
        argv: Arguments (default: `sys.argv[1:]`).

    Returns:
        The parsed options.

    """
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--repo", type=Path, default=Path(__file__).resolve().parents[1], help="repository root (first on PYTHONPATH)"
    )
    p.add_argument("--python", type=Path, default=Path(sys.executable), help="interpreter to run")
    p.add_argument("-n", "--runs", type=int, default=5, help="runs per mode (default 5)")
    p.add_argument("--mode", choices=list(MODES), action="append", help="modes to run (repeatable; default: all three)")
    p.add_argument("--swipl-bin", type=Path, default=DEFAULT_SWIPL_BIN, help="folder of the swipl binary")
    p.add_argument("--query", default=DEFAULT_QUERY)
    p.add_argument("--response", default=DEFAULT_RESPONSE)
    p.add_argument("--timeout", type=float, default=300.0, help="seconds per run before it is killed")
    p.add_argument(
        "--env", action="append", default=[], metavar="KEY=VALUE", help="extra environment of each run (repeatable)"
    )
    p.add_argument("--service", metavar="URL", help="hand every pair to the running service at URL")
    p.add_argument("-v", "--verbose", action="store_true", help="log each run")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the report.

    Args:
        argv: Arguments (default: `sys.argv[1:]`).

    Returns:
        Exit status: 0 when every run succeeded, 1 otherwise.

    """
    args = parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")
    modes = args.mode or list(MODES)
    results = bench(
        args.python,
        args.repo.resolve(),
        args.swipl_bin,
        args.runs,
        modes,
        args.query,
        args.response,
        args.timeout,
        [*args.env, *([f"DROWZEE_SERVICE_URL={args.service}"] if args.service else [])],
    )
    print(report(results, args.runs))
    return 0 if all(r.failures == 0 for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
